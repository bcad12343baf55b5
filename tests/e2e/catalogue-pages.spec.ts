import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { axeBuilder } from "../support/axe";
import fc from "fast-check";
import { writeCatalogue } from "../../scripts/lib/generate-catalogue.mjs";
import { type AppServer, startAppServer } from "../support/app-server";
import { gotoHydrated } from "../support/hydration";

// A catalogue of 1,000 products (the demo repeated with unique ids, names and prices), made by this spec, served by
// its own production server.
let server: AppServer;
let contentDir: string;
test.describe.configure({ mode: "default", timeout: 60_000 });
test.beforeAll(async () => {
  contentDir = writeCatalogue(fs.mkdtempSync(path.join(os.tmpdir(), "kestrel-catalogue-1000-")), 1_000);
  server = await startAppServer({ env: { CONTENT_DIR: contentDir } });
});
test.afterAll(async () => {
  await server?.stop();
  fs.rmSync(contentDir, { recursive: true, force: true });
});

const at = (pathAndQuery: string) => `${server.url}${pathAndQuery}`;
const cards = (page: Page) => page.getByRole("main").getByRole("article");
const pagination = (page: Page) => page.getByRole("navigation", { name: "Pagination" });
const status = (page: Page) => page.getByRole("main").getByRole("status");

test.describe("a catalogue of 1,000 products", () => {
  test("shows 24 cards a page, numbered page links and the range in the status line", async ({ page }) => {
    await page.goto(at("/products"));
    await expect(cards(page)).toHaveCount(24);
    await expect(status(page)).toHaveText("Showing 1–24 of 1,000 products");
    const nav = pagination(page);
    await expect(nav.getByRole("link")).toHaveText(["1", "2", "42", "Next"]);
    await expect(nav.getByRole("link", { name: "Page 1", exact: true })).toHaveAttribute("aria-current", "page");
    await expect(nav.getByRole("link", { name: "Next" })).toHaveAttribute("href", "/products?page=2");
  });

  test("page 2 lists the next 24 and links first, last, the pages around it, previous and next", async ({ page }) => {
    await page.goto(at("/products?page=2"));
    await expect(status(page)).toHaveText("Showing 25–48 of 1,000 products");
    await expect(cards(page)).toHaveCount(24);
    await expect(pagination(page).getByRole("link")).toHaveText(["Previous", "1", "2", "3", "42", "Next"]);
    await expect(pagination(page).getByRole("link", { name: "Page 2", exact: true })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await page.goto(at("/products?page=20"));
    await expect(pagination(page).getByRole("link")).toHaveText(["Previous", "1", "19", "20", "21", "42", "Next"]);
    await page.goto(at("/products?page=42"));
    await expect(status(page)).toHaveText("Showing 985–1,000 of 1,000 products");
    await expect(cards(page)).toHaveCount(16);
    await expect(pagination(page).getByRole("link")).toHaveText(["Previous", "1", "41", "42"]);
  });

  test("a page past the last answers 404 with a link to the first page", async ({ page }) => {
    const response = await page.goto(at("/products?q=vault&sort=price-asc&page=43"));
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
    await page.getByRole("link", { name: "Go to the first page" }).click();
    await expect(page).toHaveURL(/\/products\?q=vault&sort=price-asc$/);
    await expect(status(page)).toHaveText(/^Showing 1–24 of \d+ matching products$/);
  });

  test("a malformed page number reads as page 1, and the canonical link names the clean URL", async ({ page }) => {
    for (const query of ["page=abc", "page=-1", "page=0", "page=1.5", "sort=%3Cscript%3E&page=x"]) {
      const response = await page.goto(at(`/products?${query}`));
      expect(response?.status(), query).toBe(200);
      await expect(status(page), query).toHaveText("Showing 1–24 of 1,000 products");
      await expect(page.locator('link[rel="canonical"]'), query).toHaveAttribute(
        "href",
        `${server.url.replace("127.0.0.1", "localhost")}/products`,
      );
    }
    await page.goto(at("/products?page=3&sort=name&q=kestrel"));
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
      "href",
      /\/products\?q=kestrel&sort=name&page=3$/,
    );
  });

  test("bad input gets the clean page or a 404, never a 500", async ({ request }) => {
    for (const query of [
      "page=-1",
      "page=99999999999",
      `page=${"9".repeat(400)}`,
      "sort=<script>alert(1)</script>",
      `q=${"vault ".repeat(1_700)}`,
      "q=%00%01",
      "category=<b>&min=-1&max=NaN",
      "page=2&page=3",
      "sort=price-asc&sort=name",
    ]) {
      const response = await request.get(at(`/products?${query}`));
      expect([200, 404], query.slice(0, 60)).toContain(response.status());
      expect(await response.text(), query.slice(0, 60)).not.toContain("<script>alert(1)</script>");
    }
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.constantFrom("q", "page", "sort", "category", "min", "max"), fc.string({ maxLength: 30 }), {
          maxKeys: 6,
        }),
        async (params) => {
          const response = await request.get(at(`/products?${new URLSearchParams(params)}`));
          expect([200, 404], JSON.stringify(params)).toContain(response.status());
        },
      ),
      { numRuns: 150 },
    );
  });

  test("the sort select orders every page by price, and changing it goes back to page 1", async ({ page }) => {
    await gotoHydrated(page, at("/products?page=3"));
    await page.getByLabel("Sort by").selectOption("price-asc");
    await expect(page).toHaveURL(/\/products\?sort=price-asc$/);
    await expect(status(page)).toHaveText("Showing 1–24 of 1,000 products");
    const prices = async () =>
      (await cards(page).locator("p > span:first-child").allTextContents()).map((text) =>
        Number(text.replace("$", "")),
      );
    const first = await prices();
    expect(first).toEqual([...first].sort((a, b) => a - b));
    expect(first[0]).toBe(0.25);
    await pagination(page).getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/\/products\?sort=price-asc&page=2$/);
    // The URL can change a frame before the new page's cards render: wait for its count.
    await expect(status(page)).toHaveText("Showing 25–48 of 1,000 products");
    const second = await prices();
    expect(second[0]).toBeGreaterThanOrEqual(first.at(-1) ?? 0);
    await page.getByLabel("Sort by").selectOption("price-desc");
    await expect(page).toHaveURL(/\/products\?sort=price-desc$/);
  });

  test("a page link moves focus and scroll to the top of the results without a reload, and the count is announced", async ({
    page,
  }) => {
    await gotoHydrated(page, at("/products"));
    await page.evaluate(() => ((window as Window & { __samePage?: boolean }).__samePage = true));
    await pagination(page).getByRole("link", { name: "Page 2", exact: true }).click();
    await expect(page).toHaveURL(/\/products\?page=2$/);
    await expect(status(page)).toHaveText("Showing 25–48 of 1,000 products");
    await expect(status(page)).toBeFocused();
    // No reload: the page's own state survived the navigation.
    expect(await page.evaluate(() => (window as Window & { __samePage?: boolean }).__samePage)).toBe(true);
    await expect
      .poll(() => status(page).evaluate((el) => Math.round(el.getBoundingClientRect().top)))
      .toBeLessThan(200);
    await page.goBack();
    await expect(status(page)).toHaveText("Showing 1–24 of 1,000 products");
  });

  test('search forgives a typo: "vualt" finds the Kestrel Vault products, name matches first, from page 1', async ({
    page,
  }) => {
    await gotoHydrated(page, at("/products?page=3"));
    const search = page.getByPlaceholder("Search products...");
    await expect(async () => {
      await search.fill("vualt");
      await expect(page).toHaveURL(/\?q=vualt$/, { timeout: 2_000 });
    }).toPass();
    await expect(status(page)).toHaveText(/^Showing 1–24 of 167 matching products$/);
    await expect(cards(page).first().getByRole("heading")).toHaveText("Kestrel Vault");
    const names = await cards(page).getByRole("heading").allTextContents();
    expect(names.every((name) => name.startsWith("Kestrel Vault"))).toBe(true);
  });

  test("category checkboxes show how many products each would give for the current search", async ({ page }) => {
    await page.goto(at("/products?q=vault"));
    await page.getByText("Filters", { exact: true }).click();
    await expect(page.getByRole("checkbox", { name: "Utilities 167 products" })).toBeVisible();
    await expect(page.getByRole("checkbox", { name: "Creator Tools 0 products" })).toBeVisible();
    await page.goto(at("/products"));
    await page.getByText("Filters", { exact: true }).click();
    await expect(page.getByRole("checkbox", { name: "Utilities 334 products" })).toBeVisible();
    await expect(page.getByRole("checkbox", { name: "Creator Tools 666 products" })).toBeVisible();
  });

  test("a product page ends with four other products of its category", async ({ page }) => {
    await page.goto(at("/product/446894"));
    const more = page.getByRole("region", { name: "More creator tools" });
    await expect(more.getByRole("listitem")).toHaveCount(4);
    await expect(more.getByRole("link", { name: /^Kestrel Studio From/ })).toHaveCount(0);
  });

  test("axe finds no violations on a middle page of the catalogue", async ({ page }) => {
    test.setTimeout(90_000);
    await gotoHydrated(page, at("/products?page=20"));
    const results = await axeBuilder(page).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
  });
});

