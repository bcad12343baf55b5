import { setupI18n } from "@lingui/core";
import { describe, expect, it } from "vitest";
import { provideTranslators } from "~/features/i18n/translator";
import { pageMeta } from "./page-meta";

const root = { layout: { brand: "Acme Tools", publicUrl: "https://shop.example" } };

describe("pageMeta", () => {
  it("titles the page with the brand and links an absolute canonical URL as a <link>, not a <meta>", () => {
    const tags = pageMeta(root, { title: "FAQ", description: "Answers.", path: "/faq" });
    expect(tags).toContainEqual({ title: "FAQ | Acme Tools" });
    expect(tags).toContainEqual({ tagName: "link", rel: "canonical", href: "https://shop.example/faq" });
    expect(tags).toContainEqual({ property: "og:url", content: "https://shop.example/faq" });
    expect(tags).toContainEqual({ name: "description", content: "Answers." });
    expect(tags.filter((tag) => "rel" in tag && !("tagName" in tag))).toEqual([]);
  });

  it("keeps a title that already names the brand as it is", () => {
    expect(
      pageMeta(root, { title: "Acme Tools | Tools that last", appendBrand: false, description: "d", path: "/" }),
    ).toContainEqual({ title: "Acme Tools | Tools that last" });
  });

  it("gives Open Graph and Twitter cards a connected shop's image URL as it is", () => {
    const image = "https://imagedelivery.net/HL_Fwm__tlvUGLZF2p74xw/34231df0/public";
    const tags = pageMeta(root, { title: "Relay", description: "d", path: "/product/2", image });
    expect(tags).toContainEqual({ property: "og:image", content: image });
    expect(tags).toContainEqual({ name: "twitter:image", content: image });
  });

  it("gives Open Graph and Twitter cards an absolute image URL when the page has one", () => {
    const tags = pageMeta(root, { title: "Studio", description: "d", path: "/product/1", image: "/images/studio.svg" });
    expect(tags).toContainEqual({ property: "og:image", content: "https://shop.example/images/studio.svg" });
    expect(tags).toContainEqual({ name: "twitter:image", content: "https://shop.example/images/studio.svg" });
    expect(
      pageMeta(root, { title: "FAQ", description: "d", path: "/faq" }).some(
        (tag) => "property" in tag && tag.property === "og:image",
      ),
    ).toBe(false);
  });

  it("asks search engines not to list a page only when told", () => {
    const noindex = { name: "robots", content: "noindex" };
    expect(
      pageMeta(root, { title: "Thank you", description: "d", path: "/purchase/success", noindex: true }),
    ).toContainEqual(noindex);
    expect(pageMeta(root, { title: "FAQ", description: "d", path: "/faq" })).not.toContainEqual(noindex);
  });

  it("falls back to the shipped brand and a site-relative canonical when the root loader has no data", () => {
    const tags = pageMeta(undefined, { title: "FAQ", description: "d", path: "/faq" });
    expect(tags).toContainEqual({ title: "FAQ | Kestrel Software" });
    expect(tags).toContainEqual({ tagName: "link", rel: "canonical", href: "/faq" });
  });
});

describe("pageMeta in another language", () => {
  it("appends the brand as the catalogue of the path's language writes it, and links that path as canonical", () => {
    // A German catalogue without the message yet: Lingui shows the English pattern, as the built page would.
    provideTranslators((locale) => setupI18n({ locale, messages: { [locale]: {} } }));
    const tags = pageMeta(root, { title: "Häufige Fragen", description: "Antworten.", path: "/de/faq" });
    expect(tags).toContainEqual({ tagName: "link", rel: "canonical", href: "https://shop.example/de/faq" });
    expect(tags).toContainEqual({ title: "Häufige Fragen | Acme Tools" });
  });
});
