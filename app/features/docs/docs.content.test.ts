import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseContent } from "~/features/content/content";
import { loadContent } from "~/features/content/content.server";
import { docsFileSchema } from "./docs.content";

describe("content/docs.json rules", () => {
  const entry = {
    title: "Activation Failed",
    type: "error",
    description: "It fails.",
    solution: ["Run as administrator."],
  };
  const parse = (data: unknown) => () => parseContent("content/docs.json", docsFileSchema, data);

  it("accepts entries per product and defaults resources to none", () => {
    expect(parse({ intro: "Help.", products: [{ product: "vault", entries: [entry] }] })()).toMatchObject({
      resources: [],
    });
  });

  it("rejects an entry type other than error, warning or info", () => {
    expect(parse({ intro: "Help.", products: [{ product: "vault", entries: [{ ...entry, type: "fatal" }] }] })).toThrow(
      "content/docs.json: products[0].entries[0].type: expected error, warning or info",
    );
  });

  it("rejects an entry without solution steps", () => {
    expect(parse({ intro: "Help.", products: [{ product: "vault", entries: [{ ...entry, solution: [] }] }] })).toThrow(
      "content/docs.json: products[0].entries[0].solution: expected at least one solution step",
    );
  });

  it("rejects a product listed twice", () => {
    const doc = { product: "vault", entries: [entry] };
    expect(parse({ intro: "Help.", products: [doc, doc] })).toThrow(
      'content/docs.json: products[1].product: duplicate product "vault" (also at [0])',
    );
  });

  it("rejects a resource link that is neither a site path nor https", () => {
    expect(
      parse({
        intro: "Help.",
        products: [{ product: "vault", entries: [entry] }],
        resources: [{ label: "X", href: "javascript:alert(1)", description: "x" }],
      }),
    ).toThrow("content/docs.json: resources[0].href: expected a site path starting with / or an https:// URL");
  });
});

describe("the shipped content/docs.json", () => {
  const { docs } = loadContent(path.resolve(import.meta.dirname, "../../../content"));

  it("lists each demo product's entry types in this order", () => {
    expect(docs.products.map((doc) => [doc.product, doc.entries.map((entry) => entry.type)])).toEqual([
      ["vault", ["error", "warning", "error"]],
      ["sandbox", ["error", "warning"]],
      ["capture", ["error", "info"]],
      ["capture-ultimate", ["warning", "info"]],
      ["studio", ["error", "warning"]],
      ["preset-packs", ["error", "warning"]],
    ]);
  });

  it("holds 6 errors, 5 warnings and 2 info entries in all", () => {
    const counts = { error: 0, warning: 0, info: 0 };
    for (const doc of docs.products) for (const entry of doc.entries) counts[entry.type] += 1;
    expect(counts).toEqual({ error: 6, warning: 5, info: 2 });
  });
});
