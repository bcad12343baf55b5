import crypto from "node:crypto";
import fs from "node:fs";
import { type Browser, expect, type Page } from "@playwright/test";
import { type AppServer, startAppServer } from "../support/app-server";
import { test } from "../support/own-client-address";
import { secretsInLog } from "../support/server-log";
import { openStoreDatabase } from "../support/store-database";

// Releases that reach the buyer (issue 45): the demo's seed releases behind the purchase, on a server of its own.
test.describe.configure({ mode: "serial", timeout: 120_000 });

let server: AppServer;
const secrets = new Set<string>();
const url = (p: string) => `${server.url}${p}`;
const uniqueAddress = (name: string) => `${name}-${crypto.randomBytes(4).toString("hex")}@example.com`;
const CAPTURE_FILE = "/downloads/capture/5.0.3/Kestrel-Capture-5.0.3-x64-setup.exe";

test.beforeAll(async () => {
  server = await startAppServer({ env: { LOG_LEVEL: "info" } });
});

test.afterAll(async () => {
  await server?.stop();
});

test.use({ baseURL: undefined });

/** A completed demo order of `email`, as the demo checkout records it. */
function insertOrder(email: string, productId: number, variantId: number, completedAt: string) {
  const id = crypto.randomUUID();
  const db = openStoreDatabase(server.dataDir);
  try {
    db.prepare(
      `INSERT INTO orders (id, provider, provider_invoice_id, product_id, variant_id, quantity, amount_cents, status,
         created_at, completed_at, buyer_email, delivered_key) VALUES (?, 'demo', ?, ?, ?, 1, 999, 'completed', ?, ?, ?, NULL)`,
    ).run(id, `demo-${id}`, productId, variantId, completedAt, completedAt, email);
  } finally {
    db.close();
  }
  secrets.add(email);
}

/** The newest kept mail's code to `email`, read at /demo/mailbox in its own page. */
async function codeFor(browser: Browser, email: string): Promise<string> {
  const page = await browser.newPage();
  try {
    let text = "";
    await expect(async () => {
      await page.goto(url("/demo/mailbox"));
      text = (await page.getByRole("article").filter({ hasText: email }).first().textContent({ timeout: 500 })) ?? "";
      expect(text).toMatch(/\d{6}/);
    }).toPass({ timeout: 30_000 });
    const code = /(\d{6})/.exec(text.replace(email, ""))?.[1] ?? "";
    secrets.add(code);
    return code;
  } finally {
    await page.close();
  }
}

async function signIn(page: Page, browser: Browser, email: string) {
  await page.getByRole("textbox", { name: "Email address" }).fill(email);
  await page.getByRole("button", { name: "Send code" }).click();
  const code = await codeFor(browser, email);
  await page.getByRole("textbox", { name: "Code from the email" }).fill(code);
}

async function sha256Of(path: string) {
  return crypto.createHash("sha256").update(fs.readFileSync(path)).digest("hex");
}

