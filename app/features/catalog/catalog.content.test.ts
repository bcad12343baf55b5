import { describe, expect, it } from "vitest";
import { parseContent } from "~/features/content/content";
import { fixtureProduct } from "~/features/content/fixtures/minimal-content";
import { productsFileSchema } from "./catalog.content";

// biome-ignore lint/suspicious/noExplicitAny: each test breaks one field, often with a wrongly typed value.
type Editable = any[];

/** Three valid products, changed by `edit`, parsed as content/products.json. */
function parseProducts(edit: (products: Editable) => void) {
  const products: Editable = [fixtureProduct(1), fixtureProduct(2), fixtureProduct(3)];
  edit(products);
  return () => parseContent("content/products.json", productsFileSchema, products);
}

describe("content/products.json rules", () => {
  it("accepts the fixture products, filling in the optional fields", () => {
    const [first] = parseProducts(() => {})();
    expect(first).toMatchObject({
      badges: [],
      features: [],
      compatibility: [],
      isFeatured: false,
      shopUrl: null,
      maxQuantity: 1,
    });
  });

  it("keeps a maxQuantity that is a whole number from 1 to 100 and rejects any other", () => {
    expect(parseProducts((p) => (p[0].maxQuantity = 10))()[0]?.maxQuantity).toBe(10);
    expect(parseProducts((p) => (p[0].maxQuantity = 0))).toThrow(
      "content/products.json: [0].maxQuantity: expected at least 1",
    );
    expect(parseProducts((p) => (p[0].maxQuantity = 101))).toThrow(
      "content/products.json: [0].maxQuantity: expected at most 100",
    );
    expect(parseProducts((p) => (p[0].maxQuantity = 2.5))).toThrow(
      "content/products.json: [0].maxQuantity: expected a whole number of keys",
    );
  });

  it("rejects a multiplier that is not a positive number", () => {
    expect(parseProducts((p) => (p[2].durations[1].multiplier = 0))).toThrow(
      "content/products.json: [2].durations[1].multiplier: expected a positive number",
    );
    expect(parseProducts((p) => (p[2].durations[1].multiplier = "2"))).toThrow(
      "content/products.json: [2].durations[1].multiplier: expected a positive number",
    );
  });

  it("rejects a price that is not a positive number", () => {
    expect(parseProducts((p) => (p[0].price = -1))).toThrow(
      "content/products.json: [0].price: expected a positive number",
    );
  });

  it("rejects an empty name", () => {
    expect(parseProducts((p) => (p[1].name = "  "))).toThrow(
      "content/products.json: [1].name: expected a non-empty string",
    );
  });

  it("rejects an image path that is not a site path", () => {
    expect(parseProducts((p) => (p[0].images[0].src = "images/a.svg"))).toThrow(
      "content/products.json: [0].images[0].src: expected a site path starting with /",
    );
  });

  it("rejects a product without durations", () => {
    expect(parseProducts((p) => (p[2].durations = []))).toThrow(
      "content/products.json: [2].durations: expected at least one duration",
    );
  });

  it("rejects a product without images", () => {
    expect(parseProducts((p) => (p[2].images = []))).toThrow(
      "content/products.json: [2].images: expected at least one image",
    );
  });

  it("rejects a slug that is not lowercase", () => {
    expect(parseProducts((p) => (p[0].slug = "Vault"))).toThrow(
      "content/products.json: [0].slug: expected a lowercase slug",
    );
  });

  it("rejects a shop link that is not an absolute URL", () => {
    expect(parseProducts((p) => (p[0].shopUrl = "/shop"))).toThrow(
      "content/products.json: [0].shopUrl: expected an absolute URL",
    );
  });

  it("rejects duplicate product ids", () => {
    expect(parseProducts((p) => (p[2].id = p[0].id))).toThrow(
      "content/products.json: [2].id: duplicate product id 1001 (also at [0])",
    );
  });

  it("rejects duplicate variant ids, even across products", () => {
    expect(parseProducts((p) => (p[2].durations[0].variantId = p[0].durations[1].variantId))).toThrow(
      "content/products.json: [2].durations[0].variantId: duplicate variant id 2011 (also at [0].durations[1])",
    );
  });

  it("allows any number of durations without a variant id", () => {
    expect(
      parseProducts((p) => {
        p[0].durations[0].variantId = null;
        p[1].durations[0].variantId = null;
      }),
    ).not.toThrow();
  });

  it("rejects duplicate slugs", () => {
    expect(parseProducts((p) => (p[1].slug = p[0].slug))).toThrow(
      'content/products.json: [1].slug: duplicate slug "product-1"',
    );
  });
});
