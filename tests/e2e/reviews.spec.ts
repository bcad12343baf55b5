import { expect, type Page, test } from "@playwright/test";
import { axeBuilder } from "../support/axe";
import { type AppServer, startAppServer } from "../support/app-server";
import { gotoHydrated, waitForHydration } from "../support/hydration";
import { startVouchPageFake, type VouchPageFake, vouchFixture } from "../fakes/vouch-page";

// Servers pointed at fake vouch pages (real HTTP on 127.0.0.1), shared by the tests of this file: they run in order
// in one worker (a failure restarts the worker and its servers, the rest still run).
test.describe.configure({ mode: "default" });

const PRODUCT_PATH = "/product/446889";

let fixturePage: VouchPageFake;
let hostilePage: VouchPageFake;
let failingPage: VouchPageFake;
let emptyPage: VouchPageFake;
let slowPage: VouchPageFake;
let noVouchesPage: VouchPageFake;
/** page = hostile HTML, product = the fixture page. */
let live: AppServer;
/** page = HTTP 500, product = empty body. */
let failing: AppServer;
/** page = empty body, product = a slow page (answers after 8 s). */
let slow: AppServer;

test.beforeAll(async () => {
  fixturePage = await startVouchPageFake({ kind: "html", html: vouchFixture("vouch-page") });
  hostilePage = await startVouchPageFake({ kind: "html", html: vouchFixture("vouch-page-hostile") });
  failingPage = await startVouchPageFake({ kind: "status", status: 500 });
  emptyPage = await startVouchPageFake({ kind: "empty" });
  slowPage = await startVouchPageFake({ kind: "slow", delayMs: 8_000, html: vouchFixture("vouch-page") });
  noVouchesPage = await startVouchPageFake({
    kind: "html",
    html: "<!doctype html><html><body><p>No vouches yet</p></body></html>",
  });
  [live, failing] = await Promise.all([
    startAppServer({ env: { REVIEWS_SOURCE_URL: hostilePage.url, REVIEWS_PRODUCT_SOURCE_URL: fixturePage.url } }),
    startAppServer({ env: { REVIEWS_SOURCE_URL: failingPage.url, REVIEWS_PRODUCT_SOURCE_URL: emptyPage.url } }),
  ]);
});

test.afterAll(async () => {
  await Promise.all([live?.stop(), failing?.stop(), slow?.stop()]);
  await Promise.all([fixturePage, hostilePage, failingPage, emptyPage, slowPage, noVouchesPage].map((f) => f?.close()));
});

function failOnDialog(page: Page) {
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return dialogs;
}

