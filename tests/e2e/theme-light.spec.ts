import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect as baseExpect, type Page } from "@playwright/test";
import { axeBuilder, WCAG_TAGS } from "../support/axe";

import { type AppServer, startAppServer } from "../support/app-server";
import { gotoHydrated } from "../support/hydration";
import { declareRouteSweep, test } from "../support/route-visit";
import { routeVisits } from "../support/route-sweep";
import { openChat } from "../support/support-chat";

/**
 * The light theme of docs/theming.md (white background, its own logo and font) on the same build as every other spec:
 * a restart with another content/theme.json restyles every page, and every page stays readable and fits a phone.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const LIGHT = JSON.parse(fs.readFileSync(path.join(ROOT, "docs/themes/light.theme.json"), "utf8"));

// Proof of work, hydration and axe compete for two CPUs with the rest of the suite: wait generously.
const expect = baseExpect.configure({ timeout: 15_000 });

/** A copy of content/ wearing the light theme, with its brand files beside it. */
function lightContentDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kestrel-light-theme-"));
  fs.cpSync(path.join(ROOT, "content"), dir, { recursive: true });
  fs.copyFileSync(path.join(ROOT, "docs/themes/light.theme.json"), path.join(dir, "theme.json"));
  fs.cpSync(path.join(ROOT, "docs/themes/brand"), path.join(dir, "brand"), { recursive: true });
  return dir;
}

async function axeViolations(page: Page) {
  const results = await axeBuilder(page).withTags(WCAG_TAGS).analyze();
  return results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
  );
}

