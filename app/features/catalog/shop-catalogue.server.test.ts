import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { siteSchema } from "~/features/layout/site.content";
import type { ProductOverlay } from "./catalog.content";
import { productsFromShop, type ShopSnapshot, shopImageOrigins } from "./shop-catalogue.server";
import type { ShopProduct } from "./sources/sellauth.server";

const site = siteSchema.parse(JSON.parse(fs.readFileSync(path.resolve("content/site.json"), "utf8")));
const shopProduct = (id: number, images: ShopProduct["images"]): ShopProduct => ({
  id,
  name: `Product ${id}`,
  path: `product-${id}`,
  description: "<p>From the shop.</p>",
  currency: "USD",
  visibility: "public",
  groupId: null,
  sold: 0,
  variants: [{ id: id * 10, name: "Lifetime", description: null, priceCents: 999, stock: null }],
  images,
});
const snapshotOf = (products: ShopProduct[]): ShopSnapshot => ({
  syncedAt: "2026-11-27T09:00:00.000Z",
  settings: {
    name: null,
    subdomain: null,
    averageRating: null,
    totalFeedbacks: null,
    hideAutomaticFeedbacks: false,
    hideStockCounts: false,
  },
  groups: [],
  products,
  feedbacks: [],
  skipped: [],
});
const listed = (products: ShopProduct[], overlay: ProductOverlay[] = []) =>
  productsFromShop(snapshotOf(products), overlay, site, { shopUrl: "https://kestrel.mysellauth.com" });

const SHOP_IMAGES = [{ url: "https://imagedelivery.net/h/one/public" }, { url: "https://cdn.example.com/two.png" }];

describe("a shop product's images on the storefront", () => {
  it("are the shop's own, each with the frame's width and height, named by the product", () => {
    const [product] = listed([shopProduct(1, SHOP_IMAGES)]);
    expect(product?.images).toEqual([
      { src: "https://imagedelivery.net/h/one/public", alt: "Product 1", width: 800, height: 500 },
      { src: "https://cdn.example.com/two.png", alt: "Product 1", width: 800, height: 500 },
    ]);
    expect(product?.cardImage).toEqual({
      src: "https://imagedelivery.net/h/one/public",
      alt: "Product 1",
      width: 400,
      height: 250,
    });
  });

  it("are the overlay's when content/products.json gives them, image by image", () => {
    const overlayImages = [{ src: "/images/products/studio-1.svg", alt: "Studio", width: 800, height: 500 }];
    const overlayCard = { src: "/images/products/studio-card.svg", alt: "Studio", width: 400, height: 250 };
    const [both] = listed([shopProduct(1, SHOP_IMAGES)], [{ id: 1, images: overlayImages, cardImage: overlayCard }]);
    expect(both?.images).toEqual(overlayImages);
    expect(both?.cardImage).toEqual(overlayCard);
    const [galleryOnly] = listed([shopProduct(1, SHOP_IMAGES)], [{ id: 1, images: overlayImages }]);
    expect(galleryOnly?.images).toEqual(overlayImages);
    expect(galleryOnly?.cardImage.src).toBe("https://imagedelivery.net/h/one/public");
  });

  it("are today's neutral placeholder when the shop has none", () => {
    const [product] = listed([shopProduct(1, [])]);
    expect(product?.images).toEqual([
      { src: "/images/products/shop-product.svg", alt: "Product 1", width: 800, height: 500 },
    ]);
    expect(product?.cardImage).toEqual({
      src: "/images/products/shop-product-card.svg",
      alt: "Product 1",
      width: 400,
      height: 250,
    });
  });

  it("are the placeholder for a snapshot written before images were read", () => {
    const old = { ...shopProduct(1, []), images: undefined } as unknown as ShopProduct;
    expect(listed([old])[0]?.cardImage.src).toBe("/images/products/shop-product-card.svg");
    expect(shopImageOrigins(snapshotOf([old]))).toEqual([]);
  });

  it("come from origins the CSP can name: each host once", () => {
    expect(
      shopImageOrigins(
        snapshotOf([shopProduct(1, SHOP_IMAGES), shopProduct(2, [{ url: "https://cdn.example.com/three.png" }])]),
      ),
    ).toEqual(["https://imagedelivery.net", "https://cdn.example.com"]);
    const hidden = { ...shopProduct(3, [{ url: "https://hidden.example.com/x.png" }]), visibility: "hidden" };
    expect(shopImageOrigins(snapshotOf([hidden]))).toEqual([]);
  });
});
