import { expect, type Locator, type Page, test } from "@playwright/test";
import { axeBuilder } from "../support/axe";
import { gotoHydrated } from "../support/hydration";

/** The product names shown in the catalogue grid, in order. */
function productNames(page: Page) {
  return page.getByRole("main").getByRole("article").getByRole("heading");
}

// The default order: featured products first, then the others, each in the content's order.
const ALL_PRODUCTS = [
  "Kestrel Sandbox",
  "Kestrel Studio",
  "Kestrel Capture Ultimate",
  "Preset Packs",
  "Kestrel Vault",
  "Kestrel Capture",
];

/**
 * Where the first copy of the selling-point cards and its twin (the copy that follows it for a seamless loop) sit on
 * each frame for a while, stamped with each frame's time.
 */
function cardPositions(cards: Locator, { frames, ms }: { frames: number; ms: number }) {
  return cards.evaluate(
    (el, least) =>
      new Promise<Array<{ time: number; x: number; width: number; twinX: number | undefined }>>((resolve) => {
        const positions: Array<{ time: number; x: number; width: number; twinX: number | undefined }> = [];
        const record = (time: number) => {
          const box = el.getBoundingClientRect();
          positions.push({ time, x: box.x, width: box.width, twinX: el.nextElementSibling?.getBoundingClientRect().x });
          const first = positions[0]?.time ?? time;
          if (positions.length < least.frames || time - first < least.ms) requestAnimationFrame(record);
          else resolve(positions);
        };
        requestAnimationFrame(record);
      }),
    { frames, ms },
  );
}

/** Whether the cards move across the screen over a few frames. */
async function isMoving(cards: Locator) {
  const positions = await cardPositions(cards, { frames: 4, ms: 100 });
  return positions.some((p) => p.x !== positions[0]?.x);
}

/**
 * How long the strip takes to travel one copy of the cards (one loop), from how far it moves between frames: frame
 * times are the animation's own clock, so a busy machine drops frames but does not change the figure.
 */
async function loopSeconds(cards: Locator) {
  const positions = await cardPositions(cards, { frames: 10, ms: 500 });
  const first = positions[0];
  const last = positions.at(-1);
  if (!first || !last || last.time === first.time) throw new Error("no frames recorded");
  const pxPerMs = (first.x - last.x) / (last.time - first.time);
  return first.width / pxPerMs / 1000;
}

