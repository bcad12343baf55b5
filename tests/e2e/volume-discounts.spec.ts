import AxeBuilder from "@axe-core/playwright";
import { expect as baseExpect, type Page } from "@playwright/test";
import { test } from "../support/own-client-address";

// Volume discounts (issue 36): Kestrel Studio gives 10% off five keys or more, 15% from ten. The page lists the tiers,
// says what the next one saves, and the total it shows is what the demo checkout charges.
const STUDIO_LIFETIME = "/product/446894?duration=lifetime";
const expect = baseExpect.configure({ timeout: 15_000 });
const checkoutFrame = (page: Page) => page.frameLocator('iframe[title^="Secure checkout"]');

test.describe.configure({ timeout: 60_000 });

test("quantity 5 of Kestrel Studio shows the tier and its total, and the demo checkout charges it", async ({
  page,
}) => {
  await page.goto(STUDIO_LIFETIME);
  const purchase = page.getByRole("button", { name: "Purchase Now" });
  await expect(purchase).toHaveAttribute("data-captcha", "ready", { timeout: 30_000 });
  await expect(page.getByTestId("volume-tiers").getByRole("listitem")).toHaveText([
    "5 or more: 10% off",
    "10 or more: 15% off",
  ]);
  const quantity = page.getByRole("spinbutton", { name: "Quantity" });
  await expect(quantity).toHaveAttribute("max", "10");
  await quantity.fill("3");
  await expect(page.locator("#volume-hint")).toHaveText("Add 2 more to save 10%");
  await expect(page.getByRole("status", { name: "Total" })).toHaveText("$899.78");
  await expect(page.getByTestId("volume-discount-line")).toHaveCount(0);
  await quantity.fill("5");
  await expect(page.locator("#volume-hint")).toHaveText("Add 5 more to save 15%");
  // 39.99 × 7.5 × 5 = $1499.63 (half-up); 10% off: −$149.96; total $1349.67.
  const line = page.getByTestId("volume-discount-line");
  await expect(line).toContainText("$1499.63");
  await expect(line).toContainText("Volume discount (10% off)");
  await expect(line).toContainText("−$149.96");
  await expect(page.getByRole("status", { name: "Total" })).toHaveText("$1349.67");
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  const started = page.waitForResponse((r) => r.url().endsWith("/api/checkout") && r.request().method() === "POST");
  await purchase.click();
  expect((await started).status()).toBe(200);
  const dialog = page.getByRole("dialog", { name: "Checkout: Kestrel Studio (Lifetime)" });
  await expect(dialog.getByTestId("checkout-discount-line")).toHaveText(
    "Volume discount (10% off): −$149.96Total: $1349.67",
  );
  const frame = checkoutFrame(page);
  await expect(frame.getByText("Volume discount (5 or more: 10% off)")).toBeVisible();
  await expect(frame.getByText("-$149.96")).toBeVisible();
  await expect(frame.getByText("$1349.67")).toBeVisible();
});

test("without JavaScript, ?quantity=5 renders the discounted total", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    await page.goto(`${STUDIO_LIFETIME}&quantity=5`);
    await expect(page.getByTestId("volume-discount-line")).toContainText("−$149.96");
    await expect(page.locator("output")).toHaveText("$1349.67");
    await page.goto(`${STUDIO_LIFETIME}&quantity=4`);
    await expect(page.locator("#volume-hint")).toHaveText("Add 1 more to save 10%");
    await expect(page.locator("output")).toHaveText("$1199.70");
  } finally {
    await context.close();
  }
});

test("a coupon turns Kestrel Studio's tiers off, and the page says so", async ({ page }) => {
  await page.goto(`${STUDIO_LIFETIME}&quantity=5&coupon=WELCOME10`);
  await expect(page.getByText("Volume discounts do not apply with a coupon.")).toBeVisible();
  await expect(page.getByTestId("volume-discount-line")).toHaveCount(0);
  await expect(page.getByRole("status", { name: "Total" })).toHaveText("$1499.63");
});

test("the Arabic page lists the tiers and the discount line in Arabic, right to left, with no axe violation", async ({
  page,
}) => {
  await page.goto(`/ar${STUDIO_LIFETIME}&quantity=5`);
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByRole("heading", { name: "خصومات الكمية" })).toBeVisible();
  await expect(page.getByTestId("volume-tiers").getByRole("listitem")).toHaveCount(2);
  await expect(page.getByTestId("volume-discount-line")).toContainText("خصم الكمية");
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
});
