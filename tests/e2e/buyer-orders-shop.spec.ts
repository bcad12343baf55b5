import { expect, type Page } from "@playwright/test";
import type { ShopEmulator } from "../fakes/shop-emulator";
import { BUYERS, PARTIAL_SECRET, REFUNDED_SECRET } from "../fakes/shop-invoices";
import { type ReceivedMail, type SmtpReceiver, startSmtpReceiver } from "../fakes/smtp-receiver";
import type { AppServer } from "../support/app-server";
import { test } from "../support/own-client-address";
import { logLinesWithMessage, secretsInLog } from "../support/server-log";
import { type ShopConnectedApp, startShopConnectedApp } from "../support/shop-connected-app";
import { openStoreDatabase } from "../support/store-database";

// The buyer's orders read from the shop's invoices (issue 29), the code mailed through a real SMTP server on
// 127.0.0.1: one app, one shop emulator and one SMTP server for the whole file.
test.describe.configure({ mode: "serial", timeout: 60_000 });

const MAIL_FROM = "Kestrel Software <shop@example.com>";
const ON_ITS_WAY = "If there are orders for this address, a code is on its way. It works for 10 minutes.";
const NOT_SENT = "The email with your code could not be sent in time, so do not wait for it. Send a new code.";

let smtp: SmtpReceiver;
let connected: ShopConnectedApp;
let shop: ShopEmulator;
let server: AppServer;

/** Every address, code, link and key this file handled: none may appear in the server's log. */
const secrets = new Set<string>([
  BUYERS.alice,
  BUYERS.bob,
  BUYERS.many,
  REFUNDED_SECRET,
  PARTIAL_SECRET,
  "STUDIO-AAAA-1111",
  "STUDIO-BBBB-2222",
  "STUDIO-LICENCE-FILE-LINE",
]);

test.beforeAll(async () => {
  smtp = await startSmtpReceiver();
  connected = await startShopConnectedApp({
    env: {
      LOG_LEVEL: "info",
      // A plain local server: it offers no STARTTLS, so nodemailer speaks plain SMTP (smtp.server.ts).
      SMTP_URL: smtp.url,
      MAIL_FROM,
    },
  });
  ({ shop, app: server } = connected);
});

test.afterAll(async () => {
  await connected?.stop();
  await smtp?.close();
});

test.beforeEach(() => {
  smtp.received.length = 0;
});

test.use({ baseURL: undefined });

const url = (p: string) => `${server.url}${p}`;

async function askForCode(page: Page, email: string) {
  await page.goto(url("/orders"));
  await page.getByRole("textbox", { name: "Email address" }).fill(email);
  await page.getByRole("button", { name: "Send code" }).click();
  await expect(page.getByRole("status")).toHaveText(ON_ITS_WAY);
}

/** The one mail the SMTP server received (waits for it, then a worker poll longer to be sure no second one comes). */
async function theOneMail(timeout = 10_000): Promise<ReceivedMail & { code: string }> {
  await expect.poll(() => smtp.received.length, { timeout }).toBeGreaterThan(0);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  expect(smtp.received).toHaveLength(1);
  const mail = smtp.received[0] as ReceivedMail;
  const code = /Your code to see your orders: (\d{6})/.exec(mail.text)?.[1] ?? "";
  const link = /sign-in=([\w-]+)/.exec(mail.text)?.[1] ?? "";
  expect(code).toMatch(/^\d{6}$/);
  secrets.add(code);
  secrets.add(link);
  return { ...mail, code };
}

async function signIn(page: Page, code: string) {
  await page.getByRole("textbox", { name: "Code from the email" }).fill(code);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
}

const orderCards = (page: Page) => page.getByRole("listitem").filter({ has: page.getByRole("heading", { level: 2 }) });

function newestMail(): { id: string; status: string; attempts: number } {
  const db = openStoreDatabase(server.dataDir);
  try {
    return db.prepare("SELECT id, status, attempts FROM mail_outbox ORDER BY created_at DESC LIMIT 1").get() as {
      id: string;
      status: string;
      attempts: number;
    };
  } finally {
    db.close();
  }
}

const logLines = (message: string) => logLinesWithMessage(server.logs(), message);

