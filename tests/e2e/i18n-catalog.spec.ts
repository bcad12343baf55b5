import { type Page, expect as baseExpect } from "@playwright/test";
import * as cheerio from "cheerio";
import { SHOP_ONLY_PRODUCT_ID } from "../fakes/shop-catalogue";
import type { AppServer } from "../support/app-server";
import { gotoHydrated } from "../support/hydration";
import { test } from "../support/own-client-address";
import { type ShopConnectedApp, startShopConnectedApp } from "../support/shop-connected-app";

// The catalogue, product pages, checkout and the success page in another language: German text from
// content/locales/de, links that stay under /de/, right to left in Arabic. Where a test names one of the interface's
// messages it names the translation in app/locales/<locale>/messages.po.

const VAULT = 446889;
const STUDIO = 446894;

// Proof of work and the checkout frame share two CPUs with the rest of the suite: wait generously.
const expect = baseExpect.configure({ timeout: 15_000 });

const main = (page: Page) => page.getByRole("main");

/** Every site link in the page's main content (not `#…`, not another site). */
async function siteLinks(page: Page) {
  const hrefs = await main(page)
    .locator("a[href]")
    .evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""));
  return hrefs.filter((href) => href.startsWith("/"));
}

test.describe("the catalogue in German", () => {
  test("/de/products: German page, German product copy and categories, every link under /de/", async ({ page }) => {
    await page.goto("/de/products");
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.locator("html")).toHaveAttribute("dir", "ltr");
    const vault = main(page)
      .getByRole("article")
      .filter({ has: page.getByRole("heading", { name: "Kestrel Vault" }) });
    await expect(vault.getByText("AES-256-verschlüsselte Container")).toBeVisible();
    await expect(vault.getByText("Beliebt", { exact: true })).toBeVisible();
    // The category checkboxes sit in the closed Filters disclosure.
    await expect(page.getByRole("checkbox", { name: /^Dienstprogramme/, includeHidden: true })).toBeAttached();
    await expect(page.getByRole("checkbox", { name: /^Creator-Tools/, includeHidden: true })).toBeAttached();
    await expect(vault.getByRole("link", { name: "Kestrel Vault", exact: true })).toHaveAttribute(
      "href",
      `/de/product/${VAULT}`,
    );
    const links = await siteLinks(page);
    expect(links.length).toBeGreaterThan(6);
    for (const href of links) expect(href).toMatch(/^\/de\//);
    await expect(page.getByRole("search")).toHaveAttribute("action", "/de/products");
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/de\/products$/);
    await expect(page).toHaveTitle("Produkte | Kestrel Software");
  });

  test("search reads the German copy: Schreddern finds Kestrel Vault (the English catalogue does not know it)", async ({
    page,
  }) => {
    await page.goto("/de/products?q=schreddern");
    const names = main(page).getByRole("article").getByRole("heading");
    await expect(names).toHaveText(["Kestrel Vault"]);
    await page.goto("/products?q=schreddern");
    await expect(main(page).getByRole("article")).toHaveCount(0);
  });

  test("typing a search and clearing the filters stay under /de/", async ({ page }) => {
    await gotoHydrated(page, "/de/products");
    await page.getByRole("searchbox").fill("schredd");
    await expect(page).toHaveURL(/\/de\/products\?q=schredd$/);
    await expect(main(page).getByRole("article").getByRole("heading")).toHaveText(["Kestrel Vault"]);
    await page.getByRole("combobox", { name: "Sortieren nach" }).selectOption("name");
    await expect(page).toHaveURL(/\/de\/products\?q=schredd&sort=name$/);
    await page.locator("summary").filter({ hasText: "Filter" }).click();
    await page.getByRole("link", { name: "Filter zurücksetzen" }).click();
    await expect(page).toHaveURL(/\/de\/products$/);
    await expect(main(page).getByRole("article")).toHaveCount(6);
  });

  test("a page past the last answers 404 with a way back to the first page in German", async ({ page }) => {
    const response = await page.goto("/de/products?q=vault&page=9");
    expect(response?.status()).toBe(404);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(main(page).getByRole("link").first()).toHaveAttribute("href", "/de/products?q=vault");
    await expect(main(page).getByRole("link").nth(1)).toHaveAttribute("href", "/de");
  });
});