test("a one-week licence bought in the demo: success page, Downloads, Sign in to download, the code, and the file whose SHA-256 is the one shown", async ({
  page,
  browser,
}) => {
  const email = uniqueAddress("week");
  secrets.add(email);
  await page.goto(url("/product/446893?duration=1-week"));
  const purchase = page.getByRole("button", { name: "Purchase Now" });
  await expect(purchase).toHaveAttribute("data-captcha", "ready", { timeout: 60_000 });
  await purchase.click();
  const frame = page.frameLocator('iframe[title^="Secure checkout"]');
  await expect(frame.getByText("1 Week")).toBeVisible({ timeout: 15_000 });
  await frame.getByRole("textbox", { name: "Email address" }).fill(email);
  await frame.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(page).toHaveURL(/\/purchase\/success\?order_id=/, { timeout: 30_000 });
  await expect(page.getByText("Completed", { exact: true })).toBeVisible({ timeout: 15_000 });

  await page.getByRole("link", { name: "Go to Downloads" }).click();
  await expect(page).toHaveURL(url("/downloads"));
  const capture = page.getByRole("article", { name: "Kestrel Capture", exact: true });
  const shown = (await capture.getByTestId("sha256").textContent()) ?? "";
  expect(shown).toMatch(/^[0-9a-f]{64}$/);
  // Signed out: the button says so, and goes to /orders to come back to this very file.
  const signInLink = capture.getByRole("link", { name: "Sign in to download" });
  await expect(signInLink).toHaveAttribute("href", `/orders?next=${encodeURIComponent(CAPTURE_FILE)}`);
  await signInLink.click();
  await expect(page).toHaveURL(url(`/orders?next=${encodeURIComponent(CAPTURE_FILE)}`));
  await signIn(page, browser, email);
  const afterCode = page.waitForEvent("download");
  await page.getByRole("button", { name: "Sign in" }).click();
  const first = await afterCode;
  expect(first.suggestedFilename()).toBe("Kestrel-Capture-5.0.3-x64-setup.exe");
  expect(await sha256Of((await first.path()) ?? "")).toBe(shown);

  // Signed in now: Downloads says Download, and the file arrives again with the same checksum.
  await page.goto(url("/downloads"));
  const download = page.getByRole("article", { name: "Kestrel Capture", exact: true }).getByRole("link", {
    name: "Download",
  });
  await expect(download).toHaveAttribute("href", CAPTURE_FILE);
  const again = page.waitForEvent("download");
  await download.click();
  expect(await sha256Of((await (await again).path()) ?? "")).toBe(shown);
  // /orders shows the order's latest release with its button, and the file's checksum.
  await page.goto(url("/orders"));
  const card = page.getByRole("listitem").filter({ hasText: "Kestrel Capture · 1 Week" });
  await expect(card.getByText("Kestrel Capture 5.0.3")).toBeVisible();
  await expect(card.getByText(shown)).toBeVisible();
  await expect(card.getByRole("link", { name: "Download" })).toHaveAttribute("href", CAPTURE_FILE);
  await page.goto(url("/downloads"));
  // A product this buyer did not buy: Buy it.
  await expect(
    page.getByRole("article", { name: "Kestrel Vault" }).getByRole("link", { name: "Buy Kestrel Vault" }),
  ).toHaveAttribute("href", "/product/vault");
});

test("a buyer whose one-week licence ended before the release is offered Renew, and a stranger Buy", async ({
  page,
  browser,
}) => {
  const email = uniqueAddress("ended");
  // Kestrel Capture 5.0.3 came out on 2026-10-28; this week's licence ended on 2026-10-05.
  insertOrder(email, 446893, 653010, "2026-09-28T10:00:00.000Z");
  await page.goto(url("/orders"));
  await signIn(page, browser, email);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible({ timeout: 15_000 });
  await page.goto(url("/downloads"));
  await expect(
    page
      .getByRole("article", { name: "Kestrel Capture", exact: true })
      .getByRole("link", { name: "Renew to get 5.0.3" }),
  ).toHaveAttribute("href", "/product/capture?duration=1-week");
  await expect(
    page.getByRole("article", { name: "Kestrel Studio" }).getByRole("link", { name: "Buy Kestrel Studio" }),
  ).toHaveAttribute("href", "/product/studio");
  // The product's own downloads page, linked from its card, lists its releases with the same buttons.
  await page
    .getByRole("article", { name: "Kestrel Capture", exact: true })
    .getByRole("link", { name: "All versions of Kestrel Capture" })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Kestrel Capture downloads" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Renew to get 5.0.3" })).toBeVisible();
  expect((await page.request.get(url("/downloads/nothing"))).status()).toBe(404);
  await page.goto(url("/orders"));
  await expect(
    page
      .getByRole("listitem")
      .filter({ hasText: "Kestrel Capture · 1 Week" })
      .getByRole("link", { name: "Renew to get 5.0.3" }),
  ).toHaveAttribute("href", "/product/capture?duration=1-week");
  const refused = await page.request.get(url(CAPTURE_FILE), { maxRedirects: 0 });
  expect(refused.status()).toBe(403);
  expect(await refused.text()).toContain("Renew to get 5.0.3");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("Sign in to download, the code, and the same file arrives", async ({ page, browser }) => {
    const email = uniqueAddress("nojs");
    insertOrder(email, 446893, 653012, new Date().toISOString());
    await page.goto(url("/downloads"));
    await page
      .getByRole("article", { name: "Kestrel Capture", exact: true })
      .getByRole("link", { name: "Sign in to download" })
      .click();
    await signIn(page, browser, email);
    const arrives = page.waitForEvent("download");
    await page.getByRole("button", { name: "Sign in" }).click();
    const file = await arrives;
    expect(file.suggestedFilename()).toBe("Kestrel-Capture-5.0.3-x64-setup.exe");
    // The SHA-256 /downloads shows is the one of the bytes that arrived.
    const response = await page.request.get(url("/downloads"));
    expect(await response.text()).toContain(await sha256Of((await file.path()) ?? ""));
  });
});

test("no address, code or key reaches the server's log", async () => {
  expect(secretsInLog(server.logs(), secrets)).toEqual([]);
});
