import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, expect as baseExpect, type Page } from "@playwright/test";
import { axeBuilder } from "../support/axe";
import type { Challenge } from "altcha-lib";
import { SHOP_COUPON_REFUSAL, type ShopEmulator } from "../fakes/shop-emulator";
import { type AppServer, startAppServer } from "../support/app-server";
import { type ShopConnectedApp, startShopConnectedApp } from "../support/shop-connected-app";
import { solveCaptchaPayload } from "../support/captcha-solver";
import { pauseClockSoon } from "../support/hydration";
import { clientAddress, test } from "../support/own-client-address";

const STUDIO = { id: 446894, lifetimeVariant: 653023 };
const CAPTURE = { id: 446893, weekVariant: 653010 };

// Proof of work, hydration and the checkout frame compete for two CPUs with the rest of the suite: wait generously.
const expect = baseExpect.configure({ timeout: 15_000 });

/** Opens a product page and waits until the hidden captcha has solved its challenge. */
async function openProduct(page: Page, path = `/product/${STUDIO.id}?duration=lifetime`) {
  await page.goto(path);
  const button = page.getByRole("button", { name: "Purchase Now" });
  await expect(button).toHaveAttribute("data-captcha", "ready", { timeout: 30_000 });
  return button;
}

/** Runs `action` and returns the text of the alert that follows; the alert is accepted as it opens (it blocks the page). */
async function alertAfter(page: Page, action: () => Promise<void>): Promise<string> {
  const text = new Promise<string>((resolve) => {
    page.once("dialog", async (dialog) => {
      resolve(dialog.message());
      await dialog.accept();
    });
  });
  await action();
  return text;
}

function countCheckoutRequests(page: Page) {
  const counter = { posts: 0 };
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === "/api/checkout") counter.posts += 1;
  });
  return counter;
}

test.describe.configure({ timeout: 60_000 });

/** The address the demo checkout delivers its key to. */
const BUYER_EMAIL = "buyer@example.com";
const checkoutFrame = (page: Page) => page.frameLocator('iframe[title^="Secure checkout"]');

