import { expect, type Page, test } from "@playwright/test";
import { holdFramework, waitForHydration } from "../support/hydration";

// ADR 013: a cached page inlines only the stylesheet rules it uses; the whole stylesheet loads before the framework.
const ROUTES = ["/", "/products", "/product/446894", "/status", "/faq", "/reviews", "/docs", "/reseller"];
const WHOLE_STYLESHEET = /\/assets\/site-[\w-]+\.css$/;

/** Every body element's computed style (and its ::before/::after), custom properties left out. */
function computedStyles(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const describe = (style: CSSStyleDeclaration) =>
      Array.from(style)
        .filter((name) => !name.startsWith("--"))
        .map((name) => `${name}:${style.getPropertyValue(name)}`)
        .join(";");
    return Array.from(document.body.querySelectorAll("*"), (element) => {
      const pseudo = ["::before", "::after"].map((which) => {
        const style = getComputedStyle(element, which);
        return style.content === "none" ? "" : describe(style);
      });
      return `${element.tagName}#${element.id}.${element.getAttribute("class") ?? ""} ${describe(getComputedStyle(element))} ${pseudo.join(" ")}`;
    });
  });
}

test.describe("each page's own stylesheet", () => {
  for (const route of ROUTES) {
    test(`${route} looks the same with only its own rules as with the whole stylesheet`, async ({ page }) => {
      // The page painted and settled, its framework held back and the whole stylesheet refused: only its own rules.
      await page.emulateMedia({ reducedMotion: "reduce" });
      await holdFramework(page);
      await page.route(WHOLE_STYLESHEET, (request) => request.abort());
      await page.goto(route);
      await page.waitForLoadState("load");
      await page.waitForFunction(() => document.querySelector('script[type="module"]') !== null);
      const own = await computedStyles(page);

      // Then the whole stylesheet in the same document, as the page would have loaded it.
      await page.unroute(WHOLE_STYLESHEET);
      await page.evaluate(
        (href) =>
          new Promise<void>((resolve, reject) => {
            const link = Object.assign(document.createElement("link"), {
              rel: "stylesheet",
              href: `${href}?complete`,
              onload: resolve,
              onerror: reject,
            });
            document.head.append(link);
          }),
        await page.locator("style[data-whole-stylesheet]").getAttribute("data-whole-stylesheet"),
      );
      const whole = await computedStyles(page);

      expect(own.length).toBeGreaterThan(50);
      expect(own.length).toBe(whole.length);
      // The first differing element, not thousands of lines of styles.
      const firstDifference = own.findIndex((style, index) => style !== whole[index]);
      expect(firstDifference === -1 ? "" : `${own[firstDifference]}\n---\n${whole[firstDifference]}`).toBe("");
    });
  }

  test("the whole stylesheet has arrived before the framework is requested, so what the client renders is styled", async ({
    page,
  }) => {
    await page.goto("/faq");
    await waitForHydration(page);
    const order = await page.evaluate(() => {
      const resources = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
      const stylesheet = resources.find((entry) => /\/assets\/site-[\w-]+\.css$/.test(entry.name));
      const framework = resources.find((entry) => /\/assets\/entry\.client-/.test(entry.name));
      return { stylesheetEnd: stylesheet?.responseEnd, frameworkStart: framework?.startTime };
    });
    expect(order.stylesheetEnd).toBeGreaterThan(0);
    expect(order.frameworkStart).toBeGreaterThanOrEqual(order.stylesheetEnd ?? Number.POSITIVE_INFINITY);
    // A panel only the client renders, styled by a rule (`h-[500px]`) the page itself did not inline.
    await page.getByRole("button", { name: "Open support chat" }).click();
    const panel = page.getByRole("dialog", { name: "Support Chat" });
    await expect(panel).toBeVisible();
    expect(await page.evaluate(() => document.getElementById("site-css")?.textContent?.includes("h-\\[500px\\]"))).toBe(
      false,
    );
    expect(await panel.evaluate((element) => getComputedStyle(element).height)).toBe("500px");
  });
});