test.describe("home page", () => {
  test("shows the hero, the View Products button, six selling points and How It Works", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("heading", { level: 1, name: "Kestrel Software" })).toBeVisible();
    await expect(page.getByText("Premium Windows software, licensed your way.").first()).toBeVisible();
    await page.getByRole("link", { name: "View Products" }).click();
    await expect(page).toHaveURL(/\/products$/);
    await page.goto("/");
    const sellingPoints = page.getByRole("region", { name: "Why Kestrel" });
    for (const title of [
      "Secure & Signed",
      "High Performance",
      "24/7 Community",
      "Premium Support",
      "Easy Setup",
      "Top Rated",
    ]) {
      // Drawn twice for the seamless loop, but screen readers get each point once.
      await expect(sellingPoints.getByRole("listitem").filter({ hasText: title })).toHaveCount(1);
    }
    await expect(page.getByRole("heading", { name: "How It Works" })).toBeVisible();
    for (const step of ["Choose your product", "Secure checkout", "Instant delivery", "Enjoy"]) {
      await expect(page.getByRole("heading", { name: step })).toBeVisible();
    }
  });

  test("the selling points loop every 25 s and pause on hover, on focus and with the pause button", async ({
    page,
  }) => {
    await gotoHydrated(page, "/");
    const region = page.getByRole("region", { name: "Why Kestrel" });
    // Screen readers get six points; the seamless loop draws them twice.
    await expect(region.getByRole("listitem")).toHaveCount(6);
    await expect(region.getByText("Top Rated")).toHaveCount(2);
    const cards = region.getByRole("list");
    await page.mouse.move(0, 0);
    await expect.poll(() => isMoving(cards)).toBe(true);
    // One copy of the cards passes every 25 s, leftwards, and its twin follows it without a gap.
    expect(await loopSeconds(cards)).toBeCloseTo(25, 0);
    const [frame] = await cardPositions(cards, { frames: 1, ms: 0 });
    expect(frame?.width).toBeGreaterThan(0);
    expect(frame?.twinX).toBeCloseTo((frame?.x ?? 0) + (frame?.width ?? 0), 0);

    // The cards move, so point at the middle of the strip they scroll through.
    const strip = await cards.locator("../..").boundingBox();
    if (!strip) throw new Error("the marquee is not on screen");
    await page.mouse.move(strip.x + strip.width / 2, strip.y + strip.height / 2);
    await expect.poll(() => isMoving(cards)).toBe(false);
    await page.mouse.move(0, 0);
    await expect.poll(() => isMoving(cards)).toBe(true);

    const pause = region.getByRole("button", { name: "Pause animation" });
    await pause.focus();
    await expect.poll(() => isMoving(cards)).toBe(false);
    await pause.press("Enter");
    await expect(region.getByRole("button", { name: "Play animation" })).toHaveAttribute("aria-pressed", "true");
    await page.getByRole("link", { name: "View Products" }).focus();
    // Paused by the button, the strip stays still with nothing hovered or focused.
    await expect.poll(() => isMoving(cards)).toBe(false);
    expect(await isMoving(cards)).toBe(false);
  });

  test("the selling points stand still for reduced motion, each shown once", async ({ page }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await gotoHydrated(page, "/");
    const region = page.getByRole("region", { name: "Why Kestrel" });
    await expect.poll(() => isMoving(region.getByRole("list"))).toBe(false);
    for (const title of [
      "Secure & Signed",
      "High Performance",
      "24/7 Community",
      "Premium Support",
      "Easy Setup",
      "Top Rated",
    ]) {
      await expect(region.getByText(title).filter({ visible: true })).toHaveCount(1);
    }
    // Nothing moves, so there is nothing to pause.
    await expect(region.getByRole("button", { name: "Pause animation" })).toBeHidden();
  });

  test("the four product tiles link to their products", async ({ page }) => {
    await page.goto("/");
    const tiles = page.getByRole("region", { name: "Popular products" });
    const expected: Array<[string, string]> = [
      ["Kestrel Sandbox", "/product/446891"],
      ["Kestrel Capture Ultimate", "/product/447089"],
      ["Kestrel Studio", "/product/446894"],
      ["Preset Packs", "/product/447097"],
    ];
    await expect(tiles.getByRole("listitem")).toHaveCount(4);
    for (const [name, href] of expected) {
      await expect(tiles.getByRole("link", { name: new RegExp(`^${name}`) })).toHaveAttribute("href", href);
    }
    await tiles.getByRole("link", { name: /^Kestrel Studio/ }).click();
    await expect(page).toHaveURL(/\/product\/446894$/);
    await expect(page.getByRole("heading", { level: 1, name: "Kestrel Studio" })).toBeVisible();
  });

  test("the video player loads only after the play button is clicked", async ({ page }) => {
    const playerRequests: string[] = [];
    // Never leave the machine: answer the player's request locally and record that it happened.
    await page.route("https://www.youtube-nocookie.com/**", (route) => {
      playerRequests.push(route.request().url());
      return route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>player</title>" });
    });
    await gotoHydrated(page, "/");
    await expect(page.locator("iframe")).toHaveCount(0);
    expect(playerRequests).toEqual([]);
    await page.getByRole("button", { name: /^Play video/ }).click();
    const player = page.locator("iframe");
    await expect(player).toHaveCount(1);
    await expect(player).toHaveAttribute("src", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1");
    await expect(player).toHaveAttribute("title", "Kestrel Software in 90 seconds");
    await expect.poll(() => playerRequests.length).toBeGreaterThan(0);
  });
});

