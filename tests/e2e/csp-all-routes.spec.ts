import { expect, type Page, test } from "@playwright/test";
import { gotoHydrated } from "../support/hydration";
import { allPagePaths } from "../support/site-routes";

/** Collects CSP violations from both the DOM event and the console, so none slips through unnoticed. */
async function watchCspViolations(page: Page) {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) violations.push(`console: ${message.text()}`);
  });
  await page.exposeFunction("__reportCspViolation", (text: string) => violations.push(`event: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { __reportCspViolation(t: string): void }).__reportCspViolation(
        `${event.violatedDirective} blocked ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  return violations;
}

test.describe("Content-Security-Policy on every route", () => {
  for (const path of allPagePaths()) {
    test(`${path} loads and hydrates without a CSP violation`, async ({ page }) => {
      const violations = await watchCspViolations(page);
      const response = await gotoHydrated(page, path);
      const csp = response?.headers()["content-security-policy"] ?? "";
      expect(csp).toContain("'nonce-");
      expect(csp).not.toContain("'unsafe-inline'");
      // gotoHydrated waited for the router's globals: they exist only if the module scripts (by nonce or hash) ran.
      expect(violations).toEqual([]);
    });
  }

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
    await page.goto("/");
    for (const name of ["Products", "Status", "Reviews", "FAQ"]) {
      await page.getByRole("banner").getByRole("link", { name, exact: true }).first().click();
      await expect(page).toHaveURL(new RegExp(`/${name.toLowerCase()}$`));
      await page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => resolve())));
    }
    expect(violations).toEqual([]);
  });
});
