import { expect, test } from "@playwright/test";

const VAULT = "/product/446889"; // $14.99 (content/products.json); EUR 0.9206, GBP 0.7893 (content/currencies.json)

/** The product's own price, above its durations. */
const price = (page: import("@playwright/test").Page) =>
  page.getByRole("main").locator("p").filter({ hasText: "$14.99" }).first();

test("an English page shows dollars only, as the checkout charges them", async ({ page }) => {
  await page.goto(VAULT);
  await expect(price(page)).toContainText("$14.99");
  await expect(page.getByRole("main")).not.toContainText("≈");
});

test("a German page shows euros by default, beside what the checkout charges", async ({ page }) => {
  await page.goto(`/de${VAULT}`);
  // 14.99 × 0.9206 = 13.799794, rounded half-up to the cent, written the German way.
  await expect(price(page)).toHaveText(/^≈\s13,80\s€ · berechnet werden \$14\.99/);
  // Search engines are told the currency the checkout really charges.
  const offers = await page.locator('script[type="application/ld+json"]').allTextContents();
  expect(offers.join("")).toContain('"priceCurrency":"USD"');
});

test("the currency switch is a GET form: it works without JavaScript, and links carry the choice on", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(VAULT);
  await page.getByLabel("Show prices in").selectOption("GBP");
  await page.getByRole("button", { name: "Show", exact: true }).click();
  await expect(page).toHaveURL(/\/product\/446889\?currency=GBP$/);
  // 14.99 × 0.7893 = 11.831607 → £11.83.
  await expect(price(page)).toHaveText(/^≈ £11\.83 · charged as \$14\.99/);
  await expect(page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link").first()).toHaveAttribute(
    "href",
    "/products?currency=GBP",
  );
  await context.close();
});

test("an English page asked for euros shows them the English way", async ({ page }) => {
  await page.goto(`${VAULT}?currency=EUR`);
  await expect(price(page)).toHaveText(/^≈ €13\.80 · charged as \$14\.99/);
});

/** A home page tile, by its product's name. */
const homeTile = (page: import("@playwright/test").Page, name: string) =>
  page.getByRole("main").getByRole("link").filter({ hasText: name });

test("the German home page's tiles show euros by default, beside what the checkout charges", async ({ page }) => {
  await page.goto("/de");
  // Kestrel Sandbox from $6.99: 6.99 × 0.9206 = 6.434994 → 6,43 €.
  await expect(homeTile(page, "Kestrel Sandbox")).toContainText(/Ab ≈\s6,43\s€ · berechnet werden \$6\.99/);
});

test("the home page asked for pounds shows them on its tiles, and its links carry the choice on", async ({ page }) => {
  await page.goto("/?currency=GBP");
  // 6.99 × 0.7893 = 5.517207 → £5.52.
  const tile = homeTile(page, "Kestrel Sandbox");
  await expect(tile).toContainText("From ≈ £5.52 · charged as $6.99");
  await expect(tile).toHaveAttribute("href", /\?currency=GBP$/);
});

test("the English home page's tiles show dollars only", async ({ page }) => {
  await page.goto("/");
  await expect(homeTile(page, "Kestrel Sandbox")).toContainText("From $6.99");
  await expect(page.getByRole("main")).not.toContainText("≈");
});

test("the catalogue's search and a product's durations keep the asked currency when sent without JavaScript", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  // Asked in lower case, as the server reads it; the forms and links carry it on as the code.
  await page.goto("/products?currency=gbp");
  await page.getByPlaceholder("Search products...").fill("vault");
  await page.getByPlaceholder("Search products...").press("Enter");
  await expect(page).toHaveURL(/\/products\?currency=GBP&q=vault&/);
  await expect(page.getByRole("main")).toContainText("≈ £11.83 · charged as $14.99");
  await page.goto(`${VAULT}?currency=GBP`);
  await page.getByRole("radio", { name: /Lifetime/ }).check();
  await page.getByRole("button", { name: "Update total" }).click();
  await expect(page).toHaveURL(/\/product\/446889\?currency=GBP&duration=lifetime&/);
  await expect(price(page)).toHaveText(/^≈ £11\.83 · charged as \$14\.99/);
  await context.close();
});