test.describe("catalogue", () => {
  test("lists every product with badges, features, prices and a Purchase button", async ({ page }) => {
    await page.goto("/products");
    await expect(page.getByRole("heading", { level: 1, name: "Products" })).toBeVisible();
    await expect(productNames(page)).toHaveText(ALL_PRODUCTS);
    const studio = page.getByRole("article").filter({ has: page.getByRole("heading", { name: "Kestrel Studio" }) });
    await expect(studio.getByText("Premium")).toBeVisible();
    await expect(studio.getByText("Multi-track timeline")).toBeVisible();
    await expect(studio.getByText("$39.99")).toBeVisible();
    await expect(studio.locator("s")).toHaveText(/\$59\.99/);
    await studio.getByRole("link", { name: /^Purchase/ }).click();
    await expect(page).toHaveURL(/\/product\/446894$/);
  });

  test("clicking anywhere on a card opens the product", async ({ page }) => {
    await page.goto("/products");
    const vault = page.getByRole("article").filter({ hasText: "Kestrel Vault" });
    const features = await vault.getByText("Secure file shredding").boundingBox();
    const card = await vault.boundingBox();
    if (!features || !card) throw new Error("the Vault card is not on screen");
    // Click the features text, which is neither the name nor the button.
    await vault.click({ position: { x: features.x - card.x + 40, y: features.y - card.y + features.height / 2 } });
    await expect(page).toHaveURL(/\/product\/446889$/);
  });

  test('searching "studio" ranks Kestrel Studio (a name match) before Preset Packs (its description) and puts the search in the URL', async ({
    page,
  }) => {
    await gotoHydrated(page, "/products");
    const search = page.getByPlaceholder("Search products...");
    await expect(async () => {
      await search.fill("STUDIO");
      await expect(page).toHaveURL(/\?q=STUDIO$/, { timeout: 2_000 });
    }).toPass();
    await expect(productNames(page)).toHaveText(["Kestrel Studio", "Preset Packs"]);
    await expect(page.getByRole("status")).toHaveText("Showing 2 of 6 products");
  });

  test("a category checkbox filters the grid", async ({ page }) => {
    await gotoHydrated(page, "/products");
    await page.getByText("Filters", { exact: true }).click();
    const utilities = page.getByRole("checkbox", { name: "Utilities" });
    await expect(async () => {
      await utilities.check();
      await expect(page).toHaveURL(/\?category=utilities$/, { timeout: 2_000 });
    }).toPass();
    await expect(productNames(page)).toHaveText(["Kestrel Sandbox", "Kestrel Vault"]);
    await page.getByRole("checkbox", { name: "Creator Tools" }).check();
    await expect(page).toHaveURL(/\?category=utilities&category=creator$/);
    await expect(productNames(page)).toHaveText(ALL_PRODUCTS);
  });

  test("the Filters dropdown closes on Escape (focus back on Filters) and on a click outside", async ({ page }) => {
    await gotoHydrated(page, "/products");
    const filters = page.getByText("Filters", { exact: true });
    const utilities = page.getByRole("checkbox", { name: "Utilities" });
    await filters.click();
    await expect(utilities).toBeVisible();
    await utilities.focus();
    await page.keyboard.press("Escape");
    await expect(utilities).toBeHidden();
    // The Filters disclosure's own summary (the footer's language menu has one too).
    await expect(page.locator("summary").filter({ hasText: "Filters" })).toBeFocused();
    await filters.click();
    await expect(utilities).toBeVisible();
    await page.getByRole("heading", { level: 1, name: "Products" }).click();
    await expect(utilities).toBeHidden();
  });

  test("?category=creator pre-selects the Creator Tools filter", async ({ page }) => {
    await page.goto("/products?category=creator");
    await page.getByText("Filters", { exact: true }).click();
    await expect(page.getByRole("checkbox", { name: "Creator Tools" })).toBeChecked();
    await expect(page.getByRole("checkbox", { name: "Utilities" })).not.toBeChecked();
    await expect(productNames(page)).toHaveText([
      "Kestrel Studio",
      "Kestrel Capture Ultimate",
      "Preset Packs",
      "Kestrel Capture",
    ]);
  });

  test("the footer's category link updates the filters when already on the catalogue", async ({ page }) => {
    await gotoHydrated(page, "/products?q=kestrel");
    await page.getByRole("contentinfo").getByRole("link", { name: "Utilities" }).click();
    await expect(page).toHaveURL(/\/products\?category=utilities$/);
    await expect(page.getByPlaceholder("Search products...")).toHaveValue("");
    await expect(productNames(page)).toHaveText(["Kestrel Sandbox", "Kestrel Vault"]);
  });

  test("min and max price bounds are inclusive on the base price", async ({ page }) => {
    await gotoHydrated(page, "/products");
    await page.getByText("Filters", { exact: true }).click();
    await expect(async () => {
      await page.getByLabel("Min price").fill("4.99");
      await expect(page).toHaveURL(/\?min=4\.99$/, { timeout: 2_000 });
    }).toPass();
    await page.getByLabel("Max price").fill("6.99");
    await expect(page).toHaveURL(/\?min=4\.99&max=6\.99$/);
    await expect(productNames(page)).toHaveText(["Kestrel Sandbox", "Kestrel Capture Ultimate", "Kestrel Capture"]);
    await page.goto("/products?min=39.99");
    await expect(productNames(page)).toHaveText(["Kestrel Studio"]);
  });

  test('shows "No products found matching your criteria." when nothing matches', async ({ page }) => {
    await page.goto("/products?q=does-not-exist");
    await expect(page.getByText("No products found matching your criteria.")).toBeVisible();
    await expect(page.getByRole("article")).toHaveCount(0);
    await page.goto("/products?min=500");
    await expect(page.getByText("No products found matching your criteria.")).toBeVisible();
  });

  test("ignores empty and invalid price bounds", async ({ page }) => {
    await page.goto("/products?q=&min=&max=abc");
    await expect(productNames(page)).toHaveText(ALL_PRODUCTS);
  });
});

