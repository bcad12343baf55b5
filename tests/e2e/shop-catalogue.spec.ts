import { expect, type Locator, type Page, test } from "@playwright/test";
import {
  EMULATED_IMAGE_ACCOUNT_HASH,
  emulatedImages,
  HIDDEN_PRODUCT_ID,
  MALFORMED_PRODUCT,
  SHOP_ONLY_PRODUCT_ID,
  setProductImages,
  updateVariant,
} from "../fakes/shop-catalogue";
import type { ShopEmulator } from "../fakes/shop-emulator";
import type { AppServer } from "../support/app-server";
import {
  type ShopConnectedApp,
  type ShopConnectedAppOptions,
  startShopConnectedApp,
} from "../support/shop-connected-app";

// The catalogue read from a connected SellAuth shop (the emulator on 127.0.0.1), content/products.json overlaid.
const WEBHOOK_SECRET = "whsec_e2e_shop_catalogue_0123456789";
const STUDIO = 446894;
const STUDIO_LIFETIME = 653023;
const VAULT = 446889;
const VAULT_LIFETIME = 652997;
const SANDBOX = 446891;
const SANDBOX_3_DAYS = 653002;
const PRESET_PACKS = 447097;
const PRESET_STANDARD = 653305;

/** The catalogue, the checkout and the reviews from the shop, its images from its image delivery. */
const SHOP_SOURCED: ShopConnectedAppOptions = {
  catalogue: true,
  webhookSecret: WEBHOOK_SECRET,
  images: true,
  env: { REVIEWS_SOURCE: "shop" },
};

async function readiness(app: AppServer) {
  const response = await fetch(`${app.url}/readyz`);
  return { status: response.status, body: (await response.json()) as { ok: boolean; catalogue?: string } };
}

const productNames = (page: Page) => page.getByRole("main").getByRole("article").getByRole("heading");
const loadedWidth = (image: Locator) =>
  image.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0));
const duration = (page: Page, name: RegExp | string) => page.getByRole("radio", { name });

