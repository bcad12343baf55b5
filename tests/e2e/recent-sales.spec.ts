import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { type AppServer, startAppServer } from "../support/app-server";
import { axeBuilder } from "../support/axe";
import { pauseClockSoon, waitForHydration } from "../support/hydration";
import { test } from "../support/own-client-address";
import { openStoreDatabase } from "../support/store-database";

// The recent-sales notice (issue 36) in the demo: real sales of the demo checkout's own orders, once there are 3.
// One app with `"recentSales": true` in a copy of content/, and three completed orders (one refunded one not shown).
test.describe.configure({ mode: "serial", timeout: 90_000 });

const BUYER = "recent-buyer@example.com";
const HOUR = 3_600_000;
/** The last full hour: the sales are placed relative to it, and the page's clock starts 20 minutes after it. */
const SALES_HOUR = Math.floor(Date.now() / HOUR) * HOUR;
let server: AppServer;
let contentDir: string;

test.beforeAll(async () => {
  contentDir = fs.mkdtempSync(path.join(os.tmpdir(), "kestrel-recent-sales-"));
  fs.cpSync(path.resolve("content"), contentDir, { recursive: true });
  const site = JSON.parse(fs.readFileSync(path.join(contentDir, "site.json"), "utf8"));
  fs.writeFileSync(path.join(contentDir, "site.json"), JSON.stringify({ ...site, recentSales: true }));
  server = await startAppServer({ env: { CONTENT_DIR: contentDir } });
  const db = openStoreDatabase(server.dataDir);
  try {
    const insert = db.prepare(
      `INSERT INTO orders (id, provider, provider_invoice_id, product_id, variant_id, quantity, amount_cents, status,
        created_at, completed_at, raw_event_id, shop_status, coupon, buyer_email)
       VALUES (?, 'demo', NULL, 446894, 653021, 1, 3999, ?, ?, ?, NULL, NULL, NULL, ?)`,
    );
    for (const [hours, status] of [
      [2, "completed"],
      [3, "refunded"],
      [5, "completed"],
      [9, "completed"],
    ] as const) {
      // On the hour, as the notice rounds them: "2 hours ago" whatever the minute the suite runs at (the page's clock
      // is set 20 minutes past SALES_HOUR).
      const at = new Date(SALES_HOUR - hours * HOUR).toISOString();
      insert.run(crypto.randomUUID(), status, at, at, BUYER);
    }
  } finally {
    db.close();
  }
});

test.afterAll(async () => {
  await server?.stop();
  fs.rmSync(contentDir, { recursive: true, force: true });
});

test.use({ baseURL: undefined });

const notice = (page: Page) => page.getByRole("complementary", { name: "Recent sales" });
const SENTENCE = /^Someone bought Kestrel Studio · 1 Week, (\d+) hours ago$/;

/**
 * Layout shifts the page reports once its document is parsed (the Layout Instability API), summed as CLS counts them.
 * Not before: a busy browser may paint a half-parsed document (the header without its navigation yet), a shift that
 * is the parser's, while the notice's script can only run after parsing.
 */
async function recordLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { __shifts: number };
    w.__shifts = 0;
    new PerformanceObserver((list) => {
      const [navigation] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
      const parsedAt = navigation?.domInteractive || Number.POSITIVE_INFINITY;
      for (const entry of list.getEntries() as unknown as Array<{
        value: number;
        hadRecentInput: boolean;
        startTime: number;
      }>)
        if (!entry.hadRecentInput && entry.startTime >= parsedAt) w.__shifts += entry.value;
    }).observe({ type: "layout-shift", buffered: true });
  });
}