test.describe("catalogue without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("search submits as a GET form", async ({ page }) => {
    await page.goto("/products");
    await page.getByPlaceholder("Search products...").fill("capture");
    await page.getByPlaceholder("Search products...").press("Enter");
    await expect(page).toHaveURL(/\/products\?q=capture/);
    await expect(productNames(page)).toHaveText(["Kestrel Capture", "Kestrel Capture Ultimate"]);
  });

  test("the Filters disclosure opens and Apply submits categories and prices", async ({ page }) => {
    await page.goto("/products");
    await page.getByText("Filters", { exact: true }).click();
    await page.getByRole("checkbox", { name: "Creator Tools" }).check();
    await page.getByLabel("Max price").fill("4.99");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/category=creator/);
    await expect(productNames(page)).toHaveText(["Kestrel Capture Ultimate", "Preset Packs", "Kestrel Capture"]);
    await page.getByText("Filters", { exact: true }).click();
    await expect(page.getByRole("checkbox", { name: "Creator Tools" })).toBeChecked();
    await expect(page.getByLabel("Max price")).toHaveValue("4.99");
  });

  test("the product page's duration choice updates the Total", async ({ page }) => {
    await page.goto("/product/446894");
    await page.getByRole("radio", { name: /Lifetime/ }).check();
    await page.getByRole("button", { name: "Update total" }).click();
    // Kestrel Studio sells several keys (for its volume discount): the form carries the quantity too.
    await expect(page).toHaveURL(/\/product\/446894\?duration=lifetime&quantity=1$/);
    await expect(page.getByRole("status", { name: "Total" })).toHaveText("$299.93");
  });
});