test.describe("the light theme", () => {
  test.describe.configure({ timeout: 150_000 });
  let app: AppServer;
  let contentDir: string;

  test.beforeAll(async () => {
    contentDir = lightContentDir();
    app = await startAppServer({ env: { CONTENT_DIR: contentDir } });
  });
  test.afterAll(async () => {
    await app?.stop();
    fs.rmSync(contentDir, { recursive: true, force: true });
  });

  // Each page once, as the shared server's routes are (route-sweep.spec.ts): axe, and a phone's width in both motions.
  declareRouteSweep(routeVisits("light-theme"), { origin: () => app.url });

  test("the page's background, text and Purchase Now button take the theme's colours", async ({ page }) => {
    await page.goto(`${app.url}/product/446894?duration=lifetime`);
    const body = await page.evaluate(() => {
      const style = getComputedStyle(document.body);
      return {
        background: style.backgroundColor,
        color: style.color,
        scheme: getComputedStyle(document.documentElement).colorScheme,
      };
    });
    expect(body).toEqual({ background: "rgb(255, 255, 255)", color: "rgb(15, 23, 42)", scheme: "light" });
    const purchase = page.getByRole("button", { name: "Purchase Now" });
    await expect(purchase).toHaveCSS("background-color", "rgb(3, 105, 161)");
    await expect(purchase).toHaveCSS("color", "rgb(255, 255, 255)");
    expect(LIGHT.colors).toMatchObject({
      background: "#ffffff",
      text: "#0f172a",
      accent: "#0369a1",
      accentText: "#ffffff",
    });
    await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute("content", "#ffffff");
  });

  test("the theme's logo is the header's mark and the favicon, and its font is served by the shop, cached for good", async ({
    page,
    request,
  }) => {
    await page.goto(`${app.url}/faq`);
    const mark = page.getByRole("banner").getByRole("link", { name: "Kestrel Software" }).locator("img");
    const src = (await mark.getAttribute("src")) ?? "";
    expect(src).toMatch(/^\/brand\/logo-[\w-]{10}\.svg$/);
    await expect(page.locator('link[rel="icon"]')).toHaveAttribute("href", src);
    expect(await mark.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const logo = await request.get(`${app.url}${src}`);
    expect(logo.status()).toBe(200);
    expect(logo.headers()["content-type"]).toBe("image/svg+xml");
    expect(logo.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(await logo.text()).toBe(fs.readFileSync(path.join(ROOT, "docs/themes/brand/logo.svg"), "utf8"));
    // A page without a picture of its own is shared with the logo.
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
      "content",
      `${app.url.replace("127.0.0.1", "localhost")}${src}`,
    );

    const font = page.locator('link[rel="preload"][as="font"]');
    const fontHref = (await font.getAttribute("href")) ?? "";
    expect(fontHref).toMatch(/^\/brand\/inter-var-[\w-]{10}\.woff2$/);
    const fontResponse = await request.get(`${app.url}${fontHref}`);
    expect(fontResponse.headers()["content-type"]).toBe("font/woff2");
    expect(fontResponse.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(
      (await fontResponse.body()).equals(fs.readFileSync(path.join(ROOT, "docs/themes/brand/inter-var.woff2"))),
    ).toBe(true);
    expect(await page.locator("#site-css").textContent()).toContain(
      `@font-face{font-family:"Inter";src:url(${fontHref})`,
    );
    expect((await request.get(`${app.url}/brand/logo.svg`)).status()).toBe(404);
  });

  test("the open support chat is readable (axe-core)", async ({ page }) => {
    await gotoHydrated(page, `${app.url}/faq`);
    const panel = await openChat(page);
    await expect(panel.getByRole("textbox")).toBeVisible();
    expect(await axeViolations(page)).toEqual([]);
  });

  test("the open checkout dialog is readable (axe-core)", async ({ page }) => {
    await page.goto(`${app.url}/product/446894?duration=lifetime`);
    const purchase = page.getByRole("button", { name: "Purchase Now" });
    await expect(purchase).toHaveAttribute("data-captcha", "ready", { timeout: 30_000 });
    await purchase.click();
    await expect(page.getByRole("dialog", { name: "Checkout: Kestrel Studio (Lifetime)" })).toBeVisible();
    const frame = page.frameLocator('iframe[title^="Secure checkout"]');
    await expect(frame.getByRole("button", { name: "Pay", exact: true })).toBeVisible();
    await expect(frame.getByRole("button", { name: "Pay", exact: true })).toHaveCSS(
      "background-color",
      "rgb(3, 105, 161)",
    );
    expect(await axeViolations(page)).toEqual([]);
  });
});

// Every page of the shipped theme at 360 px, in both motions: route-sweep.spec.ts.
test.describe("the shipped theme at 360 px", () => {
  test("with reduced motion the home page's selling points stand still and wrap within the screen", async ({
    page,
  }) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto("/");
    const list = page.getByRole("region", { name: "Why Kestrel" }).getByRole("list");
    await expect(list).toHaveCount(1);
    const box = await list.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 360).toBe(true);
    for (const item of await list.getByRole("listitem").all()) {
      const itemBox = await item.boundingBox();
      expect(itemBox && itemBox.x >= 0 && itemBox.x + itemBox.width <= 360).toBe(true);
    }
  });
});

test.describe("a theme that would be hard to read", () => {
  test.describe.configure({ timeout: 120_000 });
  test("stops the server and content:check with one line per refused pair", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kestrel-unreadable-theme-"));
    fs.cpSync(path.join(ROOT, "content"), dir, { recursive: true });
    const theme = JSON.parse(fs.readFileSync(path.join(dir, "theme.json"), "utf8"));
    theme.colors.mutedText = "#6f7a8b";
    fs.writeFileSync(path.join(dir, "theme.json"), JSON.stringify(theme));
    const env = { ...process.env, CONTENT_DIR: dir, DATA_DIR: path.join(dir, "data"), PORT: "0", HOST: "127.0.0.1" };
    const refused = "theme.json: mutedText #6f7a8b on surface #0f172a has contrast 4.1:1, needs 4.5:1";
    const boot = spawnSync(process.execPath, ["server.ts"], {
      cwd: ROOT,
      env: { ...env, NODE_ENV: "production" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(boot.status).not.toBe(0);
    expect(boot.stdout + boot.stderr).toContain(refused);
    const check = spawnSync(
      path.join(ROOT, "node_modules/.bin/tsx"),
      ["--import", "./scripts/lib/lingui-macros.register.mjs", "scripts/validate-content.ts"],
      { cwd: ROOT, env, encoding: "utf8", timeout: 60_000 },
    );
    expect(check.status).toBe(1);
    expect(check.stderr.split("\n")).toContain(refused);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
