import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkLegalMarkdown, docsFileSchema, downloadsFileSchema, faqFileSchema, formatIssuePath, parseContent, plansFileSchema, productsFileSchema } from "./content";
import { loadContent } from "./content.server";

const SHIPPED = path.resolve(import.meta.dirname, "../../../content");
const tempDirs: string[] = [];

/** A copy of the shipped content/ with one file changed, so each test breaks exactly one rule. */
function contentWith(edit: (dir: string) => void): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kestrel-content-"));
  tempDirs.push(dir);
  fs.cpSync(SHIPPED, dir, { recursive: true });
  edit(dir);
  return dir;
}

// biome-ignore lint/suspicious/noExplicitAny: tests reach into arbitrary content JSON to break one rule at a time.
function editJson(dir: string, name: string, change: (data: any) => void) {
  const file = path.join(dir, name);
  const data = JSON.parse(fs.readFileSync(file, "utf8"));
  change(data);
  fs.writeFileSync(file, JSON.stringify(data));
}

function loadError(dir: string): string {
  try {
    loadContent(dir);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected loadContent to fail");
}

const shippedProducts = () => JSON.parse(fs.readFileSync(path.join(SHIPPED, "products.json"), "utf8"));

afterEach(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe("shipped content", () => {
  it("loads cleanly with every file and cross-reference valid", () => {
    const content = loadContent(SHIPPED);
    expect(content.products).toHaveLength(6);
    expect(content.downloads).toHaveLength(6);
    expect(content.docs.products.map((d) => [d.product, d.entries.length])).toEqual([
      ["vault", 3],
      ["sandbox", 2],
      ["capture", 2],
      ["capture-ultimate", 2],
      ["studio", 2],
      ["preset-packs", 2],
    ]);
    expect(content.docs.products[0]?.entries.map((e) => `${e.title} (${e.type})`)).toEqual(["Activation Failed (error)", "Features Not Working (warning)", "App Crashing (error)"]);
    expect(content.plans.plans.map((p) => [p.name, p.price, p.custom])).toEqual([
      ["Reseller Starter", "$175/month", false],
      ["Reseller Pro", "$250", false],
      ["Single Key Purchase", "$60", false],
      ["Bulk Key Purchase", "Custom", true],
    ]);
    expect(Object.keys(content.legal).sort()).toEqual(["dmca", "privacy", "refund", "terms"]);
  });

  it("has the FAQ answers the shop promises (one licence per device, refunds, payment methods)", () => {
    const answers = loadContent(SHIPPED)
      .faq.map((q) => q.answer)
      .join("\n");
    expect(answers).toContain("one device");
    expect(answers).toContain("Refunds are only issued if our support team cannot resolve your issue");
    expect(answers).toContain("crypto, cards and other methods through our hosted shop");
  });

  it("has a refund policy with the 24-hour window, 7–10 business days and the non-refundable cases", () => {
    const refund = loadContent(SHIPPED).legal.refund ?? "";
    for (const text of ["within 24 hours", "7–10 business days", "used for more than 24 hours", "tampered", "Late requests", "evidence"]) expect(refund).toContain(text);
  });
});

describe("file errors", () => {
  it("names a missing file", () => {
    const dir = contentWith((d) => fs.rmSync(path.join(d, "faq.json")));
    expect(loadError(dir)).toBe(`content/faq.json: file is missing (looked in ${dir})`);
  });

  it("names a missing legal Markdown file", () => {
    const dir = contentWith((d) => fs.rmSync(path.join(d, "legal/dmca.md")));
    expect(loadError(dir)).toBe(`content/legal/dmca.md: file is missing (looked in ${dir})`);
  });

  it("names a file that is not valid JSON", () => {
    const dir = contentWith((d) => fs.writeFileSync(path.join(d, "products.json"), "[{"));
    expect(loadError(dir)).toMatch(/^content\/products\.json: not valid JSON \(.+\)$/);
  });
});

describe("products.json rules", () => {
  const parse = (data: unknown) => () => parseContent("content/products.json", productsFileSchema, data);

  it("formats paths like [2].durations[1].multiplier", () => {
    expect(formatIssuePath([2, "durations", 1, "multiplier"])).toBe("[2].durations[1].multiplier");
    expect(formatIssuePath(["products", 0, "product"])).toBe("products[0].product");
  });

  it("rejects a multiplier that is not a positive number", () => {
    const products = shippedProducts();
    products[2].durations[1].multiplier = 0;
    expect(parse(products)).toThrow("content/products.json: [2].durations[1].multiplier: expected a positive number");
    products[2].durations[1].multiplier = "2";
    expect(parse(products)).toThrow("content/products.json: [2].durations[1].multiplier: expected a positive number");
  });

  it("rejects a price that is not a positive number", () => {
    const products = shippedProducts();
    products[0].price = -1;
    expect(parse(products)).toThrow("content/products.json: [0].price: expected a positive number");
  });

  it("rejects an empty name", () => {
    const products = shippedProducts();
    products[1].name = "  ";
    expect(parse(products)).toThrow("content/products.json: [1].name: expected a non-empty string");
  });

  it("rejects an image path that is not a site path", () => {
    const products = shippedProducts();
    products[0].images[0].src = "images/a.svg";
    expect(parse(products)).toThrow("content/products.json: [0].images[0].src: expected a site path starting with /");
  });

  it("rejects a product without durations", () => {
    const products = shippedProducts();
    products[3].durations = [];
    expect(parse(products)).toThrow("content/products.json: [3].durations: expected at least one duration");
  });

  it("rejects a product without images", () => {
    const products = shippedProducts();
    products[3].images = [];
    expect(parse(products)).toThrow("content/products.json: [3].images: expected at least one image");
  });

  it("rejects a slug that is not lowercase", () => {
    const products = shippedProducts();
    products[0].slug = "Vault";
    expect(parse(products)).toThrow("content/products.json: [0].slug: expected a lowercase slug");
  });

  it("rejects a shop link that is not an absolute URL", () => {
    const products = shippedProducts();
    products[0].shopUrl = "/shop";
    expect(parse(products)).toThrow("content/products.json: [0].shopUrl: expected an absolute URL");
  });

  it("rejects duplicate product ids", () => {
    const products = shippedProducts();
    products[4].id = products[1].id;
    expect(parse(products)).toThrow(`content/products.json: [4].id: duplicate product id ${products[1].id} (also at [1])`);
  });

  it("rejects duplicate variant ids, even across products", () => {
    const products = shippedProducts();
    products[5].durations[0].variantId = products[0].durations[1].variantId;
    expect(parse(products)).toThrow(`content/products.json: [5].durations[0].variantId: duplicate variant id ${products[0].durations[1].variantId} (also at [0].durations[1])`);
  });

  it("rejects duplicate slugs", () => {
    const products = shippedProducts();
    products[2].slug = products[0].slug;
    expect(parse(products)).toThrow(`content/products.json: [2].slug: duplicate slug "${products[0].slug}"`);
  });

  it("rejects a category that site.json does not list", () => {
    const dir = contentWith((d) => editJson(d, "products.json", (p) => (p[1].category = "games")));
    expect(loadError(dir)).toBe("content/products.json: [1].category: expected one of utilities, creator (from site.json categories)");
  });
});

describe("site.json cross-references", () => {
  it("rejects a legacy alias that points at no product", () => {
    const dir = contentWith((d) => editJson(d, "site.json", (s) => (s.legacyAliases[2].productId = 999)));
    expect(loadError(dir)).toBe("content/site.json: legacyAliases[2].productId: alias /capture points at no product (999)");
  });

  it("rejects a home tile that points at no product", () => {
    const dir = contentWith((d) => editJson(d, "site.json", (s) => (s.homeTiles[0] = 1)));
    expect(loadError(dir)).toBe("content/site.json: homeTiles[0]: no product with id 1");
  });

  it("rejects a legal page missing from site.json", () => {
    const dir = contentWith((d) => editJson(d, "site.json", (s) => (s.legal = s.legal.filter((l: { slug: string }) => l.slug !== "dmca"))));
    expect(loadError(dir)).toBe('content/site.json: legal: expected an entry for "dmca" (the /dmca page)');
  });

  it("rejects a legal lastUpdated that is not a date", () => {
    const dir = contentWith((d) => editJson(d, "site.json", (s) => (s.legal[0].lastUpdated = "November 2026")));
    expect(loadError(dir)).toBe("content/site.json: legal[0].lastUpdated: expected a date YYYY-MM-DD");
  });
});

describe("faq.json rules", () => {
  const parse = (data: unknown) => () => parseContent("content/faq.json", faqFileSchema, data);

  it("rejects an empty answer", () => {
    expect(parse([{ id: "a", question: "Q?", answer: "" }])).toThrow("content/faq.json: [0].answer: expected a non-empty string");
  });

  it("rejects an id that cannot be an anchor", () => {
    expect(parse([{ id: "Refund Policy", question: "Q?", answer: "A." }])).toThrow("content/faq.json: [0].id: expected a lowercase id");
  });

  it("rejects duplicate question ids", () => {
    const item = { id: "refunds", question: "Q?", answer: "A." };
    expect(parse([item, { ...item }])).toThrow('content/faq.json: [1].id: duplicate question id "refunds" (also at [0])');
  });

  it("rejects an empty list", () => {
    expect(parse([])).toThrow("content/faq.json: expected at least one question");
  });
});

describe("docs.json rules", () => {
  const entry = { title: "Activation Failed", type: "error", description: "It fails.", solution: ["Run as administrator."] };
  const parse = (data: unknown) => () => parseContent("content/docs.json", docsFileSchema, data);

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
    expect(parse({ intro: "Help.", products: [doc, doc] })).toThrow('content/docs.json: products[1].product: duplicate product "vault" (also at [0])');
  });

  it("rejects a resource link that is neither a site path nor https", () => {
    expect(parse({ intro: "Help.", products: [{ product: "vault", entries: [entry] }], resources: [{ label: "X", href: "javascript:alert(1)", description: "x" }] })).toThrow(
      "content/docs.json: resources[0].href: expected a site path starting with / or an https:// URL",
    );
  });

  it("rejects docs for a product that does not exist", () => {
    const dir = contentWith((d) => editJson(d, "docs.json", (docs) => (docs.products[1].product = "sandbox-pro")));
    expect(loadError(dir)).toBe('content/docs.json: products[1].product: no product with slug "sandbox-pro"');
  });
});