test.describe("a connected shop's catalogue", () => {
  test.describe.configure({ mode: "serial", timeout: 60_000 });
  let connected: ShopConnectedApp;
  let shop: ShopEmulator;
  let app: AppServer;

  test.beforeAll(async () => {
    connected = await startShopConnectedApp({
      ...SHOP_SOURCED,
      emulator: { retryIntervalMs: 500 },
      notifyOnPay: true,
      untilReady: true,
    });
    ({ shop, app } = connected);
  });
  test.afterAll(async () => {
    await connected?.stop();
  });

  test("lists the shop's public products with the content's copy; hidden and malformed ones are not sold", async ({
    page,
  }) => {
    await page.goto(`${app.url}/products`);
    await expect(page.getByRole("main").getByRole("status")).toHaveText("7 products");
    await expect(productNames(page)).toContainText(["Kestrel Studio", "Kestrel Relay"]);
    const studio = page.getByRole("article").filter({ has: page.getByRole("heading", { name: "Kestrel Studio" }) });
    await expect(studio.getByText("Multi-track timeline")).toBeVisible();
    await expect(studio.getByText("$39.99")).toBeVisible();
    for (const id of [HIDDEN_PRODUCT_ID, MALFORMED_PRODUCT.id]) {
      const response = await page.goto(`${app.url}/product/${id}`);
      expect(response?.status(), String(id)).toBe(404);
    }
  });

  test("a product the content does not describe gets a complete page from the shop's own data", async ({ page }) => {
    await page.goto(`${app.url}/product/${SHOP_ONLY_PRODUCT_ID}`);
    await expect(page.getByRole("heading", { level: 1, name: "Kestrel Relay" })).toBeVisible();
    await expect(page.getByText("end-to-end encryption")).toBeVisible();
    await expect(page.getByRole("link", { name: "Learn more" })).toHaveAttribute("href", "https://example.com/relay");
    // The shop's markup is sanitised: no script, no javascript: link.
    expect(await page.content()).not.toContain('alert("x")');
    await expect(page.getByRole("link", { name: "bad link" })).toHaveCount(0);
    await expect(duration(page, "1 Month $9.50")).toBeChecked();
    await expect(duration(page, "Lifetime $49.00 Only 3 left")).toBeVisible();
    await expect(page.getByRole("img", { name: "Kestrel Relay" }).first()).toBeVisible();
  });

  test("a product's own images, in each shape the shop sends them, on its page, its card and its social image", async ({
    page,
  }) => {
    // Four resyncs of the shop, each read on two pages: ~28 s on an idle machine.
    test.setTimeout(120_000);
    const cspViolations: string[] = [];
    page.on("console", (message) => {
      if (/Content[- ]Security[- ]Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    const shapes = emulatedImages(shop.url);
    const placeholder = "/images/products/shop-product.svg";
    const cases = [
      { shape: "images list", fields: shapes.list, gallery: ["shop-gallery-1", "shop-gallery-2"] },
      { shape: "Cloudflare image id", fields: shapes.cloudflareId, gallery: ["cloudflare"] },
      { shape: "image_url", fields: shapes.imageUrl, gallery: ["shop-image-url"] },
      { shape: "malformed fields", fields: shapes.malformed, gallery: [] },
    ];
    const srcOf = (name: string) =>
      name === "cloudflare"
        ? `${shop.imageDeliveryUrl}/${EMULATED_IMAGE_ACCOUNT_HASH}/34231df0-a3ba-4e4a-c440-85269a308700/public`
        : `${shop.url}/images/${name}.svg`;
    const gallery = page.getByRole("region", { name: "Kestrel Relay images" });
    const hero = gallery.getByRole("img", { name: "Kestrel Relay" });
    try {
      for (const { shape, fields, gallery: names } of cases) {
        setProductImages(shop.catalogue, SHOP_ONLY_PRODUCT_ID, fields);
        await shop.notifyCatalogue("NOTIFICATION.SHOP_PRODUCT_UPDATED", { product_id: SHOP_ONLY_PRODUCT_ID });
        const first = names[0] ? srcOf(names[0]) : placeholder;
        await expect
          .poll(
            async () => {
              await page.goto(`${app.url}/product/${SHOP_ONLY_PRODUCT_ID}`);
              return hero.getAttribute("src");
            },
            // Each resync queues behind whatever the lease holder is still doing (CI on b243e26 once took over 5 s).
            { timeout: 15_000, intervals: [250], message: shape },
          )
          .toBe(first);
        // The hero is the page's LCP: sized, eager, fetched first, and its bytes came from the emulator.
        await expect(hero).toHaveAttribute("width", "800");
        await expect(hero).toHaveAttribute("height", "500");
        await expect(hero).toHaveAttribute("loading", "eager");
        await expect(hero).toHaveAttribute("fetchpriority", "high");
        await expect.poll(() => loadedWidth(hero), { message: shape }).toBeGreaterThan(0);
        const social = names[0] ? first : `http://localhost:${app.port}/images/products/shop-product-card.svg`;
        await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", social);
        const thumbnails = gallery.getByRole("button").locator("img");
        if (names.length > 1) {
          await expect(thumbnails).toHaveCount(names.length);
          for (const [at, name] of names.entries()) {
            await expect(thumbnails.nth(at)).toHaveAttribute("src", srcOf(name));
            await expect(thumbnails.nth(at)).toHaveAttribute("loading", "lazy");
            await expect(thumbnails.nth(at)).toHaveAttribute("width", "128");
          }
        }

        await page.goto(`${app.url}/products`);
        const cards = page.getByRole("main").getByRole("article");
        // The first row's images are the catalogue's LCP candidates; the rest wait until they are scrolled to.
        await expect(cards.first().getByRole("img")).toHaveAttribute("loading", "eager");
        const card = cards.filter({ has: page.getByRole("heading", { name: "Kestrel Relay" }) }).getByRole("img");
        await expect(card).toHaveAttribute("src", names[0] ? first : "/images/products/shop-product-card.svg");
        await expect(card).toHaveAttribute("width", "400");
        await expect(card).toHaveAttribute("height", "250");
        await expect(card).toHaveAttribute("loading", "lazy");
        await card.scrollIntoViewIfNeeded();
        await expect.poll(() => loadedWidth(card), { message: shape }).toBeGreaterThan(0);
      }
      const response = await page.goto(`${app.url}/product/${SHOP_ONLY_PRODUCT_ID}`);
      const imgSrc = /(?:^|;\s*)img-src ([^;]*)/.exec(response?.headers()["content-security-policy"] ?? "")?.[1];
      expect(imgSrc).toBe(`'self' data: ${shop.url}`);
      expect(cspViolations).toEqual([]);
    } finally {
      setProductImages(shop.catalogue, SHOP_ONLY_PRODUCT_ID, {});
      await shop.notifyCatalogue("NOTIFICATION.SHOP_PRODUCT_UPDATED", { product_id: SHOP_ONLY_PRODUCT_ID });
    }
  });

  test("the content's images win over the shop's own", async ({ page }) => {
    // The emulator gives Studio a Cloudflare image id and Capture an images list; content/products.json gives both theirs.
    for (const [id, slug] of [
      [STUDIO, "studio"],
      [446893, "capture"],
    ] as const) {
      await page.goto(`${app.url}/product/${id}`);
      const hero = page
        .getByRole("region", { name: /images$/ })
        .getByRole("img")
        .first();
      await expect(hero).toHaveAttribute("src", `/images/products/${slug}-1.svg`);
      await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
        "content",
        `http://localhost:${app.port}/images/products/${slug}-card.svg`,
      );
    }
  });

  test("a price changed in the shop is on the product page within 5 s of its notification", async ({ page }) => {
    await page.goto(`${app.url}/product/${STUDIO}`);
    await expect(duration(page, "Lifetime $299.93")).toBeVisible();
    updateVariant(shop.catalogue, STUDIO, STUDIO_LIFETIME, { price: "279.00" });
    const sent = await shop.notifyCatalogue("NOTIFICATION.SHOP_PRODUCT_UPDATED", { product_id: STUDIO });
    expect(sent).toEqual({ status: 200, body: { ok: true, outcome: "catalogue_sync" } });
    await expect
      .poll(
        async () => {
          await page.goto(`${app.url}/product/${STUDIO}?duration=lifetime`);
          return page.getByRole("status", { name: "Total" }).textContent();
        },
        { timeout: 5_000, intervals: [250] },
      )
      .toBe("$279.00");
  });

  test("a sold-out duration shows Sold out and cannot be bought; the server refuses it too", async ({
    page,
    request,
  }) => {
    updateVariant(shop.catalogue, VAULT, VAULT_LIFETIME, { stock: 0 });
    await shop.notifyCatalogue("NOTIFICATION.SHOP_STOCK_UPDATED", { product_id: VAULT });
    await expect
      .poll(
        async () => {
          await page.goto(`${app.url}/product/${VAULT}?duration=lifetime`);
          return page.getByRole("main").getByText("Sold out", { exact: true }).count();
        },
        // Not a promise of speed (the 5 s ones say so): the resync queues behind the lease holder's work, as above.
        { timeout: 15_000, intervals: [250] },
      )
      .toBeGreaterThan(0);
    await expect(duration(page, /^Lifetime/)).toBeDisabled();
    await expect(page.getByRole("button", { name: /Purchase Now/ })).toHaveCount(0);
    const refused = await request.post(`${app.url}/api/checkout`, {
      data: { productId: VAULT, variantId: VAULT_LIFETIME, quantity: 1, altcha: "unused" },
    });
    expect(refused.status()).toBe(409);
    expect(await refused.json()).toEqual({ error: "This licence has just sold out." });
  });

  test("a licence that sold out before the catalogue knew is refused by the shop's own count, and the page follows", async ({
    page,
    request,
  }) => {
    updateVariant(shop.catalogue, SANDBOX, SANDBOX_3_DAYS, { stock: 0 });
    const checkoutsBefore = shop.requests.filter((r) => r.path.endsWith("/checkout")).length;
    const refused = await request.post(`${app.url}/api/checkout`, {
      data: { productId: SANDBOX, variantId: SANDBOX_3_DAYS, quantity: 1, altcha: "unused" },
    });
    expect(refused.status()).toBe(409);
    expect(await refused.json()).toEqual({ error: "This licence has just sold out." });
    // No invoice was created at the shop.
    expect(shop.requests.filter((r) => r.path.endsWith("/checkout")).length).toBe(checkoutsBefore);
    await expect
      .poll(
        async () => {
          await page.goto(`${app.url}/product/${SANDBOX}?duration=3-days`);
          return duration(page, /^3 Days/).isDisabled();
        },
        // The refusal asks for a resync, which waits its turn behind the images walk's resyncs before it.
        { timeout: 15_000, intervals: [250] },
      )
      .toBe(true);
  });

  test("a low stock says how many are left and the quantity stops there", async ({ page }) => {
    updateVariant(shop.catalogue, PRESET_PACKS, PRESET_STANDARD, { stock: 4 });
    await shop.notifyCatalogue("NOTIFICATION.SHOP_STOCK_UPDATED", { product_id: PRESET_PACKS });
    await expect
      .poll(
        async () => {
          await page.goto(`${app.url}/product/${PRESET_PACKS}`);
          return page.getByRole("spinbutton", { name: "Quantity" }).getAttribute("max");
        },
        // Not a promise of speed (the 5 s ones say so): the resync queues behind the lease holder's work, as above.
        { timeout: 15_000, intervals: [250] },
      )
      .toBe("4");
    await expect(duration(page, "Standard $0.25 Only 4 left")).toBeChecked();
    await expect(page.getByText("Up to 4")).toBeVisible();
  });

  test("a paid invoice takes its keys from the shop's stock, and the page shows what is left", async ({ page }) => {
    shop.invoices.set("8800001", {
      status: "pending",
      cart: [{ productId: SHOP_ONLY_PRODUCT_ID, variantId: 699001, quantity: 1 }],
    });
    await shop.settleInvoice("8800001", "completed");
    await expect
      .poll(
        async () => {
          await page.goto(`${app.url}/product/${SHOP_ONLY_PRODUCT_ID}`);
          return (await page.getByRole("main").textContent()) ?? "";
        },
        // Not a promise of speed (the 5 s ones say so): the resync queues behind the lease holder's work, as above.
        { timeout: 15_000, intervals: [250] },
      )
      .toContain("Only 2 left");
  });

  test("verified reviews: the shop's feedback with its replies, automatic feedback hidden, rated in the structured data", async ({
    page,
  }) => {
    await page.goto(`${app.url}/product/${STUDIO}`);
    const reviews = page.getByRole("region", { name: "Reviews" });
    await expect(reviews.getByText("Exports are fast and the licence arrived at once.")).toBeVisible();
    await expect(reviews.getByText("Thank you for your order!")).toBeVisible();
    await expect(reviews.getByText("Automatic feedback")).toHaveCount(0);
    await expect(reviews.getByRole("heading", { name: "Verified buyer" })).toHaveCount(2);
    const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
    const product = blocks
      .flatMap((text) => [JSON.parse(text)].flat())
      .find((data: { "@type"?: string }) => data["@type"] === "Product");
    expect(product?.aggregateRating).toMatchObject({ "@type": "AggregateRating", ratingValue: 4.5, reviewCount: 2 });
    await page.goto(`${app.url}/reviews`);
    await expect(page.getByText("Average 4.8 out of 5 from 4 verified purchases")).toBeVisible();
    await expect(page.getByTestId("reviews-origin")).toContainText("only the buyer of a paid order can leave");
    await expect(page.getByText("Works as described.")).toBeVisible();
  });

  test("new feedback, notified, is on the product page within 5 s", async ({ page }) => {
    shop.catalogue.feedbacks.push({
      id: 9100,
      invoice_id: 5100,
      product_id: STUDIO,
      message: "Just bought a second key.",
      rating: 5,
      reply: null,
      is_automatic: false,
      created_at: "2026-11-24T12:00:00.000000Z",
    });
    await shop.notifyCatalogue("NOTIFICATION.SHOP_FEEDBACK_CREATED", { feedback_id: 9100 });
    await expect
      .poll(
        async () => {
          await page.goto(`${app.url}/product/${STUDIO}`);
          return page.getByRole("region", { name: "Reviews" }).getByText("Just bought a second key.").count();
        },
        { timeout: 5_000, intervals: [250] },
      )
      .toBe(1);
  });

  test("sorts by the shop's sales counts", async ({ page }) => {
    await page.goto(`${app.url}/products?sort=popular`);
    await expect(page.getByLabel("Sort by")).toHaveValue("popular");
    await expect(productNames(page)).toHaveText([
      "Kestrel Sandbox",
      "Kestrel Capture Ultimate",
      "Kestrel Studio",
      "Kestrel Vault",
      "Kestrel Capture",
      "Preset Packs",
      "Kestrel Relay",
    ]);
  });

  test("with the shop down, every page keeps serving the last catalogue", async ({ page }) => {
    shop.catalogue.down = true;
    try {
      const asked = shop.requests.length;
      await shop.notifyCatalogue("NOTIFICATION.SHOP_SOMETHING_NEW", {});
      // The debounced full sync runs (it asks the shop for its products) and fails; nothing the buyer sees changes.
      await expect
        .poll(() => shop.requests.slice(asked).some((r) => r.method === "GET" && /\/products$/.test(r.path)), {
          timeout: 15_000,
        })
        .toBe(true);
      for (const path of ["/", "/products", `/product/${STUDIO}`, `/product/${SHOP_ONLY_PRODUCT_ID}`, "/reviews"]) {
        const response = await page.goto(`${app.url}${path}`);
        expect(response?.status(), path).toBe(200);
      }
      await page.goto(`${app.url}/products`);
      await expect(page.getByRole("main").getByRole("status")).toHaveText("7 products");
      expect((await readiness(app)).status).toBe(200);
    } finally {
      shop.catalogue.down = false;
    }
  });
});

test.describe("a first boot while the shop cannot be reached", () => {
  let connected: ShopConnectedApp;
  test.afterAll(async () => {
    await connected?.stop();
  });

  test("answers /readyz 503 until the first catalogue exists, then 200", async () => {
    connected = await startShopConnectedApp({
      ...SHOP_SOURCED,
      beforeApp: (shop) => {
        shop.catalogue.down = true;
      },
    });
    const { shop, app } = connected;
    await expect.poll(async () => (await readiness(app)).body.catalogue ?? "", { timeout: 10_000 }).toMatch(/503/);
    expect((await readiness(app)).status).toBe(503);
    shop.catalogue.down = false;
    await expect.poll(async () => (await readiness(app)).status, { timeout: 15_000 }).toBe(200);
    expect(app.logs()).toContain("no catalogue yet");
  });
});
