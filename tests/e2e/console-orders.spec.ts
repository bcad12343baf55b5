import crypto from "node:crypto";
import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { type AppServer, startAppServer } from "../support/app-server";
import { axeBuilder } from "../support/axe";
import { gotoHydrated } from "../support/hydration";
import { addStaffSession } from "../support/staff-sessions";
import { openStoreDatabase } from "../support/store-database";

/** As orders.server.ts (the console's orders room) pages its answers. */
const ORDER_SEARCH_PAGE_SIZE = 20;

// The console's order look-up and deliveries (issue 35) in a browser against a production server: a demo purchase
// found by its buyer's email, its key and its number, with the mail and conversations of that buyer; the deliveries
// page for owners (403 for support) with Retry on a failed request and mail, each in the audit log; axe and 360 px.
// The search is a POST: what was looked up is never in the page's URL, nor in the server's request log.

test.describe.configure({ mode: "serial" });

let server: AppServer;
let origin: string;
const tokens = {} as Record<"owner" | "support", string>;
const ORDER_ID = crypto.randomUUID();
const KEY = `DEMO-${ORDER_ID.slice(0, 8).toUpperCase()}`;
const BUYER = "demo.buyer@example.com";
const FAILED_REQUEST = crypto.randomUUID();
const FAILED_MAIL = crypto.randomUUID();
/** A buyer with one order more than a page holds. */
const FREQUENT_BUYER = "frequent.buyer@example.com";
const AUDIT_HASH_KEY = crypto.randomBytes(32).toString("hex");

/** What the audit log keeps of a look-up (docs/console.md): its kind and a keyed hash, never the text. */
function lookupTarget(text: string): string {
  const kind = text.includes("@") ? "email" : "key";
  const normal = kind === "email" ? text.trim().toLowerCase() : text.trim();
  const digest = crypto.createHmac("sha256", AUDIT_HASH_KEY).update(`kestrel-audit-${kind}:${normal}`).digest("hex");
  return `${kind}:${digest.slice(0, 32)}`;
}

test.beforeAll(async () => {
  // The request log at "info" (one line per request), to show a look-up leaves no trace of its query there.
  server = await startAppServer({ env: { LOG_LEVEL: "info", AUDIT_HASH_KEY } });
  origin = `http://localhost:${server.port}`;
  const now = new Date().toISOString();
  tokens.owner = addStaffSession(server.dataDir, "owner@example.com", "owner");
  tokens.support = addStaffSession(server.dataDir, "agent@example.com", "support");
  const db = openStoreDatabase(server.dataDir);
  // A completed demo purchase, as the demo checkout records it.
  db.prepare(
    `INSERT INTO orders (id, provider, provider_invoice_id, product_id, variant_id, quantity, amount_cents, status,
       created_at, completed_at, buyer_email, delivered_key) VALUES (?, 'demo', ?, 446894, 653023, 1, 29993, 'completed', ?, ?, ?, ?)`,
  ).run(ORDER_ID, `demo-${ORDER_ID}`, now, now, BUYER, KEY);
  db.prepare(
    `INSERT INTO mail_outbox (id, kind, from_address, to_address, subject, text_body, html_body, message_id, status,
       created_at, send_by, attempts, next_attempt_at, first_failed_at, last_error, sent_at, claimed_by, claimed_until)
     VALUES (?, 'sign-in-code', 'shop@example.com', ?, 'Your code for your orders: 734215', '734215', NULL, ?, 'kept',
       ?, NULL, 0, ?, NULL, NULL, NULL, NULL, NULL)`,
  ).run(crypto.randomUUID(), BUYER, `<${crypto.randomUUID()}@example.com>`, now, now);
  db.prepare(
    `INSERT INTO mail_outbox (id, kind, from_address, to_address, subject, text_body, html_body, message_id, status,
       created_at, send_by, attempts, next_attempt_at, first_failed_at, last_error, sent_at, claimed_by, claimed_until)
     VALUES (?, 'support-reply', 'shop@example.com', 'someone@example.com', 'New reply to your support request', '…',
       NULL, ?, 'failed', ?, NULL, 5, ?, ?, '550 mailbox unavailable', NULL, NULL, NULL)`,
  ).run(FAILED_MAIL, `<${crypto.randomUUID()}@example.com>`, now, now, now);
  db.prepare(
    `INSERT INTO support_requests (id, category, answers, locale, created_at, delivery_status, attempts, next_attempt_at,
       first_failed_at, last_error, delivered_at, claimed_by, claimed_until)
     VALUES (?, 'billing', '["a"]', 'en', ?, 'failed', 8, ?, ?, 'HTTP 404 Unknown Webhook', NULL, NULL, NULL)`,
  ).run(FAILED_REQUEST, now, now, now);
  const addOrder = db.prepare(
    `INSERT INTO orders (id, provider, provider_invoice_id, product_id, variant_id, quantity, amount_cents, status,
       created_at, completed_at, buyer_email, delivered_key) VALUES (?, 'demo', NULL, 446894, 653023, 1, 999, 'completed', ?, ?, ?, NULL)`,
  );
  for (let i = 0; i <= ORDER_SEARCH_PAGE_SIZE; i++) {
    const at = new Date(Date.parse(now) - i * 60_000).toISOString();
    addOrder.run(crypto.randomUUID(), at, at, FREQUENT_BUYER);
  }
  db.close();
});
test.afterAll(async () => {
  await server?.stop();
});

