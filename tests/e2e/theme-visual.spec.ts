import { expect as baseExpect, type Page, test } from "@playwright/test";
import { gotoHydrated } from "../support/hydration";
import { openChat } from "../support/support-chat";

/**
 * The shipped theme.json is the look the shop had before themes (issue 28): these screenshots were taken with the
 * build before any component moved to the theme's tokens, and the pages must still match them.
 * Tolerance: a pixel counts as different past Playwright's default colour threshold (0.2 in YIQ space), and at most
 * 0.1% of a screenshot's pixels may differ (anti-aliasing). Measured after the move to tokens: 0 pixels past 0.2; past
 * 0.1, up to 0.42% (white headings are now the theme's text colour, slate-200 text too, and mixes round).
 */
const SCREENSHOT = { fullPage: true, animations: "disabled", caret: "hide", maxDiffPixelRatio: 0.001 } as const;

// Proof of work and hydration compete for two CPUs with the rest of the suite: wait generously.
const expect = baseExpect.configure({ timeout: 15_000 });

/** What changes from run to run and is no part of the look: the demo status history's dates, the copyright year. */
function volatile(page: Page) {
  return [page.locator("time"), page.locator(".day-bars"), page.locator("footer p", { hasText: "©" })];
}

const PAGES = [
  { name: "home", path: "/" },
  { name: "products", path: "/products" },
  { name: "product-studio", path: "/product/446894" },
  { name: "status", path: "/status" },
  { name: "reviews", path: "/reviews" },
  { name: "faq", path: "/faq" },
];

test.describe("the default theme looks as the shop did before themes", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  for (const { name, path } of PAGES) {
    test(`${path} matches its screenshot`, async ({ page }) => {
      await gotoHydrated(page, path);
      await page.evaluate(() => document.fonts.ready);
      await expect(page).toHaveScreenshot(`${name}.png`, { ...SCREENSHOT, mask: volatile(page) });
    });
  }

  test("the open support chat matches its screenshot", async ({ page }) => {
    await gotoHydrated(page, "/faq");
    const panel = await openChat(page);
    await expect(panel.getByRole("textbox")).toBeVisible();
    await expect(page).toHaveScreenshot("support-chat-open.png", {
      ...SCREENSHOT,
      fullPage: false,
      mask: volatile(page),
    });
  });

  test("the open checkout dialog matches its screenshot", async ({ page }) => {
    await page.goto("/product/446894?duration=lifetime");
    const purchase = page.getByRole("button", { name: "Purchase Now" });
    await expect(purchase).toHaveAttribute("data-captcha", "ready", { timeout: 30_000 });
    await purchase.click();
    const dialog = page.getByRole("dialog", { name: "Checkout: Kestrel Studio (Lifetime)" });
    await expect(dialog).toBeVisible();
    const frame = page.frameLocator('iframe[title^="Secure checkout"]');
    await expect(frame.getByRole("button", { name: "Pay", exact: true })).toBeVisible();
    await expect(page).toHaveScreenshot("checkout-dialog-open.png", {
      ...SCREENSHOT,
      fullPage: false,
      mask: volatile(page),
    });
  });
});
