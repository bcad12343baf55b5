import { expect, type Locator, type Page, test } from "@playwright/test";
import { axeBuilder, WCAG_TAGS } from "../support/axe";

import { gotoHydrated, pauseClockSoon, waitForHydration } from "../support/hydration";

const COMMUNITY_URL = "https://chat.example.com/kestrel";

/** The community chat is a third party: answer it locally so nothing leaves 127.0.0.1. */
async function stubCommunity(page: Page) {
  await page
    .context()
    .route(`${COMMUNITY_URL}**`, (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: "<title>Community</title><h1>Community</h1>" }),
    );
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
      // Until hydration the phone menu's no-JavaScript <details> holds a second copy of the list (nav-menu.tsx).
      await waitForHydration(page);
      await expect(mainNav(page).locator('[aria-current="page"]')).toHaveCount(1);
      await expect(mainNav(page).getByRole("link", { name: label, exact: true })).toHaveAttribute(
        "aria-current",
        "page",
      );
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

test.describe("phone-sized top bar", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  const banner = (page: Page) => page.getByRole("banner");
  const menuButton = (page: Page) => banner(page).getByRole("button", { name: "Menu" });
  const NAV_LABELS = ["Home", "Products", "Status", "Reviews", "Reseller", "FAQ", /^Community/];

  /** The expanded state Chromium gives assistive technology for the element named `name` (also for a <summary>). */
  async function expandedStateSeenByAssistiveTech(page: Page, name: string) {
    const cdp = await page.context().newCDPSession(page);
    const { root } = await cdp.send("DOM.getDocument", { depth: 0 });
    const { nodes } = await cdp.send("Accessibility.queryAXTree", { nodeId: root.nodeId, accessibleName: name });
    await cdp.detach();
    const controls = nodes.filter(
      (node) => !node.ignored && !["StaticText", "InlineTextBox"].includes(String(node.role?.value)),
    );
    const states = controls.map(
      (node) => node.properties?.find((property) => property.name === "expanded")?.value.value,
    );
    expect(states).toHaveLength(1);
    return states[0] as boolean | undefined;
  }

  test("shows brand, badge and Menu on one row with the links folded away", async ({ page }) => {
    await gotoHydrated(page, "/faq");
    const brand = await banner(page).getByRole("link", { name: "Kestrel Software" }).boundingBox();
    const badge = await banner(page).getByText("#1 Provider").boundingBox();
    const menu = await menuButton(page).boundingBox();
    const middle = (box: { y: number; height: number } | null) => (box ? box.y + box.height / 2 : Number.NaN);
    for (const box of [badge, menu]) expect(Math.abs(middle(box) - middle(brand))).toBeLessThan(4);
    expect(menu && badge && menu.x > badge.x + badge.width).toBe(true);
    expect(menu && menu.x + menu.width <= 360).toBe(true);
    await expect(menuButton(page)).toHaveAttribute("aria-expanded", "false");
    await expect(mainNav(page).getByRole("link")).toHaveCount(0);
  });

  test("Menu works by keyboard: Enter and Space open it, Tab walks the items, Escape closes it and focus returns to Menu", async ({
    page,
  }) => {
    await gotoHydrated(page, "/faq");
    await menuButton(page).focus();
    await page.keyboard.press("Enter");
    await expect(menuButton(page)).toHaveAttribute("aria-expanded", "true");
    await expect(mainNav(page).getByRole("link")).toHaveText(NAV_LABELS);
    await expect(mainNav(page).getByRole("link", { name: "FAQ" })).toHaveAttribute("aria-current", "page");
    for (const label of NAV_LABELS) {
      await page.keyboard.press("Tab");
      await expect(mainNav(page).getByRole("link", { name: label })).toBeFocused();
    }
    await page.keyboard.press("Escape");
    await expect(menuButton(page)).toHaveAttribute("aria-expanded", "false");
    await expect(menuButton(page)).toBeFocused();
    await expect(mainNav(page).getByRole("link")).toHaveCount(0);

    await page.keyboard.press("Space");
    await expect(menuButton(page)).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("Space");
    await expect(menuButton(page)).toHaveAttribute("aria-expanded", "false");
    await expect(menuButton(page)).toBeFocused();
  });

  test("choosing an item navigates, closes the menu and leaves focus on Menu", async ({ page }) => {
    await gotoHydrated(page, "/faq");
    await menuButton(page).focus();
    await page.keyboard.press("Space");
    await expect(mainNav(page).getByRole("link")).toHaveText(NAV_LABELS);
    for (let i = 0; i < 5; i++) await page.keyboard.press("Tab");
    await expect(mainNav(page).getByRole("link", { name: "Reseller" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/reseller$/);
    await expect(page.getByRole("heading", { level: 1, name: "Reseller Program" })).toBeVisible();
    await expect(menuButton(page)).toHaveAttribute("aria-expanded", "false");
    await expect(mainNav(page).getByRole("link")).toHaveCount(0);
    await expect(menuButton(page)).toBeFocused();
  });

  test("Back closes an open menu, and so does Tab past the last item", async ({ page }) => {
    await gotoHydrated(page, "/faq");
    await page.getByRole("contentinfo").getByRole("link", { name: "Refund Policy" }).click();
    await expect(page).toHaveURL(/\/refund$/);
    await menuButton(page).click();
    await expect(menuButton(page)).toHaveAttribute("aria-expanded", "true");
    await page.goBack();
    await expect(page).toHaveURL(/\/faq$/);
    await expect(menuButton(page)).toHaveAttribute("aria-expanded", "false");

    await menuButton(page).click();
    await mainNav(page)
      .getByRole("link", { name: /^Community/ })
      .focus();
    await page.keyboard.press("Tab");
    await expect(menuButton(page)).toHaveAttribute("aria-expanded", "false");
    await expect(mainNav(page).getByRole("link")).toHaveCount(0);
  });

  test("axe-core finds no violations with the menu open", async ({ page }) => {
    await gotoHydrated(page, "/faq");
    await menuButton(page).click();
    await expect(mainNav(page).getByRole("link")).toHaveCount(7);
    const results = await axeBuilder(page).withTags(WCAG_TAGS).analyze();
    expect(
      results.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    ).toEqual([]);
  });

  test.describe("without JavaScript", () => {
    test.use({ javaScriptEnabled: false });
    const menuToggle = (page: Page) => banner(page).getByText("Menu", { exact: true });

    test("Menu opens and closes by keyboard, tells assistive technology its state, and its items navigate", async ({
      page,
    }) => {
      await page.goto("/faq");
      await expect(mainNav(page).getByRole("link")).toHaveCount(0);
      expect(await expandedStateSeenByAssistiveTech(page, "Menu")).toBe(false);
      await menuToggle(page).focus();
      await page.keyboard.press("Enter");
      await expect(mainNav(page).getByRole("link")).toHaveText(NAV_LABELS);
      expect(await expandedStateSeenByAssistiveTech(page, "Menu")).toBe(true);
      await page.keyboard.press("Space");
      await expect(mainNav(page).getByRole("link")).toHaveCount(0);
      expect(await expandedStateSeenByAssistiveTech(page, "Menu")).toBe(false);

      await page.keyboard.press("Space");
      await page.keyboard.press("Tab");
      await expect(mainNav(page).getByRole("link", { name: "Home" })).toBeFocused();
      await mainNav(page).getByRole("link", { name: "Status" }).click();
      await expect(page).toHaveURL(/\/status$/);
      await expect(mainNav(page).getByRole("link")).toHaveCount(0);
      await expect(menuToggle(page)).toBeVisible();
    });
  });

  // axe-core runs as page script, so the server's own HTML is checked with page scripts on and the app's bundles withheld.
  test("axe-core finds no violations with the server-rendered menu open", async ({ page }) => {
    await page.route("**/assets/**/*.js", (route) => route.abort());
    await page.goto("/faq");
    await banner(page).getByText("Menu", { exact: true }).click();
    await expect(mainNav(page).getByRole("link")).toHaveCount(7);
    expect(await page.evaluate(() => "__reactRouterRouteModules" in window)).toBe(false);
    const results = await axeBuilder(page).withTags(WCAG_TAGS).analyze();
    expect(
      results.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    ).toEqual([]);
  });
});

test.describe("top bar from 640 px up", () => {
  for (const width of [640, 1024]) {
    test(`shows the row of seven links and no Menu at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 740 });
      await gotoHydrated(page, "/faq");
      await expect(mainNav(page).getByRole("link")).toHaveText([
        "Home",
        "Products",
        "Status",
        "Reviews",
        "Reseller",
        "FAQ",
        /^Community/,
      ]);
      await expect(page.getByRole("banner").getByRole("button", { name: "Menu" })).toBeHidden();
      // Measured until it holds: right after hydrating, the menu swaps the server's markup for one list (nav-menu.tsx).
      await expect(async () => {
        const home = await mainNav(page).getByRole("link", { name: "Home" }).boundingBox();
        const faq = await mainNav(page).getByRole("link", { name: "FAQ" }).boundingBox();
        expect(home && faq && faq.y === home.y && faq.x > home.x).toBe(true);
      }).toPass({ timeout: 5_000 });
    });
  }

  test("the Menu appears just under 640 px", async ({ page }) => {
    await page.setViewportSize({ width: 639, height: 740 });
    await gotoHydrated(page, "/faq");
    await expect(page.getByRole("banner").getByRole("button", { name: "Menu" })).toBeVisible();
    await expect(mainNav(page).getByRole("link")).toHaveCount(0);
  });
});

/** What the visitor sees of the page at every rendered frame: which page, how opaque its content is, how far it is scrolled. */
type Frame = { path: string; opacity: number | null; scrollY: number };

/** Records a Frame per animation frame from the first one on (an init script, so the first paint is seen too). */
async function recordFrames(page: Page) {
  await page.addInitScript(() => {
    const frames: Array<{ path: string; opacity: number | null; scrollY: number }> = [];
    (window as unknown as { visibleFrames: typeof frames }).visibleFrames = frames;
    const record = () => {
      const main = document.querySelector("main");
      frames.push({
        path: location.pathname,
        opacity: main ? Number(getComputedStyle(main).opacity) : null,
        scrollY: window.scrollY,
      });
      requestAnimationFrame(record);
    };
    requestAnimationFrame(record);
  });
  return {
    frames: () => page.evaluate(() => (window as unknown as { visibleFrames: Frame[] }).visibleFrames),
    clear: () =>
      page.evaluate(() => {
        (window as unknown as { visibleFrames: Frame[] }).visibleFrames.length = 0;
      }),
  };
}

/** Plays CSS animations at a tenth of their speed, so every step of a fade is drawn on some frame even on a busy machine. */
async function slowAnimations(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Animation.enable");
  await cdp.send("Animation.setPlaybackRate", { playbackRate: 0.1 });
}

/** Clicks a link in the page and reports how far the page is scrolled right after, before any frame is drawn. */
const scrollYRightAfterClicking = (link: Locator) =>
  link.evaluate((el: HTMLElement) => {
    el.click();
    return window.scrollY;
  });

const afterTwoFrames = (page: Page) =>
  page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
const isBetween = (value: number | null, low: number, high: number) => value !== null && value > low && value < high;

test.describe("page transitions and scrolling", () => {
  test("fades the current page out before leaving, then shows the new page fully with focus still on the link used", async ({
    page,
  }) => {
    await page.clock.install();
    await page.goto("/faq");
    await waitForHydration(page);
    // Hold the page's timers so the faded-out moment before navigating lasts until the test lets it go.
    await pauseClockSoon(page);
    const reseller = mainNav(page).getByRole("link", { name: "Reseller" });
    await reseller.click();
    await expect(page.getByRole("main")).toHaveCSS("opacity", "0");
    await expect(page).toHaveURL(/\/faq$/);
    await page.clock.resume();
    await expect(page).toHaveURL(/\/reseller$/);
    await expect(page.getByRole("heading", { level: 1, name: "Reseller Program" })).toBeVisible();
    await expect(page.getByRole("main")).toHaveCSS("opacity", "1");
    await expect(reseller).toBeFocused();
  });

  test("a link to the current page leaves it as it is: no fade, no reload, same scroll position", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 600 });
    await gotoHydrated(page, "/faq");
    await page.evaluate(() => {
      (window as unknown as { marker: string }).marker = "same document";
      window.scrollTo({ top: document.body.scrollHeight, behavior: "instant" });
    });
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(0);
    await page.getByRole("contentinfo").getByRole("link", { name: "FAQ" }).click();
    // A fade would have begun by the second frame after the click.
    await afterTwoFrames(page);
    await expect(page.getByRole("main")).toHaveCSS("opacity", "1");
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
    await expect(page).toHaveURL(/\/faq$/);
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

  test("#hash links scroll to their target, move focus there and update the hash without a reload", async ({
    page,
  }) => {
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
    await expect(target).toBeFocused();
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe("same document");
  });

  test("the first paint shows at once; a navigation fades the new page in and #hash links glide", async ({ page }) => {
    const recorder = await recordFrames(page);
    await gotoHydrated(page, "/faq");
    const firstPaint = (await recorder.frames()).filter((frame) => frame.opacity !== null);
    expect(firstPaint.length).toBeGreaterThan(0);
    expect(firstPaint.every((frame) => frame.opacity === 1)).toBe(true);

    await slowAnimations(page);
    await mainNav(page).getByRole("link", { name: "Reseller" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Reseller Program" })).toBeVisible();
    await expect(page.getByRole("main")).toHaveCSS("opacity", "1", { timeout: 15_000 });
    const arrival = (await recorder.frames()).filter((frame) => frame.path === "/reseller");
    expect(arrival.some((frame) => isBetween(frame.opacity, 0, 1))).toBe(true);

    await gotoHydrated(page, "/docs?product=vault");
    const link = page.getByRole("navigation", { name: "On this page" }).getByRole("link", { name: "App Crashing" });
    // A smooth scroll starts on the next frame: right after the click the page has not moved yet.
    expect(await scrollYRightAfterClicking(link)).toBe(0);
    await expect(
      page.getByRole("article").filter({ has: page.getByRole("heading", { name: "App Crashing" }) }),
    ).toBeInViewport();
  });

  test("with prefers-reduced-motion pages switch without a fade and scrolling jumps", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.setViewportSize({ width: 1280, height: 600 });
    const recorder = await recordFrames(page);
    await gotoHydrated(page, "/docs");
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(300);
    await recorder.clear();
    await page.getByRole("contentinfo").getByRole("link", { name: "FAQ" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Frequently Asked Questions" })).toBeVisible();
    await expect(page.getByRole("main")).toHaveCSS("opacity", "1");
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await afterTwoFrames(page);
    const frames = await recorder.frames();
    expect(frames.filter((frame) => isBetween(frame.opacity, 0, 1))).toEqual([]);
    expect(frames.filter((frame) => isBetween(frame.scrollY, 0, scrolled))).toEqual([]);

    await gotoHydrated(page, "/docs?product=vault");
    const link = page.getByRole("navigation", { name: "On this page" }).getByRole("link", { name: "App Crashing" });
    expect(await scrollYRightAfterClicking(link)).toBeGreaterThan(0);
    await expect(
      page.getByRole("article").filter({ has: page.getByRole("heading", { name: "App Crashing" }) }),
    ).toBeInViewport();
  });
});

/** How far the page is scrolled once it has stopped moving (no change over five frames). */
const settledScrollY = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let last = window.scrollY;
        let still = 0;
        const check = () => {
          still = window.scrollY === last ? still + 1 : 0;
          last = window.scrollY;
          if (still >= 5) resolve(last);
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
  );

/** Scrolls halfway down at once and reports where the page is. */
const scrollHalfway = (page: Page) =>
  page.evaluate(() => {
    const top = Math.round((document.documentElement.scrollHeight - window.innerHeight) / 2);
    window.scrollTo({ top, behavior: "instant" });
    return window.scrollY;
  });

test.describe("history and scroll positions", () => {
  test("Back and Forward bring each page back to where the visitor had scrolled it", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 600 });
    await gotoHydrated(page, "/docs");
    const onDocs = await scrollHalfway(page);
    expect(onDocs).toBeGreaterThan(300);
    // The top bar stays in view, so clicking it does not scroll the page first.
    await mainNav(page).getByRole("link", { name: "FAQ" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Frequently Asked Questions" })).toBeVisible();
    await expect.poll(() => settledScrollY(page)).toBe(0);
    const onFaq = await scrollHalfway(page);
    expect(onFaq).toBeGreaterThan(100);
    expect(onFaq).not.toBe(onDocs);

    await page.goBack();
    await expect(page).toHaveURL(/\/docs$/);
    await expect(page.getByRole("heading", { level: 1, name: "Documentation" })).toBeVisible();
    await expect.poll(() => settledScrollY(page)).toBe(onDocs);

    await page.goForward();
    await expect(page).toHaveURL(/\/faq$/);
    await expect(page.getByRole("heading", { level: 1, name: "Frequently Asked Questions" })).toBeVisible();
    await expect.poll(() => settledScrollY(page)).toBe(onFaq);
  });

  test("each #hash link followed reaches its target; Back and Forward step through them without a reload", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 600 });
    await gotoHydrated(page, "/docs?product=vault");
    await page.evaluate(() => {
      (window as unknown as { marker: string }).marker = "same document";
    });
    const onThisPage = page.getByRole("navigation", { name: "On this page" });
    const article = (name: string) => page.getByRole("article").filter({ has: page.getByRole("heading", { name }) });

    await onThisPage.getByRole("link", { name: "Features Not Working" }).click();
    await expect(page).toHaveURL(/\/docs\?product=vault#features-not-working$/);
    await expect(article("Features Not Working")).toBeFocused();
    const atFeatures = await settledScrollY(page);
    expect(atFeatures).toBeGreaterThan(0);
    const topOf = (name: string) => article(name).evaluate((el) => Math.round(el.getBoundingClientRect().top));
    const featuresTop = await topOf("Features Not Working");
    // Back to the list of links: where the page is when the next one is followed is where Back returns to.
    const crashingLink = onThisPage.getByRole("link", { name: "App Crashing" });
    await crashingLink.scrollIntoViewIfNeeded();
    const leftAt = await settledScrollY(page);
    await crashingLink.click();
    await expect(page).toHaveURL(/\/docs\?product=vault#app-crashing$/);
    await expect(article("App Crashing")).toBeFocused();
    const atCrashing = await settledScrollY(page);
    expect(atCrashing).toBeGreaterThan(leftAt);
    // The second link's target comes to rest just under the sticky top bar, as the first one's did.
    expect(await topOf("App Crashing")).toBe(featuresTop);

    await page.goBack();
    await expect(page).toHaveURL(/#features-not-working$/);
    await expect.poll(() => settledScrollY(page)).toBe(leftAt);
    await page.goBack();
    await expect(page).toHaveURL(/\/docs\?product=vault$/);
    await expect.poll(() => settledScrollY(page)).toBe(0);
    await page.goForward();
    await page.goForward();
    await expect(page).toHaveURL(/#app-crashing$/);
    await expect.poll(() => settledScrollY(page)).toBe(atCrashing);
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe("same document");
  });
});

test.describe("footer", () => {
  test("has Products, Support, Legal and copyright columns with their links", async ({ page }) => {
    await page.goto("/faq");
    const footer = page.getByRole("contentinfo");
    const column = (name: string) => footer.getByRole("region", { name });

    const products = column("Products").getByRole("link");
    await expect(products).toHaveText(["Utilities", "Creator Tools", "All products"]);
    expect(await products.evaluateAll((els) => els.map((el) => el.getAttribute("href")))).toEqual([
      "/products?category=utilities",
      "/products?category=creator",
      "/products",
    ]);

    const support = column("Support").getByRole("link");
    await expect(support).toHaveText(["FAQ", /^Community/, "Status", "Reviews", "Your orders"]);
    expect(await support.evaluateAll((els) => els.map((el) => el.getAttribute("href")))).toEqual([
      "/faq",
      COMMUNITY_URL,
      "/status",
      "/reviews",
      "/orders",
    ]);
    await expect(column("Support").getByRole("link", { name: /^Community/ })).toHaveAttribute(
      "rel",
      "noopener noreferrer",
    );

    const legal = column("Legal").getByRole("link");
    expect((await legal.evaluateAll((els) => els.map((el) => el.getAttribute("href")))).sort()).toEqual([
      "/dmca",
      "/privacy",
      "/refund",
      "/terms",
    ]);

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
    expect(
      box && viewport && box.x + box.width > viewport.width - 40 && box.y + box.height > viewport.height - 40,
    ).toBe(true);
  });
});