async function expectNoAxeViolations(page: Page) {
  const results = await axeBuilder(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test.describe("product page Reviews section", () => {
  test("shows the product vouch page's reviews with accessible star ratings", async ({ page }) => {
    await page.goto(`${live.url}${PRODUCT_PATH}`);
    const section = page.getByRole("region", { name: "Reviews" });
    await expect(section.getByText("@alice_b")).toBeVisible();
    await expect(section.getByText("Fast delivery, the key worked straight away.")).toBeVisible();
    await expect(section.getByRole("img", { name: "4 out of 5 stars" })).toBeVisible();
    await expect(section.getByRole("img", { name: "5 out of 5 stars" })).toBeVisible();
    await expect(section.getByRole("img", { name: "0 out of 5 stars" })).toBeVisible();
    // Where they come from, in one sentence (UCPD Art. 7(6)).
    await expect(section.getByTestId("reviews-origin")).toHaveText(
      "These reviews are copied from our community's vouch page; they are not checked against orders.",
    );
    await expectNoAxeViolations(page);
  });

  test("rates nothing in the product JSON-LD from vouches: only the shop's verified feedback does (shop-catalogue.spec.ts)", async ({
    page,
  }) => {
    await page.goto(`${live.url}${PRODUCT_PATH}`);
    await expect(page.getByRole("region", { name: "Reviews" }).getByText("@alice_b")).toBeVisible();
    const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
    const product = blocks
      .flatMap((text) => [JSON.parse(text)].flat())
      .find((data: { "@type"?: string }) => data["@type"] === "Product");
    expect(product?.name).toBe("Kestrel Vault");
    expect(product?.aggregateRating).toBeUndefined();
  });

  test('says "Failed to load reviews." when the vouch page gives nothing', async ({ page }) => {
    await page.goto(`${failing.url}${PRODUCT_PATH}`);
    await expect(page.getByRole("region", { name: "Reviews" }).getByText("Failed to load reviews.")).toBeVisible();
  });

  test('says "Loading reviews..." while the first fetch runs, then shows the reviews', async ({ page }) => {
    slow = await startAppServer({
      env: { REVIEWS_SOURCE_URL: emptyPage.url, REVIEWS_PRODUCT_SOURCE_URL: slowPage.url },
    });
    await page.goto(`${slow.url}${PRODUCT_PATH}`);
    const section = page.getByRole("region", { name: "Reviews" });
    await expect(section.getByText("Loading reviews...")).toBeVisible();
    await expect(section.getByText("@alice_b")).toBeVisible({ timeout: 15_000 });
    await expect(section.getByText("Loading reviews...")).toHaveCount(0);
  });

  test('says "No reviews yet." when the vouch page has no vouches', async ({ page }) => {
    const empty = await startAppServer({ env: { REVIEWS_PRODUCT_SOURCE_URL: noVouchesPage.url } });
    try {
      await page.goto(`${empty.url}${PRODUCT_PATH}`);
      await expect(page.getByRole("region", { name: "Reviews" }).getByText("No reviews yet.")).toBeVisible();
    } finally {
      await empty.stop();
    }
  });

  test("shows the curated list from content when no vouch page is configured, without an error", async ({ page }) => {
    await page.goto(PRODUCT_PATH);
    const section = page.getByRole("region", { name: "Reviews" });
    await expect(section.getByText("@nightowl")).toBeVisible();
    await expect(section.getByText("Failed to load reviews.")).toHaveCount(0);
    await expect(section.getByTestId("reviews-origin")).toHaveText(
      "These reviews are quotes we chose from customers' messages; they are not checked against orders.",
    );
  });
});

test.describe("/reviews page", () => {
  test("renders hostile vouch HTML as inert text: no dialog, no injected element or handler", async ({ page }) => {
    const dialogs = failOnDialog(page);
    await page.goto(`${live.url}/reviews`);
    await expect(page.getByText("@mallory")).toBeVisible();
    await expect(page.getByText('alert("encoded") Nice & quick')).toBeVisible();
    const main = page.getByRole("main");
    await expect(main.locator("script, iframe, [onerror], [onload], a[href^='javascript']")).toHaveCount(0);
    await expect(main.locator("img[src^='javascript'], img[src^='data:'], img[src^='x']")).toHaveCount(0);
    expect(await page.evaluate(() => (window as { __pwned?: boolean }).__pwned)).toBeUndefined();
    await page.waitForLoadState("networkidle");
    expect(dialogs).toEqual([]);
  });

  test('falls back to the sample reviews with "Failed to fetch vouches" when the vouch page answers non-OK', async ({
    page,
  }) => {
    await page.goto(`${failing.url}/reviews`);
    await expect(page.getByText("Failed to load vouches. Using sample data.")).toBeVisible();
    await expect(page.getByText("Failed to fetch vouches", { exact: true })).toBeVisible();
    await expect(page.getByText("@kestrel-customer")).toBeVisible();
    await expect(page.getByText("@happy-buyer")).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('falls back with "No content received from API" when the vouch page body is empty', async ({ page }) => {
    slow ??= await startAppServer({
      env: { REVIEWS_SOURCE_URL: emptyPage.url, REVIEWS_PRODUCT_SOURCE_URL: slowPage.url },
    });
    await page.goto(`${slow.url}/reviews`);
    await expect(page.getByText("Failed to load vouches. Using sample data.")).toBeVisible();
    await expect(page.getByText("No content received from API", { exact: true })).toBeVisible();
    await expect(page.getByRole("region", { name: "Vouches" }).getByRole("listitem")).toHaveCount(2);
  });

  test('shows "Loading vouches..." until the first list arrives in the browser', async ({ page }) => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/api/reviews?source=page", async (route) => {
      await held;
      await route.fulfill({
        json: {
          reviews: [
            {
              id: "r1",
              user: "late",
              avatar: "/images/avatar-default.svg",
              comment: "Arrived late",
              rating: 4,
              date: "2026-11-20",
            },
          ],
          fetchedAt: null,
          stale: false,
        },
      });
    });
    // A fresh server with a slow page: nothing cached yet, so the page loads the list in the browser.
    const cold = await startAppServer({ env: { REVIEWS_SOURCE_URL: `${slowPage.url}?cold` } });
    try {
      await page.goto(`${cold.url}/reviews`);
      await expect(page.getByText("Loading vouches...")).toBeVisible();
      // The page's code starts after its first paint: let it ask for the list before the list is let through.
      await waitForHydration(page);
      await expect(page.getByText("Loading vouches...")).toBeVisible();
      release();
      await expect(page.getByText("Arrived late")).toBeVisible();
      await expect(page.getByText("Loading vouches...")).toHaveCount(0);
    } finally {
      await cold.stop();
    }
  });

  test("asks again every 60 s on a clock the test controls, and pauses while the tab is hidden", async ({ page }) => {
    await page.clock.install();
    let calls = 0;
    await page.route("**/api/reviews?source=page", (route) => {
      calls += 1;
      return route.fulfill({
        json: {
          reviews: [
            {
              id: `fresh-${calls}`,
              user: `fresh${calls}`,
              avatar: "/images/avatar-default.svg",
              comment: `Refresh number ${calls}`,
              rating: 5,
              date: "2026-11-21",
            },
          ],
          fetchedAt: null,
          stale: false,
        },
      });
    });
    await page.goto(`${live.url}/reviews`);
    await expect(page.getByText("@mallory")).toBeVisible();
    // The 60 s interval starts when the page has hydrated.
    await waitForHydration(page);
    await page.clock.runFor(59_000);
    expect(calls).toBe(0);
    await page.clock.runFor(1_000);
    await expect(page.getByText("Refresh number 1")).toBeVisible();
    expect(calls).toBe(1);

    await page.evaluate(() => {
      Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
      document.dispatchEvent(new Event("visibilitychange"));
    });
    await page.clock.runFor(180_000);
    expect(calls).toBe(1);

    await page.evaluate(() => {
      Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "visible" });
      document.dispatchEvent(new Event("visibilitychange"));
    });
    await expect(page.getByText("Refresh number 2")).toBeVisible();
    await page.clock.runFor(60_000);
    await expect(page.getByText("Refresh number 3")).toBeVisible();
  });

  test("keeps the list it shows when a later refresh fails", async ({ page }) => {
    await page.clock.install();
    await page.route("**/api/reviews?source=page", (route) => route.fulfill({ status: 502, body: "" }));
    await page.goto(`${live.url}/reviews`);
    await expect(page.getByText("@mallory")).toBeVisible();
    await waitForHydration(page);
    await page.clock.runFor(60_000);
    await expect(page.getByText("@mallory")).toBeVisible();
    await expect(page.getByText("Failed to load vouches. Using sample data.")).toHaveCount(0);
  });

  test("dates each review in the page's language, and the browser writes the very date the server wrote", async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
    page.on("pageerror", (error) => errors.push(error.message));
    // @nightowl's curated review is dated 2026-11-12 (content/reviews.json).
    await gotoHydrated(page, "/reviews");
    await expect(page.locator('time[datetime="2026-11-12"]')).toHaveText("Nov 12, 2026");
    await gotoHydrated(page, "/de/reviews");
    await expect(page.locator('time[datetime="2026-11-12"]')).toHaveText("12. Nov. 2026");
    await gotoHydrated(page, "/es/reviews");
    await expect(page.locator('time[datetime="2026-11-12"]')).toHaveText("12 nov 2026");
    expect(errors).toEqual([]);
  });

  test("shows the curated list with no error when no vouch page is configured", async ({ page }) => {
    await page.goto("/reviews");
    await expect(page.getByText("@nightowl")).toBeVisible();
    await expect(page.getByText("Failed to load vouches. Using sample data.")).toHaveCount(0);
  });
});