async function signedIn(browser: import("@playwright/test").Browser, who: "owner" | "support") {
  const context = await browser.newContext();
  await context.addCookies([{ name: "kestrel-staff", value: tokens[who], domain: "localhost", path: "/" }]);
  return { context, page: await context.newPage() };
}

async function expectNoAxeViolations(page: Page) {
  const { violations } = await axeBuilder(page).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(" ")}`)).toEqual([]);
}

let owner: { context: BrowserContext; page: Page };

test("a demo purchase's email finds its order with its key, the buyer's mail (never a code) and nothing else", async ({
  browser,
}) => {
  const support = await signedIn(browser, "support");
  const { page } = support;
  await gotoHydrated(page, `${origin}/admin/orders`);
  await expect(page.getByRole("heading", { level: 1, name: "Orders" })).toBeVisible();
  await page.getByRole("searchbox", { name: "Email, order number, invoice id or key" }).fill(BUYER.toUpperCase());
  await page.getByRole("button", { name: "Search orders" }).click();
  const card = page.getByRole("article", { name: `Order ${ORDER_ID}` });
  await expect(card).toBeVisible();
  await expect(card.getByText(KEY, { exact: true })).toBeVisible();
  await expect(card.getByText("completed", { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: `Buyer ${BUYER}` })).toBeVisible();
  await expect(page.getByRole("cell", { name: "sign-in-code" })).toBeVisible();
  await expect(page.getByText("(not shown: it carries a code)")).toBeVisible();
  expect(await page.content()).not.toContain("734215");
  // Posted: the address bar (and so history and a Referer) never holds the email.
  expect(page.url()).toBe(`${origin}/admin/orders`);
  await expectNoAxeViolations(page);
  await support.context.close();
});

test("the key and the order number find the same order; the POST form works without JavaScript", async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  await context.addCookies([{ name: "kestrel-staff", value: tokens.owner, domain: "localhost", path: "/" }]);
  const page = await context.newPage();
  for (const query of [KEY, ORDER_ID, "NO-SUCH-KEY"]) {
    await page.goto(`${origin}/admin/orders`);
    await page.getByRole("searchbox").fill(query);
    await page.getByRole("button", { name: "Search orders" }).click();
    expect(page.url(), query).toBe(`${origin}/admin/orders`);
    if (query === "NO-SUCH-KEY") await expect(page.getByRole("status")).toHaveText("No order matches “NO-SUCH-KEY”.");
    else await expect(page.getByRole("article", { name: `Order ${ORDER_ID}` }), query).toBeVisible();
  }
  // A query in the URL (an old link) searches nothing: the empty form.
  await page.goto(`${origin}/admin/orders?q=${KEY}`);
  await expect(page.getByRole("searchbox")).toHaveValue("");
  await expect(page.getByRole("article")).toHaveCount(0);
  await context.close();
});

test("a buyer with more orders than a page holds pages through them by POST, the query kept out of the URL", async ({
  browser,
}) => {
  const support = await signedIn(browser, "support");
  const { page } = support;
  await gotoHydrated(page, `${origin}/admin/orders`);
  await page.getByRole("searchbox", { name: "Email, order number, invoice id or key" }).fill(FREQUENT_BUYER);
  await page.getByRole("button", { name: "Search orders" }).click();
  const orders = page.getByRole("region", { name: "Orders found" }).getByRole("article");
  await expect(orders).toHaveCount(ORDER_SEARCH_PAGE_SIZE);
  const pages = page.getByRole("navigation", { name: "Order pages" });
  await expect(pages.getByRole("button", { name: "Newer orders" })).toHaveCount(0);
  await pages.getByRole("button", { name: "Older orders" }).click();
  await expect(orders).toHaveCount(1);
  await expect(pages.getByRole("button", { name: "Older orders" })).toHaveCount(0);
  expect(page.url()).toBe(`${origin}/admin/orders`);
  await pages.getByRole("button", { name: "Newer orders" }).click();
  await expect(orders).toHaveCount(ORDER_SEARCH_PAGE_SIZE);
  await support.context.close();
});

test("a support person gets 403 on the deliveries and has no room for it", async ({ browser }) => {
  const support = await signedIn(browser, "support");
  const answer = await support.page.goto(`${origin}/admin/deliveries`);
  expect(answer?.status()).toBe(403);
  await gotoHydrated(support.page, `${origin}/admin`);
  const nav = support.page.getByRole("navigation", { name: "Console" });
  await expect(nav.getByRole("link", { name: "Orders" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Deliveries" })).toHaveCount(0);
  await support.context.close();
});

test("an owner retries a failed support request and a failed mail once each", async ({ browser }) => {
  owner = await signedIn(browser, "owner");
  const { page } = owner;
  await gotoHydrated(page, `${origin}/admin/deliveries`);
  await expect(page.getByRole("heading", { level: 1, name: "Deliveries" })).toBeVisible();
  await expect(page.getByText("Reason: HTTP 404 Unknown Webhook")).toBeVisible();
  await expect(page.getByText("Reason: 550 mailbox unavailable")).toBeVisible();
  await expect(page.getByText("Not configured: mail is kept in the database.")).toBeVisible();
  await expect(page.getByText("Not configured: the support bot has no token.")).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: `Retry support request ${FAILED_REQUEST}` }).click();
  await expect(page.getByRole("status")).toHaveText("The support request is due again and is being delivered now.");
  await expect(page.getByRole("button", { name: `Retry support request ${FAILED_REQUEST}` })).toHaveCount(0);
  await page.getByRole("button", { name: `Retry mail ${FAILED_MAIL}` }).click();
  await expect(page.getByRole("status")).toHaveText("The mail is due again and is being sent now.");
  await expect(page.getByRole("button", { name: /^Retry/ })).toHaveCount(0);

  const db = openStoreDatabase(server.dataDir);
  expect(
    db.prepare("SELECT delivery_status AS s, attempts FROM support_requests WHERE id = ?").get(FAILED_REQUEST),
  ).toEqual({ s: "pending", attempts: 8 });
  expect(db.prepare("SELECT status AS s, attempts FROM mail_outbox WHERE id = ?").get(FAILED_MAIL)).toEqual({
    s: "pending",
    attempts: 5,
  });
  db.close();

  // The same retry again (a second owner's page, sent late) changes nothing.
  const late = await page.request.post(`${origin}/admin/deliveries`, {
    headers: { origin },
    form: { intent: "retry", kind: "mail", id: FAILED_MAIL },
  });
  expect(late.status()).toBe(409);
});

test("the look-ups and the retries are in the audit log", async () => {
  const { page } = owner;
  await gotoHydrated(page, `${origin}/admin/audit`);
  const rows = page.getByRole("table").getByRole("row");
  await expect(rows.filter({ hasText: "delivery-retried" })).toHaveCount(2);
  await expect(rows.filter({ hasText: "delivery-retried" }).filter({ hasText: FAILED_MAIL })).toContainText('"mail"');
  await expect(rows.filter({ hasText: "delivery-retried" }).filter({ hasText: FAILED_REQUEST })).toContainText(
    '"support-request"',
  );
  const lookUps = rows.filter({ hasText: "orders-looked-up" });
  // The address searched in capitals is the same buyer; no looked-up text is shown, only its kind and keyed hash.
  await expect(
    lookUps.filter({ hasText: "agent@example.com" }).filter({ hasText: lookupTarget(BUYER.toUpperCase()) }),
  ).toHaveCount(1);
  await expect(lookUps.filter({ hasText: "owner@example.com" }).filter({ hasText: lookupTarget(KEY) })).toHaveCount(1);
  await expect(
    lookUps.filter({ hasText: "owner@example.com" }).filter({ hasText: lookupTarget(ORDER_ID) }),
  ).toHaveCount(1);
  for (const text of [BUYER, KEY, ORDER_ID, FREQUENT_BUYER])
    await expect(lookUps.filter({ hasText: text })).toHaveCount(0);
  // One entry per look-up, the second page's too.
  await expect(lookUps.filter({ hasText: lookupTarget(FREQUENT_BUYER) })).toHaveCount(3);
  await expect(lookUps.filter({ hasText: lookupTarget(FREQUENT_BUYER) }).filter({ hasText: '"page":2' })).toHaveCount(
    1,
  );
});

test("orders and deliveries fit a 360 px phone without sideways scrolling", async () => {
  const { page } = owner;
  await page.setViewportSize({ width: 360, height: 740 });
  for (const path of ["/admin/orders", "/admin/deliveries"]) {
    await gotoHydrated(page, `${origin}${path}`);
    if (path === "/admin/orders") {
      await page.getByRole("searchbox").fill(BUYER);
      await page.getByRole("button", { name: "Search orders" }).click();
      await expect(page.getByRole("heading", { name: `Buyer ${BUYER}` })).toBeVisible();
    }
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, path).toBeLessThanOrEqual(360);
    await expectNoAxeViolations(page);
  }
  await owner.context.close();
});

test("the request log has a line for each look-up and none of what was looked up", () => {
  const logs = server.logs();
  expect(logs).toMatch(/"method":"POST","url":"\/admin\/orders"/);
  for (const secret of [BUYER, BUYER.toUpperCase(), encodeURIComponent(BUYER), KEY, FREQUENT_BUYER, "NO-SUCH-KEY"])
    expect(logs, secret).not.toContain(secret);
});
