import AxeBuilder from "@axe-core/playwright";
import { expect as baseExpect, type Page } from "@playwright/test";
import type { AppServer } from "../support/app-server";
import { gotoHydrated } from "../support/hydration";
import { type ShopConnectedApp, startShopConnectedApp } from "../support/shop-connected-app";
import { openStoreDatabase } from "../support/store-database";
import { test } from "../support/own-client-address";

// What a shop owner sets up beside prices (issue 36): tabs, badges and a status line in the owner's colours (falling
// back to the theme's when they would not read), and "Often bought together".
const VAULT = "/product/446889";
const SANDBOX = "/product/446891";
const expect = baseExpect.configure({ timeout: 15_000 });
const colourOf = (page: Page, text: string) =>
  page
    .getByRole("main")
    .getByText(text, { exact: true })
    .first()
    .evaluate((el) => getComputedStyle(el).color);

test("the tabs: one tab stop, arrow keys, Home and End, each panel shown with its tab", async ({ page }) => {
  await gotoHydrated(page, VAULT);
  const tabs = page.getByRole("tab");
  await expect(tabs).toHaveText(["What's included", "System requirements", "Activation"]);
  await expect(tabs.first()).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tabpanel")).toHaveCount(1);
  await expect(page.getByRole("tabpanel")).toContainText("One licence key for the duration you choose");
  await tabs.first().focus();
  await page.keyboard.press("ArrowRight");
  await expect(tabs.nth(1)).toBeFocused();
  await expect(tabs.nth(1)).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tabpanel", { name: "System requirements" })).toContainText("64-bit");
  await page.keyboard.press("End");
  await expect(tabs.nth(2)).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(tabs.first()).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await expect(tabs.nth(2)).toBeFocused();
  await page.keyboard.press("Home");
  await expect(tabs.first()).toBeFocused();
  // One tab stop: Tab leaves the tab list for the panel.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("tabpanel")).toBeFocused();
  for (const tab of await tabs.all())
    expect(await tab.getAttribute("tabindex")).toBe((await tab.getAttribute("aria-selected")) === "true" ? "0" : "-1");
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
});

test("without JavaScript every panel is shown in order under its heading", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    await page.goto(VAULT);
    await expect(page.getByRole("tab")).toHaveCount(0);
    const section = page.getByTestId("product-tabs");
    await expect(section.getByRole("heading")).toHaveText(["What's included", "System requirements", "Activation"]);
    await expect(section).toContainText("Free updates for as long as the licence runs.");
    await expect(section).toContainText("One key activates one PC at a time");
  } finally {
    await context.close();
  }
});

test("badges and the status line take the owner's colour, or the theme's when it would not read", async ({ page }) => {
  await page.goto(VAULT);
  // #f59e0b and #22c55e read on the dark theme.
  expect(await colourOf(page, "Popular")).toBe("rgb(245, 158, 11)");
  await expect(page.getByTestId("product-status")).toHaveText("Updated for Windows 11 24H2");
  expect(await page.getByTestId("product-status").evaluate((el) => getComputedStyle(el).color)).toBe(
    "rgb(34, 197, 94)",
  );
  // Sandbox's #1e3a8a fails WCAG AA on the dark surface: its badge keeps the theme's accent, as every plain badge does.
  await page.goto(SANDBOX);
  const fallback = await colourOf(page, "Best Seller");
  expect(fallback).not.toBe("rgb(30, 58, 138)");
  await page.goto("/products");
  expect(await colourOf(page, "Best Seller")).toBe(fallback);
  expect(await colourOf(page, "Popular")).toBe("rgb(245, 158, 11)");
});

test("a page the browser renders itself shows the owner's colours too (no inline style, no CSP report)", async ({
  page,
}) => {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await gotoHydrated(page, "/products");
  await page.getByRole("link", { name: "Kestrel Vault", exact: true }).click();
  await expect(page).toHaveURL(/\/product\/446889$/);
  await expect.poll(() => colourOf(page, "Popular")).toBe("rgb(245, 158, 11)");
  expect(violations).toEqual([]);
});

test("Often bought together lists the owner's products", async ({ page }) => {
  await page.goto(VAULT);
  const together = page.getByRole("region", { name: "Often bought together" });
  await expect(together.getByRole("link")).toContainText(["Kestrel Sandbox", "Kestrel Capture"]);
});