test("the code arrives, signs in, the list shows the emulator's invoices", async ({ page, request }) => {
  await askForCode(page, BUYERS.alice);
  const mail = await theOneMail();
  expect(mail.rcptTo).toEqual([BUYERS.alice]);
  expect(mail.mailFrom).toBe("shop@example.com");
  expect(mail.subject).toBe(`Your code for your orders: ${mail.code}`);
  await signIn(page, mail.code);

  // Newest first, each status in plain words (one the shop does not document keeps its own spelling).
  const expected = [
    ["5001", "Paid", "$299.93"],
    ["5002", "Partly delivered", "$14.99"],
    ["5003", "Waiting for confirmations", "$14.99"],
    ["5004", "Waiting for payment", "$14.99"],
    ["5005", "Refunded", "$14.99"],
    ["5006", "Cancelled", "$14.99"],
    ["5007", "Expired", "$14.99"],
    ["5008", "Cancelled", "$14.99"],
    ["5009", "on_hold_review", "$14.99"],
  ];
  const cards = orderCards(page);
  await expect(cards).toHaveCount(expected.length);
  for (const [index, [id, status, amount]] of expected.entries()) {
    const card = cards.nth(index);
    const link = card.getByRole("link", { name: `Order ${id}` });
    await expect(link).toHaveAttribute("href", `/orders/${id}`);
    await expect(card.getByRole("definition").nth(2)).toHaveText(amount ?? "");
    await expect(card.getByRole("definition").nth(3)).toHaveText(status ?? "");
  }

  // Only the completed invoice shows what was delivered, and the shop's own invoice page.
  const completed = cards.nth(0);
  for (const key of ["STUDIO-AAAA-1111", "STUDIO-BBBB-2222", "STUDIO-LICENCE-FILE-LINE"])
    await expect(completed.getByText(key, { exact: true })).toBeVisible();
  await expect(completed.getByRole("link", { name: "Kestrel Studio" })).toHaveAttribute(
    "href",
    "https://downloads.example.com/studio-setup.exe",
  );
  await expect(completed.getByRole("link", { name: "Invoice at the shop" })).toHaveAttribute(
    "href",
    "https://kestrel.mysellauth.com/checkout/inv-5001",
  );
  for (const index of expected.keys()) {
    if (index === 0) continue;
    await expect(cards.nth(index).locator("code")).toHaveCount(0);
    await expect(cards.nth(index).getByRole("button", { name: /Copy/ })).toHaveCount(0);
  }
  const html = await page.content();
  expect(html).not.toContain(REFUNDED_SECRET);
  expect(html).not.toContain(PARTIAL_SECRET);

  // The order's own page answers for the proven address.
  await cards.nth(4).getByRole("link", { name: "Order 5005" }).click();
  await expect(page).toHaveURL(url("/orders/5005"));
  await expect(orderCards(page)).toHaveCount(1);
  await expect(orderCards(page)).toContainText("Refunded");

  expect((await request.get(url("/demo/mailbox"))).status()).toBe(404);
});

test("the SMTP server down then up: the code arrives once", async ({ page }) => {
  await smtp.close();
  const retriesBefore = logLines("mail not sent yet, will retry").length;
  await askForCode(page, BUYERS.bob);
  // The first attempt fails (connection refused) and is put off by mailRetryDelayMs(1): 2.5 to 5 s.
  await expect
    .poll(() => logLines("mail not sent yet, will retry").length, { timeout: 10_000 })
    .toBeGreaterThan(retriesBefore);
  expect(smtp.received).toHaveLength(0);
  await page.reload();
  await expect(page.getByRole("textbox", { name: "Code from the email" })).toBeVisible();
  await expect(page.getByText(NOT_SENT)).toHaveCount(0);
  await smtp.start();

  const mail = await theOneMail(15_000);
  expect(mail.rcptTo).toEqual([BUYERS.bob]);
  expect(newestMail()).toMatchObject({ status: "sent", attempts: 2 });
  await signIn(page, mail.code);
  const cards = orderCards(page);
  // Bob's two malformed invoices are skipped; his euro invoice is shown in euros.
  await expect(cards).toHaveCount(1);
  await expect(cards.nth(0)).toContainText("Order 6001");
  await expect(cards.nth(0)).toContainText("€9.50");
  await expect(cards.nth(0)).toContainText("Paid");
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  expect(smtp.received).toHaveLength(1);
});

