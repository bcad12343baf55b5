import { expect, type Page, test } from "@playwright/test";
import { HELD_MODULE_TYPE } from "~/features/layout/boot/start-after-paint.boot";
import { FRAMEWORK_CHUNK, holdFramework, waitForHydration } from "../support/hydration";

/** Holds every request matching `pattern` until the page closes, so the page's `load` never fires. */
async function holdForever(page: Page, pattern: RegExp) {
  await page.route(pattern, () => new Promise<void>(() => {}));
}

test.describe("the page paints before its scripts start", () => {
  test("the document names no module to fetch; the framework is requested after the first contentful paint", async ({
    page,
  }) => {
    const response = await page.goto("/faq");
    const html = (await response?.text()) ?? "";
    // Asserted on booleans: a failure should not print the whole page.
    expect(html.includes("modulepreload")).toBe(false);
    expect(/<script[^>]*\stype="module"/.test(html)).toBe(false);
    expect(html.includes(`type="${HELD_MODULE_TYPE}"`)).toBe(true);

    await waitForHydration(page);
    const timings = await page.evaluate(() => ({
      firstContentfulPaint: performance.getEntriesByName("first-contentful-paint")[0]?.startTime,
      frameworkRequested: performance
        .getEntriesByType("resource")
        .find((entry) => /\/assets\/entry\.client-/.test(entry.name))?.startTime,
    }));
    expect(timings.firstContentfulPaint).toBeGreaterThan(0);
    expect(timings.frameworkRequested).toBeGreaterThan(timings.firstContentfulPaint ?? Number.POSITIVE_INFINITY);
    // The page works as before once started: a client-side navigation.
    await page.getByRole("link", { name: "Reviews" }).first().click();
    await expect(page).toHaveURL(/\/reviews$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });

  test("a key press starts them at once while the page's images are still loading", async ({ page }) => {
    const framework: string[] = [];
    page.on("request", (request) => FRAMEWORK_CHUNK.test(request.url()) && framework.push(request.url()));
    await holdForever(page, /\/images\//);
    await page.goto("/product/446894", { waitUntil: "domcontentloaded" });
    // The hero image never arrives, so `load` has not fired: nothing has started yet.
    expect(await page.evaluate(() => document.readyState)).not.toBe("complete");
    expect(await page.locator('script[type="module"]').count()).toBe(0);
    expect(framework).toEqual([]);

    await page.keyboard.press("Tab");
    await waitForHydration(page);
    expect(framework).toHaveLength(1);
    expect(await page.evaluate(() => document.readyState)).not.toBe("complete");
  });

  test("a duration chosen before the page is ready is the one it starts with", async ({ page }) => {
    const release = await holdFramework(page);
    await page.goto("/product/446894", { waitUntil: "domcontentloaded" });
    await page.getByRole("radio", { name: /Lifetime/ }).check();

    release();
    await waitForHydration(page);
    await expect(page.getByRole("radio", { name: /Lifetime/ })).toBeChecked();
    await expect(page.getByRole("status", { name: "Total" })).toHaveText("$299.93");
    await expect(page).toHaveURL(/duration=lifetime/);
  });
});
