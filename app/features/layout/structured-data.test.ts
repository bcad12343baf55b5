import { describe, expect, it } from "vitest";
import { loadContent } from "~/features/content/content.server";
import { breadcrumbJsonLd, faqPageJsonLd, organizationJsonLd, productJsonLd, serializeJsonLd } from "./structured-data";

const content = loadContent("content");
const studio = content.products.find((p) => p.id === 446894)!;
const base = "https://shop.example.com";

describe("structured data", () => {
  it("gives Kestrel Studio one USD Offer per duration at the displayed prices", () => {
    const product = productJsonLd(studio, base, "Kestrel Software");
    expect(product["@type"]).toBe("Product");
    expect(product.url).toBe("https://shop.example.com/product/446894");
    const offers = product.offers as Array<Record<string, string>>;
    expect(offers.map((o) => [o.name, o.price, o.priceCurrency, o.availability])).toEqual([
      ["1 Week", "39.99", "USD", "https://schema.org/InStock"],
      ["1 Month", "89.99", "USD", "https://schema.org/InStock"],
      ["Lifetime", "299.93", "USD", "https://schema.org/InStock"],
    ]);
    expect((product.image as string[]).every((src) => src.startsWith(`${base}/`))).toBe(true);
  });

  it("numbers breadcrumbs from 1 with absolute item URLs", () => {
    const trail = breadcrumbJsonLd(
      [
        { name: "Home", path: "/" },
        { name: "Products", path: "/products" },
      ],
      base,
    );
    expect(trail.itemListElement).toEqual([
      { "@type": "ListItem", position: 1, name: "Home", item: "https://shop.example.com/" },
      { "@type": "ListItem", position: 2, name: "Products", item: "https://shop.example.com/products" },
    ]);
  });

  it("turns every FAQ entry into a Question with an accepted Answer", () => {
    const page = faqPageJsonLd(content.faq);
    expect(page["@type"]).toBe("FAQPage");
    expect((page.mainEntity as unknown[]).length).toBe(content.faq.length);
  });

  it("says which language the FAQPage is written in", () => {
    expect(faqPageJsonLd(content.faq).inLanguage).toBe("en");
    expect(faqPageJsonLd(content.faq, "pt-br").inLanguage).toBe("pt-BR");
  });

  it("names the organisation with an absolute URL", () => {
    expect(organizationJsonLd({ name: "Kestrel Software", publicUrl: base, description: "d" })).toMatchObject({
      "@type": "Organization",
      url: `${base}/`,
    });
  });

  it("escapes '<' so text can never close the script element", () => {
    const json = serializeJsonLd({ "@type": "Thing", name: "</script><script>alert(1)</script>" });
    expect(json).not.toContain("<");
    expect(JSON.parse(json).name).toBe("</script><script>alert(1)</script>");
  });
});
