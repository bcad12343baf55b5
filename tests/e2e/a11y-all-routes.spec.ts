import { expect, test } from "@playwright/test";
import { axeBuilder, WCAG_TAGS } from "../support/axe";

import { allPagePaths, sitemapPaths } from "../support/site-routes";

// One axe-core sweep over every route (feature specs check their own widgets in their open states too).
test.describe("accessibility on every route", () => {
  // axe-core needs several seconds on the long home page, and much longer when the machine is busy.
  test.describe.configure({ timeout: 90_000 });
  for (const path of allPagePaths()) {
    test(`axe-core finds no violations on ${path}`, async ({ page }) => {
      await page.goto(path);
      // Checked once hydrated (the DOM visitors interact with); the router's globals appear only then.
      await page.waitForFunction(() => "__reactRouterRouteModules" in window);
      const results = await axeBuilder(page).withTags(WCAG_TAGS).analyze();
      const summary = results.violations.map(
        (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
      );
      expect(summary).toEqual([]);
    });
  }

  test("the sweep covers every page in the sitemap", async ({ baseURL }) => {
    const covered = new Set(allPagePaths());
    expect((await sitemapPaths(baseURL ?? "")).filter((p) => !covered.has(p))).toEqual([]);
  });
});
