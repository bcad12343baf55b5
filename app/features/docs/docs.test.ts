import { describe, expect, it } from "vitest";
import type { DocsFile } from "./docs.content";
import { docEntryAnchor, selectDocs } from "./docs";

const entry = (title: string) => ({ title, type: "info" as const, description: "d", solution: ["s"] });
const docs: DocsFile = {
  intro: "Help.",
  products: [
    { product: "vault", entries: [entry("A"), entry("B"), entry("C")] },
    { product: "capture", entries: [entry("D")] },
  ],
  resources: [],
};
const products = [
  { slug: "capture", name: "Kestrel Capture" },
  { slug: "vault", name: "Kestrel Vault" },
];

describe("selectDocs", () => {
  it("lists products in docs order with their display names", () => {
    expect(selectDocs(docs, products, null).options).toEqual([
      { slug: "vault", name: "Kestrel Vault", entryCount: 3 },
      { slug: "capture", name: "Kestrel Capture", entryCount: 1 },
    ]);
  });

  it("selects the product named in ?product=", () => {
    const view = selectDocs(docs, products, "capture");
    expect(view.selected.slug).toBe("capture");
    expect(view.entries.map((e) => e.title)).toEqual(["D"]);
  });

  it("falls back to the first product when the slug is missing or unknown", () => {
    expect(selectDocs(docs, products, null).selected.slug).toBe("vault");
    expect(selectDocs(docs, products, "nope").selected.slug).toBe("vault");
  });
});

describe("selectDocs in another language", () => {
  it("names each entry's anchor after its English title, so a shared #fragment works in every language", () => {
    const german: DocsFile = {
      ...docs,
      products: [
        { product: "vault", entries: [entry("Aktivierung fehlgeschlagen"), entry("B"), entry("App stürzt ab")] },
        docs.products[1]!,
      ],
    };
    const view = selectDocs(german, products, "vault", docs);
    expect(view.entries.map((e) => [e.title, e.anchor])).toEqual([
      ["Aktivierung fehlgeschlagen", "a"],
      ["B", "b"],
      ["App stürzt ab", "c"],
    ]);
  });
});

describe("docEntryAnchor", () => {
  it("turns a title into a URL fragment", () => {
    expect(docEntryAnchor("App Crashing")).toBe("app-crashing");
    expect(docEntryAnchor("Export Takes Very Long!")).toBe("export-takes-very-long");
  });
});
