import crypto from "node:crypto";
import { type Browser, expect, type Page } from "@playwright/test";
import { axeBuilder } from "../support/axe";
import { CLOSING_MESSAGES } from "~/features/support-chat/support-chat";
import { type ReceivedMail, type SmtpReceiver, startSmtpReceiver } from "../fakes/smtp-receiver";
import { type AppServer, startAppServer } from "../support/app-server";
import { runCli } from "../support/cli";
import { test } from "../support/own-client-address";
import { openChat } from "../support/support-chat";
import { secretsInLog } from "../support/server-log";
import { openStoreDatabase } from "../support/store-database";

// Issue 30's mail: a request whose last answer is an address gets its private link by mail, and a team reply the
// visitor did not see (the page closed) arrives by mail once. One app and one real SMTP server on 127.0.0.1; the wait
// before an unseen reply is mailed is 1 s here (SUPPORT_UNSEEN_REPLY_MAIL_AFTER_SECONDS) instead of 2 minutes.
test.describe.configure({ mode: "serial", timeout: 90_000 });

const MAIL_FROM = "Kestrel Software <shop@example.com>";
let smtp: SmtpReceiver;
let server: AppServer;

test.beforeAll(async () => {
  smtp = await startSmtpReceiver();
  server = await startAppServer({
    env: {
      LOG_LEVEL: "info",
      SMTP_URL: smtp.url,
      MAIL_FROM,
      SUPPORT_UNSEEN_REPLY_MAIL_AFTER_SECONDS: "1",
    },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

test.use({ baseURL: undefined });

const url = (p: string) => `${server.url}${p}`;
const uniqueAddress = (name: string) => `${name}-${crypto.randomBytes(4).toString("hex")}@example.com`;

function query<T>(sql: string, ...params: string[]): T[] {
  const db = openStoreDatabase(server.dataDir);
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

const mailsTo = (to: string, subject?: string | RegExp) =>
  smtp.received.filter(
    (m) =>
      m.rcptTo.includes(to) &&
      (subject === undefined || (typeof subject === "string" ? m.subject === subject : subject.test(m.subject))),
  );

async function theMailTo(to: string, subject: string | RegExp): Promise<ReceivedMail> {
  await expect.poll(() => mailsTo(to, subject).length, { timeout: 15_000 }).toBeGreaterThan(0);
  return mailsTo(to, subject)[0] as ReceivedMail;
}

/** When the unseen-reply mailer's lease runs out: each of its passes (every 250 ms here) pushes it on. */
const leaseExpiry = () =>
  query<{ expires_at: string }>("SELECT expires_at FROM leases WHERE name = 'support-unseen-reply-mail'")[0]
    ?.expires_at ?? "";

/** A Key Reset request through the chat panel, with `contact` as the last answer. */
async function requestKeyReset(page: Page, contact: string) {
  await page.goto(url("/"));
  const panel = await openChat(page);
  await panel.getByRole("button", { name: "Select a category" }).click();
  await page.getByRole("menuitem", { name: "Key Reset" }).click();
  const input = panel.getByRole("textbox", { name: "Your answer" });
  for (const answer of ["Kestrel Vault", "New PC", contact]) {
    await expect(input).toBeEnabled();
    await input.fill(answer);
    await input.press("Enter");
  }
  const messages = panel.getByRole("list", { name: "Conversation" });
  await expect(messages.getByText(CLOSING_MESSAGES["Key Reset"])).toBeVisible({ timeout: 30_000 });
  // Stored: the toast comes with the server's answer.
  await expect(page.getByText("Request submitted")).toBeVisible({ timeout: 30_000 });
}

test("an email answer brings the private link by mail; an unseen team reply arrives by mail once", async ({
  browser,
}) => {
  const email = uniqueAddress("visitor");
  const context = await browser.newContext();
  const page = await context.newPage();
  await requestKeyReset(page, email);

  const linkMail = await theMailTo(email, "Your support request: Key Reset");
  expect(linkMail.mailFrom).toBe("shop@example.com");
  const link = /(http\S+\/support\/conversation\?key=[\w-]{43})/.exec(linkMail.text)?.[1] ?? "";
  expect(link.startsWith(`http://localhost:${server.port}/support/conversation?key=`)).toBe(true);
  const [conversation] = query<{ id: string }>("SELECT id FROM support_conversations WHERE visitor_email = ?", email);
  expect(conversation).toBeDefined();
  const id = conversation?.id ?? "";

  // The visitor leaves; then the team answers (no bot here: from the CLI).
  await context.close();
  expect(
    await runCli(server.dataDir, "support", "reply", id, "Your key is reset. Restart the app.", "--as", "Ada"),
  ).toContain(`Replied to conversation ${id} as Ada`);

  const replyMail = await theMailTo(email, "New reply to your support request");
  expect(replyMail.text).toContain("You have not read these replies on the page yet:");
  expect(replyMail.text).toMatch(/Ada · .+\nYour key is reset\. Restart the app\./);
  const replyLink = /(http\S+\/support\/conversation\?key=[\w-]{43})/.exec(replyMail.text)?.[1] ?? "";
  expect(replyLink).not.toBe("");
  expect(replyLink).not.toBe(link);

  // Once: the mailer passes twice more (its lease moves on) and no second mail comes.
  const seenAt = leaseExpiry();
  await expect.poll(leaseExpiry, { timeout: 10_000 }).not.toBe(seenAt);
  const passedOnce = leaseExpiry();
  await expect.poll(leaseExpiry, { timeout: 10_000 }).not.toBe(passedOnce);
  expect(mailsTo(email, "New reply to your support request")).toHaveLength(1);
  expect(mailsTo(email)).toHaveLength(2);

  // Neither the address nor a key ever reaches the server's log.
  const keys = [link.split("key=")[1] ?? email, replyLink.split("key=")[1] ?? email];
  expect(secretsInLog(server.logs(), [email, ...keys])).toEqual([]);
});

test("a chat username gets no mail", async ({ page }) => {
  const username = `@kestrel_${crypto.randomBytes(3).toString("hex")}`;
  await requestKeyReset(page, username);
  const [conversation] = query<{ id: string; visitor_email: string | null }>(
    "SELECT id, visitor_email FROM support_conversations ORDER BY created_at DESC LIMIT 1",
  );
  expect(conversation?.visitor_email).toBeNull();
  const linkMails = query<{ n: number }>("SELECT count(*) AS n FROM mail_outbox WHERE kind = 'support-link'")[0]?.n;
  await runCli(server.dataDir, "support", "reply", conversation?.id ?? "", "Hello there.");
  const seenAt = leaseExpiry();
  await expect.poll(leaseExpiry, { timeout: 10_000 }).not.toBe(seenAt);
  expect(query<{ n: number }>("SELECT count(*) AS n FROM mail_outbox WHERE kind = 'support-link'")[0]?.n).toBe(
    linkMails,
  );
  expect(query("SELECT id FROM mail_outbox WHERE kind = 'support-reply' AND text_body LIKE '%Hello there.%'")).toEqual(
    [],
  );
});

test("a signed-in buyer finds their conversations at /orders and opens one on this browser", async ({
  page,
  browser,
}) => {
  const email = uniqueAddress("buyer");
  await requestKeyReset(page, email);
  await theMailTo(email, "Your support request: Key Reset");
  // A paid demo order of the address, so /orders mails a sign-in code to it.
  const orderId = crypto.randomUUID();
  const db = openStoreDatabase(server.dataDir);
  try {
    db.prepare(
      `INSERT INTO orders (id, provider, provider_invoice_id, product_id, variant_id, quantity, amount_cents, status,
         created_at, buyer_email, delivered_key) VALUES (?, 'demo', ?, 446894, 653023, 1, 29993, 'completed', ?, ?, ?)`,
    ).run(orderId, `demo-${orderId}`, new Date().toISOString(), email, "DEMO-KEY-1");
  } finally {
    db.close();
  }
  // The request's browser key is this context's; a new one must come from /orders.
  await page.context().clearCookies();

  await page.goto(url("/orders"));
  await page.getByRole("textbox", { name: "Email address" }).fill(email);
  await page.getByRole("button", { name: "Send code" }).click();
  const codeMail = await theMailTo(email, /^Your code for your orders: \d{6}$/);
  const code = /Your code to see your orders: (\d{6})/.exec(codeMail.text)?.[1] ?? "";
  await page.getByRole("textbox", { name: "Code from the email" }).fill(code);
  await page.getByRole("button", { name: "Sign in" }).click();

  const list = page.getByRole("region", { name: "Your support conversations" });
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list.getByRole("listitem")).toContainText("Key Reset");
  await expect(list.getByRole("listitem")).toContainText("Open");
  await expect(list.getByRole("listitem").locator("time")).toHaveCount(2);
  const axe = await axeBuilder(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  await list.getByRole("button", { name: "Open conversation: Key Reset" }).click();
  await expect(page).toHaveURL(url("/support/conversation"));
  const cookie = (await page.context().cookies()).find((c) => c.name === "kestrel_support_conversation");
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.value).toMatch(/^[\w-]{43}$/);
  // The chat on the next page asks for it: the hint is set beside the key.
  const hint = (await page.context().cookies()).find((c) => c.name === "kestrel_support_has_conversation");
  expect(hint).toMatchObject({ value: "1", httpOnly: false });
  // The key opens this very conversation (the server keeps only its hash).
  const hash = crypto.createHash("sha256").update(`kestrel-support-conversation:${cookie?.value}`).digest("hex");
  const [key] = query<{ conversation_id: string; purpose: string }>(
    "SELECT k.conversation_id, k.purpose FROM support_conversation_keys k JOIN support_conversations c ON c.id = k.conversation_id WHERE k.key_hash = ? AND c.visitor_email = ?",
    hash,
    email,
  );
  expect(key?.purpose).toBe("browser");

  // The same form works without JavaScript (a plain POST answered 303), and gives that browser a key of its own.
  const session = (await page.context().cookies()).find((c) => c.name === "kestrel_orders_session");
  const other = await openWithoutJavaScript(browser, { name: "kestrel_orders_session", value: session?.value ?? "" });
  expect(other?.value).toMatch(/^[\w-]{43}$/);
  expect(other?.value).not.toBe(cookie?.value);
});

/** Opens the conversation from /orders in a browser without JavaScript, signed in with the same session cookie. */
async function openWithoutJavaScript(browser: Browser, session: { name: string; value: string }) {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    await context.addCookies([{ ...session, url: url("/") }]);
    const page = await context.newPage();
    await page.goto(url("/orders"));
    await page.getByRole("button", { name: "Open conversation: Key Reset" }).click();
    await expect(page).toHaveURL(url("/support/conversation"));
    return (await context.cookies()).find((c) => c.name === "kestrel_support_conversation");
  } finally {
    await context.close();
  }
}
