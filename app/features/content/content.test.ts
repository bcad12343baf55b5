import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { LEGAL_SLUGS } from "~/features/legal/legal-pages";
import { formatIssuePath } from "./content";
import { loadContent } from "./content.server";
import { type ContentFixture, minimalContent, minimalLegalMarkdown, writeContent } from "./fixtures/minimal-content";

const SHIPPED = path.resolve(import.meta.dirname, "../../../content");
const tempDirs: string[] = [];

afterEach(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A content/ directory holding the minimal fixture after `edit`, so each test breaks exactly one rule. */
// biome-ignore lint/suspicious/noExplicitAny: tests reach into the fixture's JSON to break one rule at a time, often with a wrongly typed value.
function contentDir(edit: (files: any, markdown: Record<string, string>) => void = () => {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kestrel-content-"));
  tempDirs.push(dir);
  const files: ContentFixture = minimalContent();
  const markdown = minimalLegalMarkdown();
  edit(files, markdown);
  writeContent(dir, files, markdown);
  return dir;
}

function loadError(dir: string): string {
  try {
    loadContent(dir);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected loadContent to fail");
}

describe("the shipped content/", () => {
  it("passes every rule, with every legal page's Markdown present", () => {
    const content = loadContent(SHIPPED);
    expect(content.products.length).toBeGreaterThan(0);
    expect(Object.keys(content.legal).sort()).toEqual([...LEGAL_SLUGS].sort());
  });
});

describe("the content registry", () => {
  it("loads the minimal fixture (so each test below fails for its one broken rule)", () => {
    const content = loadContent(contentDir());
    expect(content.products.map((p) => p.id)).toEqual([1001, 1002, 1003]);
    expect(content.legal.refund).toContain("Fixture Software");
  });

  it("names a missing file and where it looked", () => {
    const dir = contentDir();
    fs.rmSync(path.join(dir, "faq.json"));
    expect(loadError(dir)).toBe(`content/faq.json: file is missing (looked in ${dir})`);
  });

  it("names a missing legal Markdown file", () => {
    const dir = contentDir((_files, markdown) => delete markdown["legal/dmca.md"]);
    expect(loadError(dir)).toBe(`content/legal/dmca.md: file is missing (looked in ${dir})`);
  });

  it("names a file that is not valid JSON", () => {
    const dir = contentDir();
    fs.writeFileSync(path.join(dir, "products.json"), "[{");
    expect(loadError(dir)).toMatch(/^content\/products\.json: not valid JSON \(.+\)$/);
  });

  it("reports a rule broken inside a file with the file, the path in it and what was expected", () => {
    const dir = contentDir((files) => (files["products.json"][2].durations[1].multiplier = 0));
    expect(loadError(dir)).toBe("content/products.json: [2].durations[1].multiplier: expected a positive number");
  });

  it("reports every broken rule of a file, one per line", () => {
    const dir = contentDir((files) => {
      files["faq.json"][0].answer = "";
      files["faq.json"][0].id = "Not An Anchor";
    });
    expect(loadError(dir).split("\n").sort()).toEqual([
      "content/faq.json: [0].answer: expected a non-empty string",
      "content/faq.json: [0].id: expected a lowercase id",
    ]);
  });

  it("formats paths like [2].durations[1].multiplier and products[0].product", () => {
    expect(formatIssuePath([2, "durations", 1, "multiplier"])).toBe("[2].durations[1].multiplier");
    expect(formatIssuePath(["products", 0, "product"])).toBe("products[0].product");
  });
});

describe("rules across files", () => {
  it("rejects a legacy alias that points at no product", () => {
    const dir = contentDir((files) => (files["site.json"].legacyAliases[2].productId = 999));
    expect(loadError(dir)).toBe(
      "content/site.json: legacyAliases[2].productId: alias /three points at no product (999)",
    );
  });

  it("rejects a home tile that points at no product", () => {
    const dir = contentDir((files) => (files["site.json"].homeTiles[0] = 1));
    expect(loadError(dir)).toBe("content/site.json: homeTiles[0]: no product with id 1");
  });

  it("rejects a product category that site.json does not list", () => {
    const dir = contentDir((files) => {
      files["site.json"].categories.push({ value: "games", label: "Games" });
      files["products.json"][1].category = "music";
    });
    expect(loadError(dir)).toBe(
      "content/products.json: [1].category: expected one of tools, games (from site.json categories)",
    );
  });

  it("rejects docs for a product slug that does not exist", () => {
    const dir = contentDir((files) => (files["docs.json"].products[0].product = "product-9"));
    expect(loadError(dir)).toBe('content/docs.json: products[0].product: no product with slug "product-9"');
  });

  it("rejects a download for a product id that does not exist", () => {
    const dir = contentDir((files) => (files["downloads.json"][0].productId = 42));
    expect(loadError(dir)).toBe("content/downloads.json: [0].productId: no product with id 42");
  });

  it("rejects a legal page missing from site.json", () => {
    const dir = contentDir(
      (files) =>
        (files["site.json"].legal = files["site.json"].legal.filter((l: { slug: string }) => l.slug !== "dmca")),
    );
    expect(loadError(dir)).toBe('content/site.json: legal: expected an entry for "dmca" (the /dmca page)');
  });

  it("rejects a legal page that is not one the shop serves", () => {
    const dir = contentDir((files) => (files["site.json"].legal[0].slug = "cookies"));
    expect(loadError(dir)).toMatch(/^content\/site\.json: legal\[0\]\.slug: .*"terms"/);
  });

  it("rejects a legal lastUpdated that is not a date", () => {
    const dir = contentDir((files) => (files["site.json"].legal[0].lastUpdated = "November 2026"));
    expect(loadError(dir)).toBe("content/site.json: legal[0].lastUpdated: expected a date YYYY-MM-DD");
  });

  it("checks each legal page's Markdown against the company named in site.json", () => {
    const dir = contentDir((files, markdown) => {
      files["site.json"].company = "Other Software";
      for (const file of Object.keys(markdown)) markdown[file] = `${markdown[file]}\nOther Software.\n`;
      markdown["legal/refund.md"] = "## Refunds\n\nContact: [Your Email]\n";
    });
    expect(loadError(dir).split("\n")).toEqual([
      'content/legal/refund.md: contains the placeholder "[Your Email]"',
      'content/legal/refund.md: expected the company name "Other Software" in the text',
    ]);
  });
});
