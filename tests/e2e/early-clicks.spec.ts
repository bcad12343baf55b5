import { expect, test } from "@playwright/test";
import { holdFramework } from "../support/hydration";

test.describe("a click made before the page is ready", () => {
  test("on Purchase Now is kept, shown as waiting, and opens the checkout once the page is ready", async ({ page }) => {
    const release = await holdFramework(page);
    await page.goto("/product/446894?duration=lifetime", { waitUntil: "domcontentloaded" });
    const purchase = page.getByRole("button", { name: "Purchase Now" });
    await purchase.click();
    await expect(purchase).toHaveAttribute("data-early-click-queued", "");
    await expect(page.getByRole("dialog")).toHaveCount(0);

    release();
    await expect(page.getByRole("dialog", { name: "Checkout: Kestrel Studio (Lifetime)" })).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.frameLocator("iframe").getByText("$299.93")).toBeVisible();
    // The open dialog hides the rest of the page from the accessibility tree, so the button is found by its marker.
    await expect(page.locator('[data-early-click="purchase"]')).not.toHaveAttribute("data-early-click-queued");
  });

  test("on the chat button opens the support chat once the page is ready", async ({ page }) => {
    const release = await holdFramework(page);
    await page.goto("/faq", { waitUntil: "domcontentloaded" });
    const launcher = page.getByRole("button", { name: "Open support chat" });
    await launcher.click();
    await expect(launcher).toHaveAttribute("data-early-click-queued", "");

    release();
    await expect(page.getByRole("dialog", { name: "Support Chat" })).toBeVisible();
    await expect(launcher).toHaveAttribute("aria-expanded", "true");
    await expect(launcher).not.toHaveAttribute("data-early-click-queued");
  });

  test("on any other button (the status page's Contact Support) is made again once the page is ready", async ({
    page,
  }) => {
    const release = await holdFramework(page);
    await page.goto("/status", { waitUntil: "domcontentloaded" });
    const contact = page.getByRole("button", { name: "Contact Support" });
    await contact.click();
    await expect(contact).toHaveAttribute("data-early-click-queued", "");
    await expect(page.getByRole("dialog", { name: "Support Chat" })).toHaveCount(0);

    release();
    await expect(page.getByRole("dialog", { name: "Support Chat" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Open support chat" })).toHaveAttribute("aria-expanded", "true");
    await expect(contact).not.toHaveAttribute("data-early-click-queued");
  });

  test("on a toggle made twice is carried out once: the selling points' Pause animation", async ({ page }) => {
    const release = await holdFramework(page);
    await page.goto("/", { waitUntil: "domcontentloaded" });
    const pause = page.getByRole("button", { name: "Pause animation" });
    await pause.click();
    await pause.click();

    release();
    await expect(page.getByRole("button", { name: "Play animation" })).toHaveAttribute("aria-pressed", "true");
  });

  test("on a #hash link jumps there at once and moves focus to the target once the page is ready", async ({ page }) => {
    const release = await holdFramework(page);
    await page.setViewportSize({ width: 1280, height: 600 });
    await page.goto("/docs?product=vault", { waitUntil: "domcontentloaded" });
    const target = page.getByRole("article").filter({ has: page.getByRole("heading", { name: "App Crashing" }) });
    await page.getByRole("navigation", { name: "On this page" }).getByRole("link", { name: "App Crashing" }).click();
    await expect(page).toHaveURL(/#app-crashing$/);
    await expect(target).toBeInViewport();

    release();
    await expect(target).toBeFocused();
  });

  test("after hydration a click is handled once, not replayed a second time", async ({ page }) => {
    await page.goto("/faq");
    await page.waitForFunction(() => window.__kestrelBoot?.frameworkAttached === true);
    const launcher = page.getByRole("button", { name: "Open support chat" });
    await expect(async () => {
      await launcher.click();
      await expect(launcher).toHaveAttribute("aria-expanded", "true", { timeout: 1_000 });
    }).toPass();
    expect(await page.evaluate(() => window.__kestrelBoot?.clicks)).toEqual([]);
    await expect(page.getByRole("dialog", { name: "Support Chat" })).toBeVisible();
  });
});