describe("downloads.json rules", () => {
  const download = {
    id: "vault",
    name: "Kestrel Vault",
    version: "3.4.2",
    size: "48.2 MB",
    date: "2026-11-12",
    status: "stable",
    description: "Vault.",
    requirements: ["Windows 11"],
    changelog: ["Fixes"],
  };
  const parse = (data: unknown) => () => parseContent("content/downloads.json", downloadsFileSchema, data);

  it("rejects a status other than stable, beta or new", () => {
    expect(parse([{ ...download, status: "alpha" }])).toThrow("content/downloads.json: [0].status: expected stable, beta or new");
  });

  it("rejects a date that is not YYYY-MM-DD", () => {
    expect(parse([{ ...download, date: "12/11/2026" }])).toThrow("content/downloads.json: [0].date: expected a date YYYY-MM-DD");
  });

  it("rejects a size without a unit", () => {
    expect(parse([{ ...download, size: "48" }])).toThrow("content/downloads.json: [0].size: expected a size like 48.2 MB");
  });

  it("rejects an empty changelog", () => {
    expect(parse([{ ...download, changelog: [] }])).toThrow("content/downloads.json: [0].changelog: expected at least one changelog line");
  });

  it("rejects duplicate download ids", () => {
    expect(parse([download, download])).toThrow('content/downloads.json: [1].id: duplicate download id "vault" (also at [0])');
  });

  it("rejects a download for a product that does not exist", () => {
    const dir = contentWith((d) => editJson(d, "downloads.json", (downloads) => (downloads[0].productId = 42)));
    expect(loadError(dir)).toBe("content/downloads.json: [0].productId: no product with id 42");
  });
});

