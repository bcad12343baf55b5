import { expect, type Page, test } from "@playwright/test";
import { gotoHydrated } from "../support/hydration";

const COMMUNITY_URL = "https://chat.example.com/kestrel";

/** The community chat is a third party: answer it locally so nothing leaves 127.0.0.1. */
async function stubCommunity(page: Page) {
  await page.context().route(`${COMMUNITY_URL}**`, (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<title>Community</title><h1>Community</h1>" }));
}

const mainNav = (page: Page) => page.getByRole("navigation", { name: "Main" });

test.describe("top bar and navigation", () => {
  test("shows the brand linking home and the #1 Provider badge", async ({ page }) => {
    await page.goto("/faq");
    const brand = page.getByRole("banner").getByRole("link", { name: "Kestrel Software" });
    await expect(brand).toHaveAttribute("href", "/");
    await expect(page.getByRole("banner").getByText("#1 Provider")).toBeVisible();
  });

  test("lists Home, Products, Status, Reviews, Reseller, FAQ and Community in that order", async ({ page }) => {
    await page.goto("/status");
    const links = mainNav(page).getByRole("link");
    await expect(links).toHaveText(["Home", "Products", "Status", "Reviews", "Reseller", "FAQ", /^Community/]);
    const hrefs = await links.evaluateAll((els) => els.map((el) => el.getAttribute("href")));
    expect(hrefs).toEqual(["/", "/products", "/status", "/reviews", "/reseller", "/faq", COMMUNITY_URL]);
  });

  for (const [path, label] of [
    ["/", "Home"],
    ["/status", "Status"],
    ["/reviews", "Reviews"],
    ["/reseller", "Reseller"],
    ["/faq", "FAQ"],
  ] as const) {
    test(`marks ${label} as the current page on ${path}`, async ({ page }) => {
      await page.goto(path);
      await expect(mainNav(page).locator('[aria-current="page"]')).toHaveCount(1);
      await expect(mainNav(page).getByRole("link", { name: label, exact: true })).toHaveAttribute("aria-current", "page");
    });
  }

  test("marks no item as current on a page outside the navigation", async ({ page }) => {
    await page.goto("/docs");
    await expect(mainNav(page).locator('[aria-current="page"]')).toHaveCount(0);
  });

  test("Community opens in a new tab with rel noopener noreferrer", async ({ page }) => {
    await stubCommunity(page);
    await page.goto("/faq");
    const community = mainNav(page).getByRole("link", { name: /^Community/ });
    await expect(community).toHaveAttribute("target", "_blank");
    await expect(community).toHaveAttribute("rel", "noopener noreferrer");
    const [popup] = await Promise.all([page.context().waitForEvent("page"), community.click()]);
    await expect(popup).toHaveURL(COMMUNITY_URL);
    await expect(page).toHaveURL(/\/faq$/);
    // noopener: the new tab cannot reach back into the shop.
    expect(await popup.evaluate(() => window.opener)).toBeNull();
  });
});

test.describe("page transitions and scrolling", () => {
  test("sets the transitioning flag, navigates, then clears the flag", async ({ page }) => {
    await page.goto("/faq");
    const main = page.locator("main#main");
    await expect(main).toHaveAttribute("data-transitioning", "false");
    // Record every value the flag takes (on the old and the new <main>), so a short-lived state cannot be missed.
    await page.evaluate(() => {
      const seen: Array<{ value: string | null; path: string }> = [];
      (window as unknown as { transitions: typeof seen }).transitions = seen;
      new MutationObserver((records) => {
        for (const r of records) {
          const el = r.target instanceof Element && r.type === "attributes" ? r.target : null;
          if (el?.id === "main") seen.push({ value: el.getAttribute("data-transitioning"), path: location.pathname });
          for (const node of r.addedNodes) if (node instanceof Element && node.id === "main") seen.push({ value: node.getAttribute("data-transitioning"), path: location.pathname });
        }
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-transitioning"] });
    });
    await mainNav(page).getByRole("link", { name: "Reseller" }).click();
    await expect(page).toHaveURL(/\/reseller$/);
    await expect(page.getByRole("heading", { level: 1, name: "Reseller Program" })).toBeVisible();
    await expect(main).toHaveAttribute("data-transitioning", "false");
    const seen = await page.evaluate(() => (window as unknown as { transitions: Array<{ value: string | null; path: string }> }).transitions);
    // Set on the old page before navigating, then cleared after arriving.
    expect(seen[0]).toEqual({ value: "true", path: "/faq" });
    expect(seen.at(-1)).toEqual({ value: "false", path: "/reseller" });
  });

  test("does nothing when the link points at the current page", async ({ page }) => {
    await page.goto("/faq");
    await page.evaluate(() => {
      (window as unknown as { marker: string }).marker = "same document";
    });
    await mainNav(page).getByRole("link", { name: "FAQ" }).click();
    await expect(page.locator("main#main")).toHaveAttribute("data-transitioning", "false");
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe("same document");
  });

  test("scrolls to the top after navigating from a scrolled page", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 600 });
    await page.goto("/docs");
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
    await page.getByRole("contentinfo").getByRole("link", { name: "FAQ" }).click();
    await expect(page).toHaveURL(/\/faq$/);
    await expect(page.getByRole("heading", { level: 1, name: "Frequently Asked Questions" })).toBeVisible();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test("#hash links scroll to their target and update the hash without a reload", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 600 });
    await page.goto("/docs?product=vault");
    await page.evaluate(() => {
      (window as unknown as { marker: string }).marker = "same document";
    });
    const target = page.getByRole("article").filter({ has: page.getByRole("heading", { name: "App Crashing" }) });
    await expect(target).not.toBeInViewport();
    await page.getByRole("navigation", { name: "On this page" }).getByRole("link", { name: "App Crashing" }).click();
    await expect(page).toHaveURL(/\/docs\?product=vault#app-crashing$/);
    await expect(target).toBeInViewport();
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe("same document");
  });

  test("fades pages in on navigation (not on the first paint), and not at all with prefers-reduced-motion", async ({ page }) => {
    const animation = () => page.locator("main#main").evaluate((el) => ({ name: getComputedStyle(el).animationName, duration: Number.parseFloat(getComputedStyle(el).animationDuration) }));
    const navigateToFaq = async () => {
      await gotoHydrated(page, "/docs");
      await page.getByRole("contentinfo").getByRole("link", { name: "FAQ" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Frequently Asked Questions" })).toBeVisible();
    };
    await page.goto("/faq");
    expect((await animation()).name).toBe("none");
    await navigateToFaq();
    expect(await animation()).toEqual({ name: "page-in", duration: 0.3 });
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe("smooth");

    await page.emulateMedia({ reducedMotion: "reduce" });
    await navigateToFaq();
    const reduced = await animation();
    expect(reduced.duration).toBeLessThan(0.001);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe("auto");
  });
});

test.describe("footer", () => {
  test("has Products, Support, Legal and copyright columns with their links", async ({ page }) => {
    await page.goto("/faq");
    const footer = page.getByRole("contentinfo");
    const column = (name: string) => footer.getByRole("region", { name });

    const products = column("Products").getByRole("link");
    await expect(products).toHaveText(["Utilities", "Creator Tools", "All products"]);
    expect(await products.evaluateAll((els) => els.map((el) => el.getAttribute("href")))).toEqual(["/products?category=utilities", "/products?category=creator", "/products"]);

    const support = column("Support").getByRole("link");
    await expect(support).toHaveText(["FAQ", /^Community/, "Status", "Reviews"]);
    expect(await support.evaluateAll((els) => els.map((el) => el.getAttribute("href")))).toEqual(["/faq", COMMUNITY_URL, "/status", "/reviews"]);
    await expect(column("Support").getByRole("link", { name: /^Community/ })).toHaveAttribute("rel", "noopener noreferrer");

    const legal = column("Legal").getByRole("link");
    expect((await legal.evaluateAll((els) => els.map((el) => el.getAttribute("href")))).sort()).toEqual(["/dmca", "/privacy", "/refund", "/terms"]);

    await expect(footer.getByText(`© ${new Date().getFullYear()} Kestrel Software`)).toBeVisible();
  });

  test("category links open the catalogue filtered by that category", async ({ page }) => {
    await page.goto("/faq");
    await page.getByRole("contentinfo").getByRole("link", { name: "Creator Tools" }).click();
    await expect(page).toHaveURL(/\/products\?category=creator$/);
  });

  test("legal links reach each legal page", async ({ page }) => {
    await page.goto("/faq");
    await page.getByRole("contentinfo").getByRole("link", { name: "Refund Policy" }).click();
    await expect(page).toHaveURL(/\/refund$/);
    await expect(page.getByRole("heading", { level: 1, name: "Refund Policy" })).toBeVisible();
  });
});

test.describe("chat button slot", () => {
  test("a round support chat button sits at the bottom right of every page", async ({ page }) => {
    await page.goto("/downloads");
    const button = page.getByRole("button", { name: "Open support chat" });
    await expect(button).toBeVisible();
    const box = await button.boundingBox();
    const viewport = page.viewportSize();
    expect(box && viewport && box.x + box.width > viewport.width - 40 && box.y + box.height > viewport.height - 40).toBe(true);
  });
});