test.describe("checkout with the demo shop", () => {
  test("buys Kestrel Studio Lifetime from the product page to Completed", async ({ page }) => {
    const purchase = await openProduct(page);
    await purchase.click();
    const dialog = page.getByRole("dialog", { name: "Checkout: Kestrel Studio (Lifetime)" });
    await expect(dialog).toBeVisible();
    const frame = checkoutFrame(page);
    await expect(frame.getByText("Kestrel Studio")).toBeVisible();
    await expect(frame.getByText("Lifetime")).toBeVisible();
    await expect(frame.getByText("$299.93")).toBeVisible();
    await frame.getByRole("textbox", { name: "Email address" }).fill(BUYER_EMAIL);
    await frame.getByRole("button", { name: "Pay", exact: true }).click();

    // Pay stays in the frame, as a real shop's does: the product page notices the paid order by watching it.
    await expect(page).toHaveURL(/\/purchase\/success\?order_id=[0-9a-f-]{36}$/);
    const orderId = new URL(page.url()).searchParams.get("order_id") ?? "";
    await expect(page.getByRole("heading", { name: "Thank you for your purchase!" })).toBeVisible();
    await expect(page.getByText("Your Kestrel Studio licence is on its way")).toBeVisible();
    await expect(page.getByText("Completed", { exact: true })).toBeVisible();
    await expect(page.getByText(orderId)).toBeVisible();
    await expect(page.getByRole("link", { name: "Continue Shopping" })).toHaveAttribute("href", "/products");
    await expect(page.getByRole("link", { name: "Go to Downloads" })).toHaveAttribute("href", "/downloads");
  });

  test("every demo duration can be bought end to end", async ({ request }) => {
    const products = JSON.parse(
      fs.readFileSync(path.resolve(import.meta.dirname, "../../content/products.json"), "utf8"),
    ) as Array<{
      id: number;
      durations: Array<{ variantId: number | null }>;
    }>;
    for (const product of products) {
      for (const duration of product.durations) {
        if (duration.variantId === null) continue;
        const orderId = await buyThroughApi(request, product.id, duration.variantId);
        expect(await (await request.get(`/api/orders/${orderId}`)).json()).toEqual({
          id: orderId,
          status: "completed",
        });
      }
    }
  });

  test("a valid coupon: the demo shop's page shows the discounted total, and the order records it", async ({
    page,
    request,
  }) => {
    const purchase = await openProduct(page);
    const coupon = page.getByRole("textbox", { name: "Coupon code" });
    await expect(coupon).toBeHidden();
    await page.getByText("Have a coupon?").click();
    await coupon.fill("WELCOME10");
    const axe = await axeBuilder(page).analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);
    const started = page.waitForResponse((r) => r.url().endsWith("/api/checkout") && r.request().method() === "POST");
    await purchase.click();
    const { orderId } = (await (await started).json()) as { orderId: string };
    const frame = checkoutFrame(page);
    // $299.93 less 10% = $269.937, half-up.
    await expect(frame.getByText("WELCOME10")).toBeVisible();
    await expect(frame.getByText("$299.93")).toBeVisible();
    await expect(frame.getByText("$269.94")).toBeVisible();
    await frame.getByRole("textbox", { name: "Email address" }).fill(BUYER_EMAIL);
    await frame.getByRole("button", { name: "Pay", exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/purchase/success\\?order_id=${orderId}$`));
    expect(await (await request.get(`/api/orders/${orderId}`)).json()).toEqual({ id: orderId, status: "completed" });
  });

  test('an unknown or expired coupon: "This coupon code is not valid." and no checkout opens', async ({ page }) => {
    const purchase = await openProduct(page, `/product/${STUDIO.id}?duration=lifetime&coupon=SPRING2024`);
    // A code that came with the link opens the field with it filled in.
    await expect(page.getByRole("textbox", { name: "Coupon code" })).toHaveValue("SPRING2024");
    expect(await alertAfter(page, () => purchase.click())).toBe("This coupon code is not valid.");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Purchase Now" })).toHaveAttribute("data-captcha", "ready", {
      timeout: 30_000,
    });
    await page.getByRole("textbox", { name: "Coupon code" }).fill("NOPE");
    expect(await alertAfter(page, () => purchase.click())).toBe("This coupon code is not valid.");
  });

  test('a malformed address: "Enter a valid email address, like name@example.com." and the invoice stays unpaid', async ({
    page,
    request,
  }) => {
    const purchase = await openProduct(page);
    const started = page.waitForResponse((r) => r.url().endsWith("/api/checkout") && r.request().method() === "POST");
    await purchase.click();
    const { url, orderId } = (await (await started).json()) as { url: string; orderId: string };
    // What a browser's own check would stop, sent as it is: the server answers the page again, never a 500.
    const answer = await request.post(url, { form: { email: "not an address" }, maxRedirects: 0 });
    expect(answer.status()).toBe(400);
    expect(await answer.text()).toContain("Enter a valid email address, like name@example.com.");
    expect(await (await request.get(`/api/orders/${orderId}`)).json()).toEqual({ id: orderId, status: "pending" });
    const frame = checkoutFrame(page);
    await expect(frame.getByRole("textbox", { name: "Email address" })).toHaveAttribute("type", "email");
    await expect(frame.getByRole("textbox", { name: "Email address" })).toHaveAttribute("autocomplete", "email");
  });

  test("Cancel in the checkout goes back to the product page", async ({ page }) => {
    await (await openProduct(page)).click();
    await checkoutFrame(page).getByRole("button", { name: "Cancel" }).click();
    await expect(page).toHaveURL(new RegExp(`/product/${STUDIO.id}\\??$`));
    await expect(page.getByRole("heading", { level: 1, name: "Kestrel Studio" })).toBeVisible();
  });

  test("the modal closes by its close button, a backdrop click and Escape, returning focus to Purchase Now", async ({
    page,
  }) => {
    const purchase = await openProduct(page);
    const dialog = page.getByRole("dialog");
    const closers: Array<[string, () => Promise<void>]> = [
      ["close button", () => dialog.getByRole("button", { name: "Close checkout" }).click()],
      ["backdrop", () => page.mouse.click(5, 5)],
      ["Escape", () => page.keyboard.press("Escape")],
    ];
    for (const [how, close] of closers) {
      await expect(purchase, `captcha ready before closing by ${how}`).toHaveAttribute("data-captcha", "ready", {
        timeout: 30_000,
      });
      await purchase.click();
      await expect(dialog).toBeVisible();
      await expect(checkoutFrame(page).getByRole("button", { name: "Pay", exact: true })).toBeVisible();
      await close();
      await expect(dialog, `closed by ${how}`).toBeHidden();
      await expect(purchase).toBeFocused();
    }
  });

  test("opening the checkout scrolls the page to the top", async ({ page }) => {
    const purchase = await openProduct(page);
    await purchase.scrollIntoViewIfNeeded();
    await page.evaluate(() => window.scrollBy(0, 200));
    await purchase.click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test("a double click sends one checkout request", async ({ page }) => {
    const counter = countCheckoutRequests(page);
    const purchase = await openProduct(page);
    await purchase.dblclick();
    await expect(page.getByRole("dialog")).toBeVisible();
    await expect(checkoutFrame(page).getByRole("button", { name: "Pay", exact: true })).toBeVisible();
    expect(counter.posts).toBe(1);
  });

  test("the button shows loading (disabled, busy) while the checkout starts", async ({ page }) => {
    const purchase = await openProduct(page);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/checkout", async (route) => {
      await held;
      await route.continue();
    });
    await purchase.click();
    const busy = page.getByRole("button", { name: "Processing..." });
    await expect(busy).toBeDisabled();
    await expect(busy).toHaveAttribute("aria-busy", "true");
    release();
    await expect(page.getByRole("dialog")).toBeVisible();
  });

  test("a keyboard-only buyer can pay", async ({ page }) => {
    await openProduct(page);
    await page.getByRole("radio", { name: /Lifetime/ }).focus();
    // From the duration picker, Tab reaches Purchase Now.
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press("Tab");
      if (await page.getByRole("button", { name: "Purchase Now" }).evaluate((el) => el === document.activeElement))
        break;
    }
    await expect(page.getByRole("button", { name: "Purchase Now" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("dialog")).toBeVisible();
    const pay = checkoutFrame(page).getByRole("button", { name: "Pay", exact: true });
    await expect(pay).toBeVisible();
    const email = checkoutFrame(page).getByRole("textbox", { name: "Email address" });
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press("Tab");
      // The address is typed on the way, as a keyboard user does.
      if (await email.evaluate((el) => el === document.activeElement && el.ownerDocument.hasFocus()))
        await page.keyboard.type(BUYER_EMAIL);
      if (await pay.evaluate((el) => el === document.activeElement && el.ownerDocument.hasFocus())) break;
    }
    await expect(pay).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "Thank you for your purchase!" })).toBeVisible();
  });

  test("the open checkout modal (and the demo checkout inside it) has no axe violations and no CSP violation", async ({
    page,
  }) => {
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content[- ]Security[- ]Policy/i.test(message.text())) violations.push(message.text());
    });
    await (await openProduct(page)).click();
    await expect(checkoutFrame(page).getByRole("button", { name: "Pay", exact: true })).toBeVisible();
    const results = await axeBuilder(page).include('[role="dialog"]').analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
    expect(violations).toEqual([]);
  });

  test("the demo checkout page alone has no axe violations", async ({ page, request }) => {
    const challenge = (await (await request.get("/api/checkout/challenge")).json()) as Challenge;
    const started = await request.post("/api/checkout", {
      data: { productId: STUDIO.id, variantId: STUDIO.lifetimeVariant, altcha: await solveCaptchaPayload(challenge) },
    });
    const { url } = (await started.json()) as { url: string };
    const response = await page.goto(url);
    expect(response?.headers()["x-frame-options"]).toBe("SAMEORIGIN");
    expect(response?.headers()["content-security-policy"]).toContain("frame-ancestors 'self'");
    const results = await axeBuilder(page).analyze();
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });

  test('says "Captcha not ready. Please try again in a moment." and sends nothing before the captcha is solved, then recovers', async ({
    page,
  }) => {
    await page.route("**/api/checkout/challenge", (route) => route.abort());
    const counter = countCheckoutRequests(page);
    // The widget asks for its challenge only once the page has hydrated, so the click below reaches React.
    const challengeFailed = page.waitForEvent("requestfailed", (request) =>
      request.url().endsWith("/api/checkout/challenge"),
    );
    await page.goto(`/product/${STUDIO.id}`);
    await challengeFailed;
    const purchase = page.getByRole("button", { name: "Purchase Now" });
    await expect(purchase).toHaveAttribute("data-captcha", "solving");
    await page.unroute("**/api/checkout/challenge");
    expect(await alertAfter(page, () => purchase.click())).toBe("Captcha not ready. Please try again in a moment.");
    expect(counter.posts).toBe(0);
    // The failed challenge is fetched again after the alert, so the next click works.
    await expect(purchase).toHaveAttribute("data-captcha", "ready", { timeout: 30_000 });
    await purchase.click();
    await expect(page.getByRole("dialog")).toBeVisible();
    expect(counter.posts).toBe(1);
  });

  test('says "An error occurred during checkout" when the answer cannot be read, then is ready again', async ({
    page,
  }) => {
    const purchase = await openProduct(page);
    await page.route("**/api/checkout", (route) =>
      route.fulfill({ status: 502, contentType: "text/html", body: "<html>Bad gateway</html>" }),
    );
    expect(await alertAfter(page, () => purchase.click())).toBe("An error occurred during checkout");
    await expect(page.getByRole("button", { name: "Purchase Now" })).toBeEnabled();
    // A fresh captcha is solved for the next attempt.
    await expect(purchase).toHaveAttribute("data-captcha", "ready", { timeout: 30_000 });
  });

  test("the reminder chime plays 13 s after the checkout started while the modal is open, and never after it closed", async ({
    page,
  }) => {
    await page.clock.install();
    await page.addInitScript(() => {
      const played: string[] = [];
      (window as unknown as { __played: string[] }).__played = played;
      HTMLMediaElement.prototype.play = function play() {
        played.push(this.currentSrc || this.src);
        return Promise.reject(new DOMException("autoplay blocked", "NotAllowedError"));
      };
    });
    const played = () =>
      page.evaluate(
        () =>
          (window as unknown as { __played: string[] }).__played.filter((src) =>
            src.includes("/sounds/checkout-chime.wav"),
          ).length,
      );
    const purchase = await openProduct(page);
    // Time stands still from the click on, so "13 s after the checkout started" is exact.
    await pauseClockSoon(page);
    await purchase.click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await page.clock.runFor(12_900);
    expect(await played()).toBe(0);
    await page.clock.runFor(200);
    await expect.poll(played).toBe(1);
    // The blocked autoplay raised nothing: the modal is still there.
    await expect(page.getByRole("dialog")).toBeVisible();
    await page.clock.resume();

    await page.keyboard.press("Escape");
    await expect(purchase).toHaveAttribute("data-captcha", "ready", { timeout: 30_000 });
    await purchase.click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toBeHidden();
    await page.clock.fastForward(20_000);
    expect(await played()).toBe(1);
    const sound = await page.request.get("/sounds/checkout-chime.wav");
    expect(sound.headers()["content-type"]).toMatch(/^audio\//);
  });
});

test.describe("purchase success page", () => {
  test("without an order id it shows the plain thank-you view", async ({ page }) => {
    await page.goto("/purchase/success");
    await expect(page.getByRole("heading", { name: "Thank you for your purchase!" })).toBeVisible();
  });

  test("an order id that is not ours shows Order not found, a way to support, and no error toast", async ({ page }) => {
    const answered = page.waitForResponse((r) => r.url().includes("/api/orders/") && r.status() === 404);
    await page.goto("/purchase/success?order_id=00000000-0000-4000-8000-000000000000");
    await answered;
    await expect(page.getByRole("heading", { name: "Order not found" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Contact Support" })).toBeVisible();
    await expect(page.getByText("Failed to verify your order. Please contact support.")).toHaveCount(0);
    await expect(page.getByText("Error", { exact: true })).toHaveCount(0);
    const results = await axeBuilder(page).analyze();
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });

  test("an unpaid order shows Waiting for payment confirmation, keeps checking (every 10 s after a minute) and shows Completed once paid", async ({
    page,
    request,
  }) => {
    const { url, orderId } = await startThroughApi(request, STUDIO.id, STUDIO.lifetimeVariant);
    await page.clock.install();
    // Fake time plus real fetches: up to three 15 s waits when a step lands before the page has scheduled its next check.
    test.setTimeout(90_000);
    const checks: number[] = [];
    let answered = 0;
    page.on("request", (r) => {
      if (r.url().includes(`/api/orders/${orderId}`)) checks.push(1);
    });
    page.on("requestfinished", (r) => {
      if (r.url().includes(`/api/orders/${orderId}`)) answered += 1;
    });
    await page.goto(`/purchase/success?order_id=${orderId}`);
    await expect(page.getByRole("heading", { name: "Waiting for payment confirmation" })).toBeVisible();
    await expect(page.getByText("What happens next")).toBeVisible();
    await expect(page.getByText(orderId)).toBeVisible();
    const results = await axeBuilder(page).analyze();
    expect(results.violations.map((v) => v.id)).toEqual([]);
    await page.clock.fastForward(61_000);
    // Past the first minute the page checks every 10 s: 30 s bring at most 3 more checks (plus one in flight).
    await expect.poll(() => checks.length).toBeGreaterThan(1);
    const afterAMinute = checks.length;
    // Each 10 s step brings the next check; steps wait for it, so a slow machine never races the page's fetch.
    for (let step = 1; step <= 3; step += 1) {
      // The next check is scheduled once the last one is answered; moving the clock before that would skip it.
      await expect.poll(() => answered).toBe(checks.length);
      await page.clock.fastForward(10_000);
      await expect.poll(() => checks.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(afterAMinute + step);
    }
    expect(checks.length).toBeLessThanOrEqual(afterAMinute + 4);
    const paid = await request.post(url, {
      maxRedirects: 0,
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      data: `email=${encodeURIComponent(BUYER_EMAIL)}`,
    });
    expect(paid.status()).toBe(302);
    await page.clock.fastForward(10_000);
    await expect(page.getByText("Completed", { exact: true })).toBeVisible();
  });
});

test.describe("GET /api/orders/:id", () => {
  test("answers the status only, 404 for an unknown order and 400 for an invalid id", async ({ request }) => {
    const { orderId } = await startThroughApi(request, STUDIO.id, STUDIO.lifetimeVariant);
    expect(await (await request.get(`/api/orders/${orderId}`)).json()).toEqual({ id: orderId, status: "pending" });
    const unknown = await request.get("/api/orders/00000000-0000-4000-8000-000000000000");
    expect(unknown.status()).toBe(404);
    expect(await unknown.json()).toEqual({ error: "Order not found" });
    expect((await request.get("/api/orders/not-an-id")).status()).toBe(400);
  });

  test("POST /api/checkout refuses bad input with 4xx JSON", async ({ request }) => {
    const cases: Array<[unknown, number]> = [
      [{ productId: 999, variantId: STUDIO.lifetimeVariant, altcha: "x" }, 400],
      [{ productId: STUDIO.id, variantId: 652996, altcha: "x" }, 400],
      [{ productId: STUDIO.id, variantId: STUDIO.lifetimeVariant, quantity: 0, altcha: "x" }, 400],
      [{ productId: STUDIO.id, variantId: STUDIO.lifetimeVariant, quantity: 101, altcha: "x" }, 400],
      [{ productId: STUDIO.id, variantId: STUDIO.lifetimeVariant }, 400],
      [{ productId: STUDIO.id, variantId: STUDIO.lifetimeVariant, altcha: "bm90IGEgcGF5bG9hZA==" }, 422],
    ];
    for (const [data, status] of cases) {
      const response = await request.post("/api/checkout", { data });
      expect(response.status(), JSON.stringify(data)).toBe(status);
      expect(typeof (await response.json()).error).toBe("string");
    }
  });
});

async function startThroughApi(request: APIRequestContext, productId: number, variantId: number) {
  const challenge = (await (await request.get("/api/checkout/challenge")).json()) as Challenge;
  const response = await request.post("/api/checkout", {
    data: { productId, variantId, altcha: await solveCaptchaPayload(challenge) },
    headers: { "X-Forwarded-For": clientAddress() },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as { url: string; orderId: string };
}

/** The demo shop end to end without a browser: checkout, Pay (the same form post the page makes), order status. */
async function buyThroughApi(request: APIRequestContext, productId: number, variantId: number): Promise<string> {
  const { url, orderId } = await startThroughApi(request, productId, variantId);
  const paid = await request.post(url, {
    maxRedirects: 0,
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    data: `email=${encodeURIComponent(BUYER_EMAIL)}`,
  });
  // Like a real shop, the demo shop shows its (now paid) invoice again rather than sending the buyer anywhere.
  expect(paid.status()).toBe(302);
  expect(paid.headers().location).toBe(url);
  return orderId;
}

test.describe("checkout with SellAuth (shop emulator)", () => {
  let connected: ShopConnectedApp;
  let shop: ShopEmulator;
  let app: AppServer;
  const WEBHOOK_SECRET = "whsec_e2e_checkout_secret_0123456789";

  test.beforeAll(async () => {
    // Without the API key: the app uses the shop's public storefront API.
    connected = await startShopConnectedApp({ webhookSecret: WEBHOOK_SECRET, apiKey: false });
    ({ shop, app } = connected);
  });
  test.afterAll(async () => {
    await connected?.stop();
  });
  test.beforeEach(() => shop.setCheckoutMode({ kind: "url" }));

  test("opens the hosted checkout in the modal and completes the order on the shop's signed notification", async ({
    page,
    request,
  }) => {
    const purchase = await openProduct(page, `${app.url}/product/${STUDIO.id}?duration=lifetime`);
    const started = page.waitForResponse((r) => r.url().endsWith("/api/checkout") && r.request().method() === "POST");
    await purchase.click();
    const { orderId } = (await (await started).json()) as { orderId: string };
    await expect(checkoutFrame(page).getByRole("heading", { name: "Hosted checkout" })).toBeVisible();
    const sent = shop.requests.find((r) => r.path === "/v1/checkout");
    expect(sent?.body).toMatchObject({
      cart: [{ productId: STUDIO.id, variantId: STUDIO.lifetimeVariant, quantity: 1 }],
      shopId: Number(shop.shopId),
    });

    const invoiceId = [...shop.invoices.keys()].at(-1) ?? "";
    const target = `${app.url}/api/shop/notifications`;
    const notify = (extra: Partial<Parameters<ShopEmulator["sendNotification"]>[1]> = {}) =>
      shop.sendNotification(target, {
        event: "NOTIFICATION.SHOP_INVOICE_PROCESSED",
        invoiceId,
        secret: WEBHOOK_SECRET,
        ...extra,
      });
    expect((await notify({ secret: "wrong" })).status).toBe(401);
    expect((await notify({ timestamp: Math.floor(Date.now() / 1000) - 600 })).status).toBe(401);
    // The storefront checkout returns no invoice id, so this order cannot be matched: the notification is kept anyway.
    expect(await notify({ idempotencyKey: "e2e-1" })).toEqual({
      status: 200,
      body: { ok: true, outcome: "unknown_invoice" },
    });
    expect(await notify({ idempotencyKey: "e2e-1" })).toEqual({
      status: 200,
      body: { ok: true, outcome: "unknown_invoice", duplicate: true },
    });
    expect(await (await request.get(`${app.url}/api/orders/${orderId}`)).json()).toEqual({
      id: orderId,
      status: "pending",
    });
  });

  test("buys three keys: the keyboard sets Quantity to 3, the total triples and the shop receives quantity 3", async ({
    page,
  }) => {
    const purchase = await openProduct(page, `${app.url}/product/${CAPTURE.id}?duration=1-week`);
    const quantity = page.getByRole("spinbutton", { name: "Quantity" });
    await expect(quantity).toHaveAttribute("max", "5");
    await quantity.focus();
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    await expect(quantity).toHaveValue("3");
    // 4.99 × 4.006 × 3 = 59.96982, rounded half-up.
    await expect(page.getByRole("status", { name: "Total" })).toHaveText("$59.97");
    await expect(page).toHaveURL(/[?&]quantity=3(&|$)/);
    const started = page.waitForResponse((r) => r.url().endsWith("/api/checkout") && r.request().method() === "POST");
    await purchase.click();
    expect((await started).status()).toBe(200);
    const sent = shop.requests.filter((r) => r.path === "/v1/checkout").at(-1);
    expect(sent?.body).toMatchObject({
      cart: [{ productId: CAPTURE.id, variantId: CAPTURE.weekVariant, quantity: 3 }],
    });
  });

  test("shows the shop's error text", async ({ page }) => {
    shop.setCheckoutMode({ kind: "error", message: "Product is out of stock" });
    const purchase = await openProduct(page, `${app.url}/product/${STUDIO.id}`);
    expect(await alertAfter(page, () => purchase.click())).toBe("Product is out of stock");
  });

  test('says "No checkout URL returned. Please try again." when the shop answers without a url', async ({ page }) => {
    shop.setCheckoutMode({ kind: "no-url" });
    const purchase = await openProduct(page, `${app.url}/product/${STUDIO.id}`);
    expect(await alertAfter(page, () => purchase.click())).toBe("No checkout URL returned. Please try again.");
  });

  test("shows a clear message when the shop fails with a 500", async ({ page }) => {
    shop.setCheckoutMode({ kind: "500" });
    const purchase = await openProduct(page, `${app.url}/product/${STUDIO.id}`);
    expect(await alertAfter(page, () => purchase.click())).toBe(
      "The shop could not start the checkout (HTTP 500). Please try again.",
    );
    await expect(page.getByRole("button", { name: "Purchase Now" })).toBeEnabled();
  });
});

test.describe("checkout with SellAuth and an API key (shop emulator)", () => {
  let connected: ShopConnectedApp;
  let shop: ShopEmulator;
  let app: AppServer;
  const WEBHOOK_SECRET = "whsec_e2e_api_secret_0123456789abcdef";

  test.beforeAll(async () => {
    connected = await startShopConnectedApp({ webhookSecret: WEBHOOK_SECRET });
    ({ shop, app } = connected);
  });
  test.afterAll(async () => {
    await connected?.stop();
  });

  test("completes the order only once the invoice API says it is paid", async ({ page, request }) => {
    const purchase = await openProduct(page, `${app.url}/product/${STUDIO.id}?duration=lifetime`);
    const started = page.waitForResponse((r) => r.url().endsWith("/api/checkout") && r.request().method() === "POST");
    await purchase.click();
    const { orderId } = (await (await started).json()) as { orderId: string };
    await expect(checkoutFrame(page).getByRole("heading", { name: "Hosted checkout" })).toBeVisible();
    const invoiceId = [...shop.invoices.keys()].at(-1) ?? "";
    const target = `${app.url}/api/shop/notifications`;
    const event = { event: "NOTIFICATION.SHOP_INVOICE_PROCESSED", invoiceId, secret: WEBHOOK_SECRET };

    expect((await shop.sendNotification(target, event)).body).toEqual({ ok: true, outcome: "unchanged" });
    // The shop's own word for the invoice is kept beside our status.
    expect(await (await request.get(`${app.url}/api/orders/${orderId}`)).json()).toEqual({
      id: orderId,
      status: "pending",
      shopStatus: "pending",
    });
    shop.setInvoiceStatus(invoiceId, "completed");
    expect((await shop.sendNotification(target, event)).body).toEqual({ ok: true, outcome: "completed" });

    await page.goto(`${app.url}/purchase/success?order_id=${orderId}&product_id=${STUDIO.id}`);
    await expect(page.getByText("Completed", { exact: true })).toBeVisible();
  });
});

test.describe("a SellAuth purchase as a buyer sees it (shop emulator, API key)", () => {
  let connected: ShopConnectedApp;
  let shop: ShopEmulator;
  let app: AppServer;
  const WEBHOOK_SECRET = "whsec_e2e_buyer_secret_0123456789abcdef";

  test.beforeAll(async () => {
    connected = await startShopConnectedApp({
      // Retries 0.5 s apart: the shop's 5 s would only slow the suite down.
      emulator: { retryIntervalMs: 500 },
      webhookSecret: WEBHOOK_SECRET,
      notifyOnPay: true,
    });
    ({ shop, app } = connected);
  });
  test.afterAll(async () => {
    await connected?.stop();
  });
  test.beforeEach(() => shop.setCheckoutMode({ kind: "url" }));

  async function startPurchase(page: Page) {
    const purchase = await openProduct(page, `${app.url}/product/${STUDIO.id}?duration=lifetime`);
    const started = page.waitForResponse((r) => r.url().endsWith("/api/checkout") && r.request().method() === "POST");
    await purchase.click();
    const response = await started;
    const { orderId } = (await response.json()) as { orderId: string };
    const invoiceId = [...shop.invoices.keys()].at(-1) ?? "";
    return { orderId, invoiceId, forwardedFor: (await response.request().allHeaders())["x-forwarded-for"] };
  }

  test("pays inside the modal, and the page goes to the success page by itself", async ({ page }) => {
    const { orderId, invoiceId, forwardedFor } = await startPurchase(page);
    const frame = checkoutFrame(page);
    await expect(frame.getByRole("heading", { name: "Hosted checkout" })).toBeVisible();
    await expect(frame.getByText(`Invoice ${invoiceId}`)).toBeVisible();
    const sent = shop.requests.find(
      (r) => r.path === `/v1/shops/${shop.shopId}/checkout` && (r.body as { ip?: string }).ip === forwardedFor,
    );
    expect(sent?.body).toEqual({
      cart: [{ productId: STUDIO.id, variantId: STUDIO.lifetimeVariant, quantity: 1 }],
      ip: forwardedFor,
      user_agent: await page.evaluate(() => navigator.userAgent),
    });
    await frame.getByRole("button", { name: "Pay", exact: true }).click();

    await expect(page).toHaveURL(`${app.url}/purchase/success?order_id=${orderId}`);
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Thank you for your purchase!" })).toBeVisible();
    await expect(page.getByText("Completed", { exact: true })).toBeVisible();
    await expect(page.getByText(orderId)).toBeVisible();
    const results = await axeBuilder(page).analyze();
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });

  test("a coupon goes to the shop, which applies it on its own page, or refuses it in its own words", async ({
    page,
  }) => {
    const purchase = await openProduct(page, `${app.url}/product/${STUDIO.id}?duration=lifetime`);
    await page.getByText("Have a coupon?").click();
    await page.getByRole("textbox", { name: "Coupon code" }).fill("SHOP15");
    await purchase.click();
    await expect(checkoutFrame(page).getByText("Coupon SHOP15: 15% off")).toBeVisible();
    const sent = shop.requests.filter((r) => r.path === `/v1/shops/${shop.shopId}/checkout`).at(-1);
    expect(sent?.body).toMatchObject({
      cart: [{ productId: STUDIO.id, variantId: STUDIO.lifetimeVariant, quantity: 1 }],
      coupon: "SHOP15",
    });
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toBeHidden();

    await expect(page.getByRole("button", { name: "Purchase Now" })).toHaveAttribute("data-captcha", "ready", {
      timeout: 30_000,
    });
    await page.getByRole("textbox", { name: "Coupon code" }).fill("WELCOME10");
    expect(await alertAfter(page, () => purchase.click())).toBe(SHOP_COUPON_REFUSAL);
  });

  test("closing the modal before paying leaves a toast to the success page, which waits and then shows Completed", async ({
    page,
  }) => {
    const { orderId, invoiceId } = await startPurchase(page);
    await expect(checkoutFrame(page).getByRole("heading", { name: "Hosted checkout" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toBeHidden();
    await expect(page.getByText("Payment in progress — we will show your order here")).toBeVisible();
    await page.getByRole("link", { name: "View your order" }).click();
    await expect(page).toHaveURL(`${app.url}/purchase/success?order_id=${orderId}`);
    await expect(page.getByRole("heading", { name: "Waiting for payment confirmation" })).toBeVisible();
    // A client navigation fades the page in: contrast is judged once the fade (and the toast's exit) has finished,
    // not on half-transparent text a loaded machine catches mid-way (the waiting spinner turns forever).
    await page.waitForFunction(() =>
      document
        .getAnimations()
        .every(
          (animation) => animation.playState !== "running" || animation.effect?.getTiming().iterations === Infinity,
        ),
    );
    const results = await axeBuilder(page).analyze();
    expect(results.violations.map((v) => v.id)).toEqual([]);

    // A crypto payment: the shop first reports it as confirming, then as completed.
    expect((await shop.settleInvoice(invoiceId, "confirming"))?.status).toBe(200);
    await expect(page.getByText("waiting for the network to confirm it")).toBeVisible();
    expect((await shop.settleInvoice(invoiceId, "completed"))?.status).toBe(200);
    await expect(page.getByText("Completed", { exact: true })).toBeVisible();
    await expect(page.getByText(orderId)).toBeVisible();
  });

  test("an unknown shop status reads as waiting; cancelled reads Payment not completed with a way back; refunded reads Refunded", async ({
    page,
  }) => {
    const { orderId, invoiceId } = await startPurchase(page);
    await page.keyboard.press("Escape");
    await page.goto(`${app.url}/purchase/success?order_id=${orderId}`);
    expect((await shop.settleInvoice(invoiceId, "on_hold_review"))?.status).toBe(200);
    await expect
      .poll(async () => (await (await page.request.get(`${app.url}/api/orders/${orderId}`)).json()).shopStatus)
      .toBe("on_hold_review");
    await expect(page.getByRole("heading", { name: "Waiting for payment confirmation" })).toBeVisible();
    expect((await shop.settleInvoice(invoiceId, "cancelled"))?.status).toBe(200);
    await expect(page.getByRole("heading", { name: "Payment not completed" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Back to the product" })).toHaveAttribute(
      "href",
      `/product/${STUDIO.id}`,
    );
    const results = await axeBuilder(page).analyze();
    expect(results.violations.map((v) => v.id)).toEqual([]);

    const second = await startPurchase(page);
    await page.keyboard.press("Escape");
    expect((await shop.settleInvoice(second.invoiceId, "completed"))?.status).toBe(200);
    expect((await shop.settleInvoice(second.invoiceId, "refunded"))?.status).toBe(200);
    await page.goto(`${app.url}/purchase/success?order_id=${second.orderId}`);
    await expect(page.getByRole("heading", { name: "Refunded" })).toBeVisible();
    const refunded = await axeBuilder(page).analyze();
    expect(refunded.violations.map((v) => v.id)).toEqual([]);
  });

  test("a gateway page that refuses to be framed is offered in a new tab, and no chime plays over the message", async ({
    page,
  }) => {
    shop.setCheckoutMode({ kind: "gateway-only" });
    await page.clock.install();
    await page.addInitScript(() => {
      const played: string[] = [];
      (window as unknown as { __played: string[] }).__played = played;
      HTMLMediaElement.prototype.play = function play() {
        played.push(this.currentSrc || this.src);
        return Promise.resolve();
      };
    });
    const { invoiceId } = await startPurchase(page);
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByText("The secure checkout could not be shown here.")).toBeVisible();
    const link = dialog.getByRole("link", { name: "Open checkout in a new tab" });
    await expect(link).toHaveAttribute("href", `${shop.gatewayUrl}/pay/${invoiceId}`);
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", "noopener");
    const results = await axeBuilder(page).include('[role="dialog"]').analyze();
    expect(results.violations.map((v) => v.id)).toEqual([]);
    const opened = page.context().waitForEvent("page");
    await link.click();
    const tab = await opened;
    await expect(tab.getByRole("heading", { name: "Payment gateway" })).toBeVisible();
    await tab.close();
    // Past the 13 s reminder: the chime would have played by now over a working checkout.
    await page.clock.fastForward(20_000);
    expect(await page.evaluate(() => (window as unknown as { __played: string[] }).__played.length)).toBe(0);
  });

  test("a checkout page that has not loaded after 15 s is offered in a new tab", async ({ page }) => {
    shop.setCheckoutMode({ kind: "hanging-page" });
    await page.clock.install();
    const purchase = await openProduct(page, `${app.url}/product/${STUDIO.id}?duration=lifetime`);
    // The frame's 15 s timer starts after this moment and before the clock is paused below.
    const beforeClick = await page.evaluate(() => Date.now());
    const started = page.waitForResponse((r) => r.url().endsWith("/api/checkout") && r.request().method() === "POST");
    await purchase.click();
    await started;
    const invoiceId = [...shop.invoices.keys()].at(-1) ?? "";
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByText("Loading secure checkout...")).toBeVisible();
    const pausedAt = await pauseClockSoon(page);
    // At most this much of the 15 s had passed when time stopped; counting from it keeps both checks exact.
    const mostElapsed = pausedAt - beforeClick;
    await page.clock.runFor(14_000 - mostElapsed);
    await expect(dialog.getByText("Loading secure checkout...")).toBeVisible();
    await page.clock.runFor(1_500 + mostElapsed);
    await expect(dialog.getByText("The secure checkout could not be shown here.")).toBeVisible();
    await expect(dialog.getByRole("link", { name: "Open checkout in a new tab" })).toHaveAttribute(
      "href",
      `${shop.url}/checkout/${invoiceId}`,
    );
  });

  test("a frame the page's CSP blocks is offered in a new tab too", async ({ page }) => {
    shop.setCheckoutMode({ kind: "gateway-only" });
    // Without the server's framing verdict, the browser's own CSP report (frame-src) is what the modal reacts to.
    await page.route("**/api/checkout", async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { frameRefused?: boolean };
      delete body.frameRefused;
      await route.fulfill({ response, json: body });
    });
    await startPurchase(page);
    await expect(page.getByRole("dialog").getByRole("link", { name: "Open checkout in a new tab" })).toBeVisible();
  });
});

test.describe("checkout in a new tab (CHECKOUT_MODAL=off)", () => {
  let app: AppServer;
  test.beforeAll(async () => {
    app = await startAppServer({ env: { CHECKOUT_MODAL: "off" } });
  });
  test.afterAll(async () => {
    await app?.stop();
  });

  test("opens the demo checkout in a new tab, and paying there reaches Completed", async ({ page, context }) => {
    const purchase = await openProduct(page, `${app.url}/product/${STUDIO.id}?duration=lifetime`);
    const opened = context.waitForEvent("page");
    await purchase.click();
    const tab = await opened;
    await tab.waitForURL(/\/demo-checkout\/demo-[0-9a-f-]{36}$/);
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(purchase).toBeEnabled();
    await expect(tab.getByText("$299.93")).toBeVisible();
    await tab.getByRole("textbox", { name: "Email address" }).fill(BUYER_EMAIL);
    await tab.getByRole("button", { name: "Pay", exact: true }).click();
    await expect(tab.getByText("This invoice is completed.")).toBeVisible();
    // The product page watched the order while the tab was open, and shows it now.
    await expect(page.getByRole("heading", { name: "Thank you for your purchase!" })).toBeVisible();
    await expect(page.getByText("Completed", { exact: true })).toBeVisible();
  });
});