test("the notice comes after the page, names no buyer, moves nothing, pauses and hides for the visit", async ({
  page,
  browser,
  extraHTTPHeaders,
}) => {
  await recordLayoutShifts(page);
  await page.clock.install({ time: SALES_HOUR + 20 * 60_000 });
  const chunkRequests: string[] = [];
  page.on("request", (r) => {
    if (/\/assets\/recent-sales-notice-[^/]+\.js$/.test(r.url())) chunkRequests.push(r.url());
  });
  const response = await page.goto(`${server.url}/product/446894`);
  // Its code is no part of the document or the first load: no preload names it.
  expect(await response?.text()).not.toContain("recent-sales-notice");
  await waitForHydration(page);
  const heading = page.getByRole("heading", { level: 1 });
  const footer = page.getByRole("contentinfo");
  const before = { heading: await heading.boundingBox(), footer: await footer.boundingBox() };

  await expect(notice(page)).toBeVisible({ timeout: 20_000 });
  expect(chunkRequests).toHaveLength(1);
  const status = notice(page).getByRole("status");
  await expect(status).toHaveText(SENTENCE);
  expect(Number(SENTENCE.exec((await status.textContent()) ?? "")?.[1])).toBe(2);
  await expect(notice(page).getByRole("alert")).toHaveCount(0);
  expect(await notice(page).evaluate((el) => getComputedStyle(el).position)).toBe("fixed");
  // Nothing on the page moved for it.
  expect({ heading: await heading.boundingBox(), footer: await footer.boundingBox() }).toEqual(before);
  expect(await page.evaluate(() => (window as unknown as { __shifts: number }).__shifts)).toBe(0);
  // Never who bought, nor for how much.
  const html = await page.content();
  expect(html).not.toContain(BUYER);
  expect(await notice(page).textContent()).not.toMatch(/\$|39\.99|@/);
  expect((await axeBuilder(page).analyze()).violations).toEqual([]);

  // From here the page's time moves only when the test moves it, however slowly a loaded machine clicks.
  await pauseClockSoon(page);
  // Paused: no next sale however long the visitor reads.
  await notice(page).getByRole("button", { name: "Pause" }).click();
  await expect(notice(page).getByRole("button", { name: "Pause" })).toHaveAttribute("aria-pressed", "true");
  await page.clock.fastForward(60_000);
  await expect(status).toHaveText(/, 2 hours ago$/);
  // Resumed: the next one 20 s on, never sooner.
  await notice(page).getByRole("button", { name: "Pause" }).click();
  await page.clock.fastForward(19_000);
  await expect(status).toHaveText(/, 2 hours ago$/);
  await page.clock.fastForward(1_500);
  await expect(status).toHaveText(/, 5 hours ago$/);
  expect(await page.evaluate(() => (window as unknown as { __shifts: number }).__shifts)).toBe(0);

  // The page's time runs again for what follows (the next page must load and hydrate).
  await page.clock.resume();
  // Hidden for the rest of the visit: not on the next page either.
  await notice(page).getByRole("button", { name: "Hide recent sales for this visit" }).click();
  await expect(notice(page)).toHaveCount(0);
  await page.goto(`${server.url}/products`);
  await waitForHydration(page);
  await page.clock.fastForward(5_000);
  await expect.poll(() => chunkRequests.length).toBeGreaterThan(1);
  await page.waitForLoadState("networkidle");
  await expect(notice(page)).toHaveCount(0);

  // A new visit shows it again.
  const next = await browser.newContext({ extraHTTPHeaders });
  try {
    const other = await next.newPage();
    await other.goto(`${server.url}/products`);
    await expect(notice(other)).toBeVisible({ timeout: 20_000 });
  } finally {
    await next.close();
  }
});

test("no motion under reduced motion; the Arabic page words it in Arabic", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto(`${server.url}/ar/products`);
  const aside = page.getByRole("complementary", { name: "المبيعات الأخيرة" });
  await expect(aside).toBeVisible({ timeout: 20_000 });
  await expect(aside.getByRole("status")).toContainText("اشترى أحدهم");
  const animation = await aside
    .getByRole("status")
    .evaluate((el) => getComputedStyle(el.firstElementChild as Element).animationName);
  expect(animation).toBe("none");
});

test("the API answers the sales as product, duration, country and hour only, cacheable", async ({ request }) => {
  const response = await request.get(`${server.url}/api/recent-sales`);
  expect(response.headers()["cache-control"]).toBe("public, max-age=60");
  const body = (await response.json()) as { sales: Array<Record<string, unknown>> };
  expect(body.sales).toHaveLength(3);
  expect(body.sales.every((s) => Object.keys(s).sort().join() === "at,country,product,variant")).toBe(true);
  expect(JSON.stringify(body)).not.toContain(BUYER);
});