test.describe("a product page in German", () => {
  test("/de/product/…: German description, durations and badges, German links and structured data", async ({
    page,
    request,
  }) => {
    await page.goto(`/de/product/${VAULT}`);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(
      main(page).getByText(
        "Verschlüsselter Datentresor mit Sperre per Klick, sicherem Schreddern und portablen Backups für Ihren Windows-PC.",
      ),
    ).toBeVisible();
    await expect(page.getByRole("radio", { name: /^1 Tag \(einmalig\)/ })).toBeChecked();
    await expect(page.getByRole("radio", { name: /^Lebenslang/ })).toBeVisible();
    await expect(main(page).getByText("Beliebt", { exact: true })).toBeVisible();
    await expect(main(page).getByText("Sicheres Schreddern von Dateien")).toBeVisible();
    await expect(page.getByRole("img", { name: "Hauptfenster von Kestrel Vault" })).toBeVisible();
    const breadcrumb = page
      .getByRole("navigation")
      .filter({ has: page.getByRole("link", { name: "Dienstprogramme" }) });
    await expect(breadcrumb.getByRole("link", { name: "Dienstprogramme" })).toHaveAttribute(
      "href",
      "/de/products?category=utilities",
    );
    for (const href of await siteLinks(page)) expect(href).toMatch(/^\/de\//);
    // The product's title is its name, which German leaves as it is.
    await expect(page).toHaveTitle("Kestrel Vault | Kestrel Software");

    const $ = cheerio.load(await (await request.get(`/de/product/${VAULT}`)).text());
    expect($('link[rel="canonical"]').attr("href")).toMatch(new RegExp(`/de/product/${VAULT}$`));
    // A page's JSON-LD scripts hold an object or a list of them; map() flattens the lists.
    const jsonLd = $('script[type="application/ld+json"]')
      .map((_, el) => JSON.parse($(el).text()) as Record<string, unknown> | Array<Record<string, unknown>>)
      .get() as Array<Record<string, unknown>>;
    const product = jsonLd.find((d) => d["@type"] === "Product") as { url: string; description: string };
    expect(product.url).toMatch(new RegExp(`/de/product/${VAULT}$`));
    expect(product.description).toMatch(/^Verschlüsselter Datentresor/);
    const crumbs = (jsonLd.find((d) => d["@type"] === "BreadcrumbList") as { itemListElement: Array<{ item: string }> })
      .itemListElement;
    expect(crumbs.map((c) => new URL(c.item).pathname)).toEqual(["/de/products", `/de/product/${VAULT}`]);
  });

  test("an unknown product answers 404 in German with links under /de/", async ({ page }) => {
    const response = await page.goto("/de/product/999999");
    expect(response?.status()).toBe(404);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    expect(await siteLinks(page)).toEqual(["/de/products", "/de"]);
  });

  test("buying from /de/product/… runs in German: the demo checkout at /de/demo-checkout/…, then /de/purchase/success", async ({
    page,
  }) => {
    await page.goto(`/de/product/${STUDIO}?duration=lifetime`);
    const purchase = page.getByRole("button", { name: "Jetzt kaufen" });
    await expect(purchase).toHaveAttribute("data-captcha", "ready", { timeout: 30_000 });
    const started = page.waitForResponse((r) => r.url().endsWith("/api/checkout") && r.request().method() === "POST");
    await purchase.click();
    const { url, orderId } = (await (await started).json()) as { url: string; orderId: string };
    expect(url).toMatch(/^\/de\/demo-checkout\/demo-[0-9a-f-]{36}$/);
    await expect(page.getByRole("dialog")).toContainText("Kestrel Studio (Lebenslang)");
    // The demo shop's own page speaks German too, and its way back leads to the German product page.
    const frame = page.frameLocator('iframe[title*="Kestrel Studio"]');
    await expect(frame.getByRole("heading", { name: "Kauf abschließen" })).toBeVisible();
    await expect(frame.getByText("Lebenslang")).toBeVisible();
    await expect(frame.getByRole("button", { name: "Abbrechen" })).toHaveAttribute(
      "formaction",
      `/de/product/${STUDIO}`,
    );
    await frame.getByRole("textbox", { name: "E-Mail-Adresse" }).fill("kaeufer@example.com");
    await frame.getByRole("button", { name: "Bezahlen", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/de/purchase/success\\?order_id=${orderId}$`));
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("heading", { name: "Vielen Dank für Ihren Kauf!" })).toBeVisible();
    // Once the order is read as paid, the way on (and to Your orders) stays in German.
    await expect.poll(() => siteLinks(page)).toEqual(["/de/products", "/de/downloads", "/de/orders"]);

    // The paid invoice's page, opened on its own, is German and leads to the German order page.
    await page.goto(url);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    await expect(page.getByRole("status")).toHaveText("Diese Rechnung ist abgeschlossen.");
    await expect(page.getByRole("link", { name: "Bestellung ansehen" })).toHaveAttribute(
      "href",
      `/de/purchase/success?order_id=${orderId}`,
    );
  });

  test("checkout errors are German: the shop's failure, the keys left, and the shop's own words introduced in German", async ({
    page,
  }) => {
    await page.goto(`/de/product/${STUDIO}?duration=lifetime`);
    const purchase = page.getByRole("button", { name: "Jetzt kaufen" });
    // The API answers in English (its texts are pinned); the page says them with app/locales/de's msgstr.
    const answers = [
      {
        status: 502,
        error: "The shop did not answer in time. Please try again.",
        shown: "Der Shop hat nicht rechtzeitig geantwortet. Bitte versuchen Sie es erneut.",
      },
      { status: 409, error: "Only 2 of this licence are left.", shown: "Von dieser Lizenz sind nur noch 2 übrig." },
      {
        status: 422,
        error: "Product is out of stock",
        shown: "Die Kasse konnte nicht geöffnet werden: Product is out of stock",
      },
    ];
    for (const answer of answers) {
      await page.route("**/api/checkout", (route) =>
        route.fulfill({
          status: answer.status,
          contentType: "application/json",
          body: JSON.stringify({ error: answer.error }),
        }),
      );
      // Every attempt spends the captcha: wait for a fresh one.
      await expect(purchase).toHaveAttribute("data-captcha", "ready", { timeout: 30_000 });
      const shown = new Promise<string>((resolve) => {
        page.once("dialog", async (dialog) => {
          resolve(dialog.message());
          await dialog.accept();
        });
      });
      await purchase.click();
      expect(await shown).toBe(answer.shown);
      await page.unroute("**/api/checkout");
    }
  });

  test("/de/purchase/success names the product in German and links under /de/", async ({ page }) => {
    await page.goto(`/de/purchase/success?product_id=${STUDIO}`);
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    expect(await siteLinks(page)).toEqual(["/de/products", "/de/downloads", "/de/orders"]);
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/de\/purchase\/success$/);
  });
});

test.describe("right to left in Arabic", () => {
  for (const path of ["/ar/products", `/ar/product/${VAULT}`, "/ar/purchase/success"]) {
    test(`${path} is right to left, in Arabic`, async ({ page }) => {
      await page.goto(path);
      await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
      await expect(page.locator("html")).toHaveAttribute("lang", "ar");
      for (const href of await siteLinks(page)) expect(href).toMatch(/^\/ar\//);
    });
  }

  test("the Arabic product page shows the Arabic description and durations", async ({ page }) => {
    await page.goto(`/ar/product/${VAULT}`);
    await expect(main(page).getByText(/^خزنة ملفات مشفّرة/)).toBeVisible();
    await expect(page.getByRole("radio", { name: /^مدى الحياة/ })).toBeVisible();
  });
});

test.describe("a connected shop's catalogue in German", () => {
  test.describe.configure({ mode: "serial", timeout: 60_000 });
  const WEBHOOK_SECRET = "whsec_e2e_i18n_catalog_0123456789";
  let connected: ShopConnectedApp;
  let app: AppServer;

  test.beforeAll(async () => {
    connected = await startShopConnectedApp({
      emulator: { retryIntervalMs: 500 },
      catalogue: true,
      webhookSecret: WEBHOOK_SECRET,
      untilReady: true,
    });
    app = connected.app;
  });
  test.afterAll(async () => {
    await connected?.stop();
  });

  test("the German overlay's copy is laid over the shop's products; the English catalogue keeps its own", async ({
    page,
  }) => {
    await page.goto(`${app.url}/de/product/${VAULT}`);
    await expect(main(page).getByText(/^Verschlüsselter Datentresor/)).toBeVisible();
    await expect(main(page).getByText("Sicheres Schreddern von Dateien")).toBeVisible();
    await page.goto(`${app.url}/product/${VAULT}`);
    await expect(main(page).getByText(/^Encrypted file vault/)).toBeVisible();
    await page.goto(`${app.url}/de/products?q=schreddern`);
    await expect(main(page).getByRole("article").getByRole("heading")).toHaveText(["Kestrel Vault"]);
  });

  test("a product only the shop describes keeps the shop's English description, marked as English", async ({
    page,
  }) => {
    await page.goto(`${app.url}/de/product/${SHOP_ONLY_PRODUCT_ID}`);
    const description = main(page).locator('[lang="en"]').filter({ hasText: "end-to-end encryption" });
    await expect(description).toBeVisible();
  });
});