test.describe("a connected shop's dashboard copy", () => {
  test.describe.configure({ mode: "serial", timeout: 60_000 });
  let connected: ShopConnectedApp;
  let app: AppServer;
  test.beforeAll(async () => {
    connected = await startShopConnectedApp({
      catalogue: true,
      webhookSecret: "whsec_dashboard_0123456789abcdef",
      images: true,
      untilReady: true,
    });
    app = connected.app;
  });
  test.afterAll(async () => {
    await connected?.stop();
  });

  test("Kestrel Relay's sold count comes from the shop's completed, not refunded invoices, never an offset", async ({
    page,
  }) => {
    // shop-invoices.ts: three completed in the last 24 hours (one of 2 keys), one refunded, one pending, one cancelled,
    // one older; the shop's products_sold_offset is never added.
    await gotoHydrated(page, `${app.url}/product/447200`);
    await expect(page.getByText("4 sold in the last 24 hours")).toBeVisible();
  });

  test("a struck-through price shows only with 30 days of recorded prices, beside the lowest of them", async ({
    page,
  }) => {
    await gotoHydrated(page, `${app.url}/product/447200`);
    await expect(page.getByRole("main").getByText("$9.50").first()).toBeVisible();
    // Prices recorded since this server first synced, minutes ago: no reduction is announced.
    await expect(page.getByTestId("lowest-price-30")).toHaveCount(0);
    await expect(page.getByRole("main").locator("s, del").filter({ hasText: "$12.50" })).toHaveCount(0);

    // The same prices recorded 31 days ago: the next boot's sync has 30 days of them.
    app = await connected.restartApp((dataDir) => {
      const db = openStoreDatabase(dataDir);
      const since = new Date(Date.now() - 31 * 86_400_000).toISOString();
      const recorded: Array<[number, number]> = [
        [699000, 950],
        [699001, 4900],
      ];
      for (const [variant, cents] of recorded)
        db.prepare(
          "INSERT INTO shop_price_history (variant_id, product_id, price_cents, currency, day, first_seen_at, last_seen_at) VALUES (?, 447200, ?, 'USD', ?, ?, ?)",
        ).run(variant, cents, since.slice(0, 10), since, since);
      db.close();
    });
    await gotoHydrated(page, `${app.url}/product/447200`);
    await expect(page.getByTestId("lowest-price-30")).toHaveText("Lowest price in the last 30 days: $9.50");
  });

  test("Kestrel Relay: sanitised tabs, badges with a fallback, the status line and upsells; Studio's tiers", async ({
    page,
  }) => {
    const dialogs: string[] = [];
    page.on("dialog", async (dialog) => {
      dialogs.push(dialog.message());
      await dialog.dismiss();
    });
    await gotoHydrated(page, `${app.url}/product/447200`);
    await expect(page.getByRole("tab")).toHaveText(["Requirements", "Changelog"]);
    await page.getByRole("tab", { name: "Changelog" }).click();
    await expect(page.getByRole("tabpanel")).toContainText("4.2: faster exports");
    expect(await page.getByTestId("product-tabs").innerHTML()).not.toMatch(/<script|javascript:/);
    await expect(page.getByRole("list", { name: "Badges" }).getByRole("listitem")).toHaveText([
      "Staff pick",
      "Low contrast",
      "Creator favourite",
    ]);
    expect(await colourOf(page, "Staff pick")).toBe("rgb(34, 197, 94)");
    expect(await colourOf(page, "Low contrast")).toBe(await colourOf(page, "Creator favourite"));
    await expect(page.getByTestId("product-status")).toHaveText("Undetected");
    // The hidden product (447201) is not offered.
    await expect(page.getByRole("region", { name: "Often bought together" }).getByRole("link")).toHaveText([
      /Preset Packs/,
      /Kestrel Capture/,
    ]);
    await page.goto(`${app.url}/product/446894?duration=lifetime`);
    await expect(page.getByTestId("volume-tiers").getByRole("listitem")).toHaveText([
      "5 or more: 10% off",
      "10 or more: 15% off",
    ]);
    expect(dialogs).toEqual([]);
  });
});
