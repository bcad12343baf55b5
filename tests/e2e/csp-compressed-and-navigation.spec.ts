import { expect, test } from "@playwright/test";
import { gotoHydrated } from "../support/hydration";
import { watchCspViolations } from "../support/route-visit";

// Every route's own load and hydration is checked once in route-sweep.spec.ts; these are the ways a page arrives otherwise.
test.describe("Content-Security-Policy beyond the first load", () => {
  test("a page sent brotli-compressed, at the quick and the better quality (ADR 019), hydrates without a CSP violation", async ({
    page,
  }) => {
    const violations = await watchCspViolations(page);
    for (const path of ["/ar/product/446894", "/de/status", "/ar/product/446894"]) {
      const response = await gotoHydrated(page, path);
      expect(response?.headers()["content-encoding"], path).toBe("br");
      expect(violations, path).toEqual([]);
    }
  });

  test("client-side navigation across pages raises no CSP violation", async ({ page }) => {
    const violations = await watchCspViolations(page);
    // Hydrated first, so each click is the router's navigation (a click before it would be a full load, checked above).
    await gotoHydrated(page, "/");
    for (const name of ["Products", "Status", "Reviews", "FAQ"]) {
      await page.getByRole("banner").getByRole("link", { name, exact: true }).first().click();
      // The router changes the URL once the next route's module and data have arrived: no speed is promised here.
      await expect(page).toHaveURL(new RegExp(`/${name.toLowerCase()}$`), { timeout: 15_000 });
      await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve())));
    }
    expect(violations).toEqual([]);
  });
});