test.describe("product page", () => {
  test("shows gallery, compatibility, community link, description, durations, total and features", async ({ page }) => {
    await page.goto("/product/446894");
    await expect(page.getByRole("heading", { level: 1, name: "Kestrel Studio" })).toBeVisible();
    await expect(page.getByText("A complete editing suite for creators")).toBeVisible();
    await expect(page.getByRole("img", { name: "Kestrel Studio main window" })).toBeVisible();
    await expect(page.getByRole("button", { name: /Show image 2 of 2/ })).toBeVisible();
    const compatibility = page.getByRole("list", { name: "Compatibility" });
    await expect(compatibility.getByRole("listitem")).toHaveText(["Windows 10", "Windows 11"]);
    const community = page.getByRole("main").getByRole("link", { name: /Community/ });
    await expect(community).toHaveAttribute("href", "https://chat.example.com/kestrel");
    await expect(community).toHaveAttribute("target", "_blank");
    await expect(community).toHaveAttribute("rel", "noopener noreferrer");
    await expect(page.getByRole("group", { name: "Select Duration" }).getByRole("radio")).toHaveCount(3);
    await expect(page.getByRole("radio", { name: "1 Week $39.99" })).toBeChecked();
    await expect(page.getByRole("radio", { name: "1 Month $89.99" })).toBeVisible();
    await expect(page.getByRole("radio", { name: "Lifetime $299.93" })).toBeVisible();
    await expect(page.getByText("Total", { exact: true })).toBeVisible();
    await expect(page.getByText("Purchase Now")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Features" })).toBeVisible();
    await expect(page.getByText("Fast GPU exports")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Reviews" })).toBeVisible();
  });

  test("changing the duration updates the Total (Studio: 1 Week $39.99 → Lifetime $299.93)", async ({ page }) => {
    await gotoHydrated(page, "/product/446894");
    const total = page.getByRole("status", { name: "Total" });
    await expect(total).toHaveText("$39.99");
    await page.getByRole("radio", { name: /Lifetime/ }).click();
    await expect(page.getByRole("radio", { name: /Lifetime/ })).toBeChecked();
    await expect(total).toHaveText("$299.93");
    // The choice is kept in the URL so a reload or a shared link keeps it.
    await expect(page).toHaveURL(/\?duration=lifetime$/);
    await page.reload();
    await expect(page.getByRole("radio", { name: /Lifetime/ })).toBeChecked();
    await expect(total).toHaveText("$299.93");
  });

  test("arrow keys move the selected duration", async ({ page }) => {
    await gotoHydrated(page, "/product/446894");
    const total = page.getByRole("status", { name: "Total" });
    await page.getByRole("radio", { name: /1 Week/ }).focus();
    await page.keyboard.press("ArrowDown");
    await expect(page.getByRole("radio", { name: /1 Month/ })).toBeChecked();
    await expect(page.getByRole("radio", { name: /1 Month/ })).toBeFocused();
    await expect(total).toHaveText("$89.99");
    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("radio", { name: /Lifetime/ })).toBeChecked();
    await expect(total).toHaveText("$299.93");
    await page.keyboard.press("ArrowUp");
    await expect(page.getByRole("radio", { name: /1 Month/ })).toBeChecked();
  });

  test("gallery thumbnails switch the large image from the keyboard", async ({ page }) => {
    await gotoHydrated(page, "/product/446889");
    await page.getByRole("button", { name: /Show image 1 of 2/ }).focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("button", { name: /Show image 2 of 2/ })).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByRole("img", { name: "Kestrel Vault settings view" })).toBeVisible();
  });

  test("?duration= selects that duration on load", async ({ page }) => {
    await page.goto("/product/446889?duration=lifetime");
    await expect(page.getByRole("radio", { name: "Lifetime $29.99" })).toBeChecked();
    await expect(page.getByRole("status", { name: "Total" })).toHaveText("$29.99");
  });

  for (const path of ["/product/999999", "/product/not-a-number"]) {
    test(`${path} shows "Product not found" with HTTP 404`, async ({ page }) => {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await expect(page.getByRole("heading", { name: "Product not found" })).toBeVisible();
      await expect(page.getByText("The product you're looking for doesn't exist.")).toBeVisible();
    });
  }

  test("ends with the other products of its category, as cards linking to their pages", async ({ page }) => {
    await page.goto("/product/446889");
    await expect(page.getByRole("region", { name: "More utilities" }).getByRole("link")).toHaveText([
      "Kestrel SandboxFrom $6.99",
    ]);
    await page.goto("/product/446894");
    const more = page.getByRole("region", { name: "More creator tools" });
    await expect(more.getByRole("link")).toHaveText([
      /^Kestrel Capture Ultimate/,
      /^Preset Packs/,
      /^Kestrel CaptureFrom/,
    ]);
    await more.getByRole("link", { name: /^Preset Packs/ }).click();
    await expect(page).toHaveURL(/\/product\/447097$/);
    await expect(page.getByRole("heading", { level: 1, name: "Preset Packs" })).toBeVisible();
  });

  test("/vault answers 301 to /product/446889", async ({ request }) => {
    const response = await request.get("/vault", { maxRedirects: 0 });
    expect(response.status()).toBe(301);
    expect(response.headers().location).toBe("/product/446889");
  });

  test("sets a title, canonical link and og:image per product", async ({ page, baseURL }) => {
    await page.goto("/product/446894");
    await expect(page).toHaveTitle("Kestrel Studio | Kestrel Software");
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", `${baseURL}/product/446894`);
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
      "content",
      `${baseURL}/images/products/studio-card.svg`,
    );
  });
});

test.describe("catalogue accessibility", () => {
  for (const path of ["/", "/products", "/product/446894"]) {
    test(`axe finds no violations on ${path}`, async ({ page }) => {
      // A full axe run takes several seconds on a busy machine.
      test.setTimeout(90_000);
      await gotoHydrated(page, path);
      const results = await axeBuilder(page).analyze();
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual(
        [],
      );
    });
  }
});
