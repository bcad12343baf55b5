import { describe, expect, it } from "vitest";
import { readShopImages, readShopProduct, SELLAUTH_IMAGE_DELIVERY, type ShopImageDelivery } from "./sellauth.server";

const ID = "34231df0-a3ba-4e4a-c440-85269a308700";
const CDN = "https://imagedelivery.net/HL_Fwm__tlvUGLZF2p74xw";
const product = (fields: Record<string, unknown>) => ({
  id: 762,
  name: "My Product",
  path: "my-product",
  currency: "USD",
  visibility: "public",
  variants: [{ id: 1368, name: "My Variant", price: "9.99", stock: -1 }],
  ...fields,
});
const urls = (raw: unknown, delivery?: ShopImageDelivery) => readShopImages(raw, delivery).map((image) => image.url);

describe("the shop's product images, read from whichever field the shop filled", () => {
  it("reads an `images` list of the Images API's objects by their url, in the shop's order", () => {
    expect(
      urls({
        images: [
          { $id: 450, cloudflare_image_id: "a", url: "https://imagedelivery.net/x/a/public" },
          { url: "https://cdn.example.com/b.webp" },
        ],
      }),
    ).toEqual(["https://imagedelivery.net/x/a/public", "https://cdn.example.com/b.webp"]);
  });

  it("reads a list entry that gives only its Cloudflare id, or a bare URL", () => {
    expect(urls({ images: [{ cloudflare_image_id: ID }, "https://cdn.example.com/c.png"] })).toEqual([
      `${CDN}/${ID}/public`,
      "https://cdn.example.com/c.png",
    ]);
  });

  it("reads `image_url`", () => {
    expect(urls({ image_url: "https://static.mysellauth.com/storage/images/732547.webp" })).toEqual([
      "https://static.mysellauth.com/storage/images/732547.webp",
    ]);
  });

  it("builds a Cloudflare image id's URL on SellAuth's delivery account with the public variant", () => {
    expect(SELLAUTH_IMAGE_DELIVERY).toEqual({
      deliveryUrl: "https://imagedelivery.net",
      accountHash: "HL_Fwm__tlvUGLZF2p74xw",
    });
    expect(urls({ cloudflare_image_id: ID })).toEqual([`${CDN}/${ID}/public`]);
  });

  it("builds it on the configured delivery URL (the emulator in tests)", () => {
    const delivery = { deliveryUrl: "http://127.0.0.1:4010/imagedelivery/", accountHash: "acct" };
    expect(urls({ cloudflare_image_id: ID }, delivery)).toEqual([
      `http://127.0.0.1:4010/imagedelivery/acct/${ID}/public`,
    ]);
  });

  it("lets the `images` list win over `image_url`, and `image_url` over `cloudflare_image_id`", () => {
    const all = {
      images: [{ url: "https://cdn.example.com/list.png" }],
      image_url: "https://cdn.example.com/single.png",
      cloudflare_image_id: ID,
    };
    expect(urls(all)).toEqual(["https://cdn.example.com/list.png"]);
    expect(urls({ ...all, images: [] })).toEqual(["https://cdn.example.com/single.png"]);
    expect(urls({ ...all, images: undefined, image_url: null })).toEqual([`${CDN}/${ID}/public`]);
  });

  it("lets a list entry's url win over its Cloudflare id", () => {
    expect(urls({ images: [{ cloudflare_image_id: ID, url: "https://cdn.example.com/own.png" }] })).toEqual([
      "https://cdn.example.com/own.png",
    ]);
  });

  it("falls back to the next field when the winning one holds nothing readable", () => {
    expect(urls({ images: [{ url: "javascript:alert(1)" }, 42], image_url: "https://cdn.example.com/ok.png" })).toEqual(
      ["https://cdn.example.com/ok.png"],
    );
  });

  it("reads no image from malformed fields: other schemes, relative paths, credentials, ids that leave their segment", () => {
    for (const raw of [
      { images: "https://cdn.example.com/a.png" },
      { images: [null, 7, { url: 5 }, { url: "data:image/png;base64,AAAA" }, { url: "/images/a.png" }] },
      { image_url: "javascript:alert(1)" },
      { image_url: "https://user:secret@cdn.example.com/a.png" },
      { image_url: 12 },
      { cloudflare_image_id: "../../evil" },
      { cloudflare_image_id: "a/b" },
      { cloudflare_image_id: ".." },
      { cloudflare_image_id: { id: ID } },
      {},
    ])
      expect(urls(raw), JSON.stringify(raw)).toEqual([]);
  });

  it("keeps each image once, and at most ten", () => {
    const many = Array.from({ length: 14 }, (_, i) => ({ url: `https://cdn.example.com/${i % 12}.png` }));
    const read = urls({ images: many });
    expect(read).toHaveLength(10);
    expect(new Set(read).size).toBe(10);
  });
});

describe("a product's images as part of the product", () => {
  it("come with the product the shop sent", () => {
    const read = readShopProduct(product({ image_url: "https://cdn.example.com/p.png" }));
    expect("product" in read && read.product.images).toEqual([{ url: "https://cdn.example.com/p.png" }]);
  });

  it("never cost a product its place when malformed: it is read, with no image", () => {
    for (const broken of [
      { images: { url: "https://cdn.example.com/p.png" } },
      { images: [{ url: "ftp://cdn.example.com/p.png" }], image_url: ["x"], cloudflare_image_id: 42 },
    ]) {
      const read = readShopProduct(product(broken));
      expect(read, JSON.stringify(broken)).toEqual({ product: expect.objectContaining({ id: 762, images: [] }) });
    }
  });

  it("are empty for the docs' example product, which carries no image field", () => {
    const read = readShopProduct(product({}));
    expect("product" in read && read.product.images).toEqual([]);
  });
});