test.describe("a catalogue of 1,000 products without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("page links are plain links", async ({ page }) => {
    await page.goto(at("/products"));
    await pagination(page).getByRole("link", { name: "Page 42" }).click();
    await expect(page).toHaveURL(/\/products\?page=42$/);
    await expect(status(page)).toHaveText("Showing 985–1,000 of 1,000 products");
    await pagination(page).getByRole("link", { name: "Previous" }).click();
    await expect(status(page)).toHaveText("Showing 961–984 of 1,000 products");
  });

  test("the sort is a GET form: Sort submits it with the search, and starts again at page 1", async ({ page }) => {
    await page.goto(at("/products?q=capture&page=2"));
    await page.getByLabel("Sort by").selectOption("name");
    await page.getByRole("button", { name: "Sort", exact: true }).click();
    // A plain GET form sends its empty price fields too; the canonical link names the clean URL.
    await expect(page).toHaveURL(/\/products\?q=capture&sort=name(&|$)/);
    expect(page.url()).not.toContain("page=");
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /\/products\?q=capture&sort=name$/);
    await expect(page.getByLabel("Sort by")).toHaveValue("name");
    await expect(status(page)).toHaveText(/^Showing 1–24 of \d+ matching products$/);
    const names = await cards(page).getByRole("heading").allTextContents();
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en", { numeric: true })));
  });
});