for (const at of ["rcpt", "data"] as const) {
  test(`a 5xx at ${at.toUpperCase()}: logged and not retried forever`, async ({ page }) => {
    const email = at === "rcpt" ? BUYERS.many : BUYERS.alice;
    smtp.refuse({ at, code: 550, message: `5.1.1 <${email}>: Recipient address rejected` });
    await askForCode(page, email);
    await expect.poll(() => newestMail().status, { timeout: 10_000 }).toBe("failed");
    const mail = newestMail();
    expect(mail.attempts).toBe(1);
    const errors = logLines("mail given up: the SMTP server refused it permanently").filter((line) =>
      line.includes(`"mailId":"${mail.id}"`),
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('"responseCode":550');
    expect(errors[0]).toContain("[address]");
    expect(errors[0]).not.toContain(email);
    // Several worker polls later: no second attempt reached the server, the mail is still failed after one.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(smtp.received).toHaveLength(0);
    expect(newestMail()).toMatchObject({ id: mail.id, status: "failed", attempts: 1 });
    expect(server.logs()).not.toMatch(new RegExp(`"mailId":"${mail.id}"[^\\n]*will retry`));

    await page.reload();
    await expect(page.getByRole("alert")).toHaveText(NOT_SENT);
    await expect(page.getByRole("button", { name: "Send a new code" })).toBeVisible();
  });
}

test("a key the shop could not load says so, and Try again (a form, also without JavaScript) loads it", async ({
  page,
  browser,
  extraHTTPHeaders,
}) => {
  // A buyer of this test alone: the server keeps an address's orders for 60 s, so no earlier test's answer is reused.
  const carol = "carol@example.com";
  const key = "CAROL-KEY-7777-AAAA";
  secrets.add(carol);
  secrets.add(key);
  shop.buyerInvoices.push({
    ...(shop.buyerInvoices.find((i) => i.id === 6001) ?? {}),
    id: 8801,
    email: carol,
    currency: "USD",
    price: "14.99",
    serials: [key],
  });
  shop.failingInvoiceReads.add("8801");
  try {
    await askForCode(page, carol);
    const mail = await theOneMail();
    await signIn(page, mail.code);
    const card = orderCards(page).filter({ hasText: "Order 8801" });
    await expect(card).toContainText("Paid");
    await expect(card.getByText("The key for this order could not be loaded.")).toBeVisible();
    // Never an empty key: no key box and no copy button while the key is not known.
    await expect(card.locator("code")).toHaveCount(0);
    await expect(card.getByRole("button", { name: /Copy/ })).toHaveCount(0);

    // Still failing: Try again asks the shop again and says so again.
    const readsOf8801 = () => shop.requests.filter((r) => r.path.endsWith("/invoices/8801")).length;
    const before = readsOf8801();
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await card.getByRole("button", { name: "Try again" }).click();
    await expect.poll(readsOf8801).toBeGreaterThan(before);
    await expect(card.getByText("The key for this order could not be loaded.")).toBeVisible();

    // Without JavaScript, the same form posts and comes back to the page, which reads the invoice again. The read
    // keeps failing until that page has said so: a loaded machine may take over a second to get there, and a page
    // load a second after the last read tries the shop again itself.
    const noScript = await browser.newContext({
      javaScriptEnabled: false,
      storageState: await page.context().storageState(),
      extraHTTPHeaders,
    });
    try {
      const plain = await noScript.newPage();
      await plain.goto(url("/orders/8801"));
      const plainCard = orderCards(plain);
      await expect(plainCard.getByText("The key for this order could not be loaded.")).toBeVisible();
      shop.failingInvoiceReads.delete("8801");
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await plainCard.getByRole("button", { name: "Try again" }).click();
      await expect(plain).toHaveURL(url("/orders/8801"));
      await expect(plainCard.getByText(key, { exact: true })).toBeVisible();
      await expect(plainCard.getByText("The key for this order could not be loaded.")).toHaveCount(0);
    } finally {
      await noScript.close();
    }
    // With JavaScript, a reload shows the key now loaded (kept with the list).
    await page.reload();
    await expect(orderCards(page).filter({ hasText: "Order 8801" }).getByText(key, { exact: true })).toBeVisible();
  } finally {
    shop.failingInvoiceReads.delete("8801");
    shop.buyerInvoices.splice(
      shop.buyerInvoices.findIndex((i) => i.id === 8801),
      1,
    );
  }
});

test("the server's log carries no address, code, link or key of this file, only hashes of addresses", () => {
  const logs = server.logs();
  expect(logs).toContain('"msg":"orders sign-in: signed in"');
  expect(logs).toMatch(/"to":"id:[0-9a-f]{16}"/);
  const handled = [...secrets].filter((secret) => secret.length >= 6);
  expect(secretsInLog(logs, handled, { standalone: true })).toEqual([]);
});