describe("plans.json rules", () => {
  const plan = { id: "starter", name: "Reseller Starter", price: "$175/month", priceDetail: "Monthly.", description: "Start.", features: ["Priority support"] };
  const parse = (plans: unknown[]) => () => parseContent("content/plans.json", plansFileSchema, { intro: "Resell.", plans });

  it("rejects a price that is not $N, $N/month or Custom", () => {
    expect(parse([{ ...plan, price: "175 dollars" }])).toThrow('content/plans.json: plans[0].price: expected a price like "$60", "$175/month" or "Custom"');
  });

  it('rejects a custom plan whose price is not "Custom" (and the reverse)', () => {
    expect(parse([{ ...plan, custom: true }])).toThrow('content/plans.json: plans[0].price: expected "Custom" exactly when the plan is marked custom');
    expect(parse([{ ...plan, price: "Custom" }])).toThrow('content/plans.json: plans[0].price: expected "Custom" exactly when the plan is marked custom');
  });

  it("rejects a plan without features", () => {
    expect(parse([{ ...plan, features: [] }])).toThrow("content/plans.json: plans[0].features: expected at least one feature");
  });

  it("rejects duplicate plan ids", () => {
    expect(parse([plan, plan])).toThrow('content/plans.json: plans[1].id: duplicate plan id "starter" (also at [0])');
  });
});

describe("legal Markdown rules", () => {
  it("rejects an empty file", () => {
    expect(checkLegalMarkdown("content/legal/terms.md", "  \n", "Kestrel Software")).toEqual(["content/legal/terms.md: expected Markdown text, got an empty file"]);
  });

  it("rejects template placeholders", () => {
    expect(checkLegalMarkdown("content/legal/privacy.md", "Kestrel Software, [Company Address].", "Kestrel Software")).toEqual([
      'content/legal/privacy.md: contains the placeholder "[Company Address]"',
    ]);
    expect(checkLegalMarkdown("content/legal/privacy.md", "Kestrel Software since {{year}}.", "Kestrel Software")).toEqual(['content/legal/privacy.md: contains the placeholder "{{"']);
  });

  it("accepts ordinary Markdown links", () => {
    expect(checkLegalMarkdown("content/legal/terms.md", "Kestrel Software: see the [Refund Policy](/refund).", "Kestrel Software")).toEqual([]);
  });

  it("rejects a page that never names the company", () => {
    expect(checkLegalMarkdown("content/legal/dmca.md", "We respect copyright.", "Kestrel Software")).toEqual(['content/legal/dmca.md: expected the company name "Kestrel Software" in the text']);
  });

  it("reports a broken legal file when loading content", () => {
    const dir = contentWith((d) => fs.appendFileSync(path.join(d, "legal/refund.md"), "\nContact: [Your Email]\n"));
    expect(loadError(dir)).toBe('content/legal/refund.md: contains the placeholder "[Your Email]"');
  });
});
