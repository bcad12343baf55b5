import type { Page } from "@playwright/test";

/**
 * Opens a page and waits until React has hydrated it (its client modules start after the first paint) and the
 * browser went idle twice, so mount effects such as the product page's captcha have started. Not "networkidle": the
 * proof-of-work widget's workers are terminated once solved, and Chromium then never reports their module request
 * finished, so networkidle can wait forever on product pages.
 */
export async function gotoHydrated(page: Page, path: string) {
  const response = await page.goto(path);
  await page.waitForLoadState("load");
  // Not `__reactRouterRouteModules` alone: the route modules set it before the entry (and the page's messages) have
  // loaded, and a busy browser can go idle twice while those are still on the wire.
  await page.waitForFunction(() => {
    const main = document.querySelector("#main");
    return (
      "__reactRouterRouteModules" in window &&
      main !== null &&
      Object.keys(main).some((key) => key.startsWith("__reactFiber"))
    );
  });
  await page.evaluate(
    () => new Promise<void>((resolve) => requestIdleCallback(() => requestIdleCallback(() => resolve()))),
  );
  return response;
}

/**
 * Waits until React has hydrated the page (its fiber sits on `#main`) and a frame has passed, so mount effects (e.g.
 * timers a test then drives with `page.clock`) exist. Works with an installed clock, unlike idle-callback waits.
 */
export async function waitForHydration(page: Page) {
  await page.waitForFunction(() => {
    const main = document.querySelector("#main");
    return main !== null && Object.keys(main).some((key) => key.startsWith("__reactFiber"));
  });
  await page.evaluate(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
}

/**
 * Pauses an installed clock a moment from now and returns the paused time. The page's clock runs on while the test
 * asks for it, so a busy machine can overtake a fixed margin ("Cannot fast-forward to the past"): then ask again.
 */
export async function pauseClockSoon(page: Page, marginMs = 250): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const at = (await page.evaluate(() => Date.now())) + marginMs * attempt;
    try {
      await page.clock.pauseAt(at);
      return at;
    } catch (error) {
      if (attempt >= 5 || !String(error).includes("fast-forward to the past")) throw error;
    }
  }
}

/** React Router's framework chunk (React and React Router), which the page's start-up fetches first. */
export const FRAMEWORK_CHUNK = /\/assets\/entry\.client-[^/]+\.js$/;

/** Holds the framework chunk until `release()`, so the page is painted but not yet hydrated. */
export async function holdFramework(page: Page) {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(FRAMEWORK_CHUNK, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}
