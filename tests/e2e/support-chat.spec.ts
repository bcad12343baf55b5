import type AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { axeBuilder, WCAG_TAGS } from "../support/axe";
import {
  CLOSING_MESSAGES,
  LONE_SURROGATE_MESSAGE,
  SUPPORT_CATEGORIES,
  SUPPORT_QUESTIONS,
  type SupportCategory,
} from "~/features/support-chat/support-chat";
import { openDatabase } from "../../db/client";
import { type ChatWebhookReceiver, startChatWebhookReceiver } from "../fakes/chat-webhook-receiver";
import { type AppServer, makeDataDir, startAppServer } from "../support/app-server";
import { solveCaptchaPayload } from "../support/captcha-solver";
import { gotoHydrated } from "../support/hydration";
import { openChat } from "../support/support-chat";

const GREETING = "Welcome to Kestrel Software support! Please select a support category below.";

const answersFor = (category: SupportCategory) =>
  SUPPORT_QUESTIONS[category].map((_, i) => `${category} answer ${i + 1}`);

/** The message list (the panel also has a screen-reader live region repeating the latest bot message). */
function conversation(page: Page) {
  return page.getByRole("dialog", { name: "Support Chat" }).getByRole("list", { name: "Conversation" });
}

/**
 * Each test is a different visitor (X-Forwarded-For from loopback is trusted, as behind a proxy), so the shared
 * server's per-IP limit of 5 support requests per 10 minutes applies per test, not to the whole suite.
 */
function newVisitorIp() {
  const octet = () => Math.floor(Math.random() * 254) + 1;
  return `10.${octet()}.${octet()}.${octet()}`;
}

async function actAsNewVisitor(page: Page) {
  await page.setExtraHTTPHeaders({ "X-Forwarded-For": newVisitorIp() });
}

async function chooseCategory(page: Page, category: SupportCategory) {
  const panel = page.getByRole("dialog", { name: "Support Chat" });
  await panel.getByRole("button", { name: "Select a category" }).click();
  await page.getByRole("menuitem", { name: category }).click();
}

async function answerAll(page: Page, answers: string[]) {
  const input = page.getByRole("textbox", { name: "Your answer" });
  for (const answer of answers) {
    await expect(input).toBeEnabled();
    await input.fill(answer);
    await input.press("Enter");
  }
}

/** Collects CSP violations: the chat (and its lazily loaded captcha) must not need any inline style or script. */
async function watchCspViolations(page: Page) {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

test.describe("support chat widget", () => {
  // Each submission solves a real proof-of-work challenge, which takes a few seconds on a busy machine.
  test.describe.configure({ timeout: 60_000 });
  test.beforeEach(async ({ page }) => actAsNewVisitor(page));
  for (const category of SUPPORT_CATEGORIES) {
    test(`a visitor completes a ${category} conversation and sees the closing message and the toast`, async ({
      page,
    }) => {
      const violations = await watchCspViolations(page);
      await page.goto("/");
      const panel = await openChat(page);
      const input = panel.getByRole("textbox", { name: "Your answer" });
      await expect(conversation(page).getByText(GREETING)).toBeVisible();
      await expect(input).toHaveAttribute("placeholder", "Select category first...");
      await expect(input).toBeDisabled();

      await chooseCategory(page, category);
      const messages = conversation(page);
      await expect(messages.getByRole("listitem").nth(1)).toContainText(category);
      await expect(messages.getByRole("listitem").nth(2)).toContainText(SUPPORT_QUESTIONS[category][0] ?? "");
      await expect(input).toHaveAttribute("placeholder", "Type your answer...");

      const answers = answersFor(category);
      await answerAll(page, answers);
      await expect(messages.getByText(CLOSING_MESSAGES[category])).toBeVisible({ timeout: 20_000 });
      await expect(page.getByText("Request submitted")).toBeVisible();
      await expect(page.getByText("Our support team will respond shortly.")).toBeVisible();

      // Every question was asked once, in order, and every message shows an hh:mm time.
      const items = messages.getByRole("listitem");
      const expected = [
        GREETING,
        category,
        ...SUPPORT_QUESTIONS[category].flatMap((q, i) => [q, answers[i] ?? ""]),
        CLOSING_MESSAGES[category],
      ];
      await expect(items).toHaveCount(expected.length);
      for (const [i, text] of expected.entries()) await expect(items.nth(i)).toContainText(text);
      for (const time of await messages.locator("time").allInnerTexts()) expect(time).toMatch(/^\d{2}:\d{2}$/);

      await expect(input).toBeDisabled();
      await expect(panel.getByRole("button", { name: "Send message" })).toBeDisabled();
      await expect(panel.getByRole("button", { name: "Retry sending" })).toHaveCount(0);
      expect(violations).toEqual([]);
    });
  }

  test("Enter sends, Shift+Enter starts a new line", async ({ page }) => {
    await page.goto("/");
    const panel = await openChat(page);
    await chooseCategory(page, "Product Support");
    const input = panel.getByRole("textbox", { name: "Your answer" });
    await input.click();
    await page.keyboard.type("Kestrel");
    await page.keyboard.press("Shift+Enter");
    await page.keyboard.type("Vault");
    await expect(input).toHaveValue("Kestrel\nVault");
    await page.keyboard.press("Enter");
    await expect(input).toHaveValue("");
    await expect(conversation(page).getByRole("listitem").nth(3).locator("p")).toHaveText("Kestrel\nVault");
    await expect(conversation(page).getByText(SUPPORT_QUESTIONS["Product Support"][1] ?? "")).toBeVisible();
  });

  test("an empty or whitespace-only answer cannot be sent, and nothing can be sent before a category", async ({
    page,
  }) => {
    await page.goto("/");
    const panel = await openChat(page);
    const input = panel.getByRole("textbox", { name: "Your answer" });
    const send = panel.getByRole("button", { name: "Send message" });
    await expect(input).toBeDisabled();
    await expect(send).toBeDisabled();
    await chooseCategory(page, "Key Reset");
    await expect(send).toBeDisabled();
    await input.fill("   \n  ");
    await expect(send).toBeDisabled();
    await input.press("Enter");
    await expect(panel.getByRole("listitem")).toHaveCount(3);
    await input.fill("Kestrel Vault");
    await expect(send).toBeEnabled();
    await send.click();
    await expect(panel.getByRole("listitem")).toHaveCount(5);
  });

  test("answers stop at 900 characters and a counter appears near the limit", async ({ page }) => {
    await page.goto("/");
    const panel = await openChat(page);
    await chooseCategory(page, "Product Support");
    const input = panel.getByRole("textbox", { name: "Your answer" });
    await input.fill("x".repeat(100));
    await expect(panel.getByText(/characters$/)).toHaveCount(0);
    await input.fill("x".repeat(800));
    await expect(panel.getByText("800/900 characters")).toBeVisible();
    await input.fill("x".repeat(950));
    await expect(input).toHaveValue("x".repeat(900));
    await expect(panel.getByText("900/900 characters")).toBeVisible();
  });

  test("is fully usable with the keyboard; Escape closes and returns focus to the round button", async ({ page }) => {
    await page.goto("/");
    const launcher = page.getByRole("button", { name: "Open support chat" });
    await page.waitForLoadState("networkidle");
    await launcher.focus();
    await page.keyboard.press("Enter");
    const panel = page.getByRole("dialog", { name: "Support Chat" });
    await expect(panel).toBeVisible();
    const trigger = panel.getByRole("button", { name: "Select a category" });
    await expect(trigger).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("menuitem", { name: "Product Support" })).toBeFocused();
    // Escape closes only the menu first.
    await page.keyboard.press("Escape");
    await expect(page.getByRole("menu")).toHaveCount(0);
    await expect(panel).toBeVisible();
    await expect(trigger).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("menuitem", { name: "Product Support" })).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(page.getByRole("menuitem", { name: "Purchase Support" })).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(page.getByRole("menuitem", { name: "Key Reset" })).toBeFocused();
    await page.keyboard.press("Enter");
    const input = panel.getByRole("textbox", { name: "Your answer" });
    await expect(input).toBeFocused();
    for (const answer of answersFor("Key Reset")) {
      await expect(input).toBeFocused();
      await page.keyboard.type(answer);
      await page.keyboard.press("Enter");
    }
    await expect(conversation(page).getByText(CLOSING_MESSAGES["Key Reset"])).toBeVisible({ timeout: 20_000 });
    await expect(panel.getByRole("button", { name: "New request" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();
    await expect(launcher).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(panel).toBeVisible();
    await panel.getByRole("button", { name: "Close support chat" }).click();
    await expect(panel).toBeHidden();
    await expect(launcher).toBeFocused();
  });

  test("the open panel has no axe violations, and neither does the category menu", async ({ page }) => {
    // Three axe runs take ~20 s alone here and past the default 60 s when the rest of the suite shares the machine.
    test.setTimeout(150_000);
    await page.goto("/");
    const panel = await openChat(page);
    const axe = () => axeBuilder(page).include("#support-chat-panel").withTags(WCAG_TAGS);
    const violations = async (builder: AxeBuilder) =>
      (await builder.analyze()).violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    expect(await violations(axe())).toEqual([]);
    await panel.getByRole("button", { name: "Select a category" }).click();
    await expect(page.getByRole("menu")).toBeVisible();
    expect(await violations(axeBuilder(page).include("[role=menu]").withTags(["wcag2a", "wcag2aa"]))).toEqual([]);
    await page.getByRole("menuitem", { name: "Purchase Support" }).click();
    await panel.getByRole("textbox", { name: "Your answer" }).fill("x".repeat(800));
    expect(await violations(axe())).toEqual([]);
  });

  test("the conversation survives client-side navigation and a reload; New request starts over", async ({ page }) => {
    await page.goto("/");
    const panel = await openChat(page);
    await chooseCategory(page, "Purchase Support");
    await answerAll(page, ["Kestrel Studio"]);
    await page.getByRole("banner").getByRole("link", { name: "FAQ", exact: true }).click();
    await expect(page).toHaveURL(/\/faq$/);
    await expect(conversation(page).getByText("Kestrel Studio")).toBeVisible();
    await page.reload();
    await openChat(page);
    await expect(conversation(page).getByText("Kestrel Studio")).toBeVisible();
    await expect(conversation(page).getByText(SUPPORT_QUESTIONS["Purchase Support"][1] ?? "")).toBeVisible();
    await answerAll(page, ["Card", "Declined", "me@example.com"]);
    await expect(conversation(page).getByText(CLOSING_MESSAGES["Purchase Support"])).toBeVisible({ timeout: 20_000 });
    await panel.getByRole("button", { name: "New request" }).click();
    await expect(panel.getByRole("listitem")).toHaveCount(2);
    await expect(conversation(page).getByText(GREETING)).toBeVisible();
    await expect(panel.getByRole("button", { name: "Select a category" })).toBeFocused();
  });

  test("when the server cannot accept the request, an error toast shows, the chat still closes, and Retry sending resubmits", async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    let attempts = 0;
    await page.route("**/api/support", async (route) => {
      attempts++;
      if (attempts === 1)
        await route.fulfill({
          status: 500,
          contentType: "application/json",
          body: JSON.stringify({ error: "Internal error" }),
        });
      else await route.continue();
    });
    await page.goto("/");
    const panel = await openChat(page);
    await chooseCategory(page, "Key Reset");
    await answerAll(page, answersFor("Key Reset"));
    await expect(page.getByText("Failed to send message. Please try again.")).toBeVisible({ timeout: 20_000 });
    await expect(page.getByText("Error", { exact: true })).toBeVisible();
    await expect(conversation(page).getByText(CLOSING_MESSAGES["Key Reset"])).toBeVisible();
    expect(errors.some((e) => e.includes("Support chat: the request could not be submitted"))).toBe(true);
    await expect(panel.getByRole("textbox", { name: "Your answer" })).toBeDisabled();
    const retry = panel.getByRole("button", { name: "Retry sending" });
    await expect(retry).toBeFocused();
    await retry.click();
    await expect(page.getByText("Request submitted")).toBeVisible({ timeout: 20_000 });
    await expect(retry).toHaveCount(0);
    await expect(conversation(page).getByText(CLOSING_MESSAGES["Key Reset"])).toHaveCount(1);
    expect(attempts).toBe(2);
  });

  test("the panel's code is not part of the page's start-up; it loads when the chat button is approached", async ({
    page,
  }) => {
    const panelChunks: string[] = [];
    page.on("request", (r) => /support-chat-panel/.test(r.url()) && panelChunks.push(r.url()));
    const response = await gotoHydrated(page, "/");
    const html = (await response?.text()) ?? "";
    expect(html).not.toMatch(/support-chat-panel|altcha/);
    expect(html).not.toContain('role="dialog"');
    expect(panelChunks).toEqual([]);
    await openChat(page);
    expect(panelChunks.length).toBeGreaterThan(0);
  });
});

/** The request's delivery status in a server's own SQLite database. */
async function deliveryStatus(dataDir: string, id: string) {
  const handle = openDatabase({ dataDir });
  try {
    return (
      await handle.db.selectFrom("support_requests").select("delivery_status").where("id", "=", id).executeTakeFirst()
    )?.delivery_status;
  } finally {
    await handle.close();
  }
}

test.describe("support requests reach the chat channel", () => {
  // These start their own servers and wait for the worker's backoff to reach a receiver that was down.
  test.describe.configure({ timeout: 120_000 });
  let receiver: ChatWebhookReceiver;
  const servers: AppServer[] = [];
  test.beforeEach(async () => {
    receiver = await startChatWebhookReceiver();
  });
  test.afterEach(async () => {
    for (const server of servers.splice(0)) await server.kill();
    await receiver.close();
  });

  test("a request made while the channel is down arrives once it is back", async ({ page }) => {
    const server = await startAppServer({ env: { SUPPORT_WEBHOOK_URL: receiver.url } });
    servers.push(server);
    await receiver.stop();
    await page.goto(server.url);
    await openChat(page);
    await chooseCategory(page, "Product Support");
    const answers = ["Kestrel Vault", "**It crashes** @everyone", "Reinstalled", "me@example.com"];
    const accepted = page.waitForResponse((r) => r.url().endsWith("/api/support") && r.request().method() === "POST");
    await answerAll(page, answers);
    const { id } = (await (await accepted).json()) as { id: string };
    await expect(page.getByText("Request submitted")).toBeVisible({ timeout: 20_000 });
    await expect(conversation(page).getByText(CLOSING_MESSAGES["Product Support"])).toBeVisible();
    await receiver.start();
    const [message] = await receiver.waitForDelivered(1, 60_000);
    expect(message?.content).toBe("New Product Support Request");
    expect(message?.embeds?.[0]?.description).toContain(
      "**Please describe the issue you are experiencing.**\n\\*\\*It crashes\\*\\* @everyone",
    );
    expect(message?.allowed_mentions).toEqual({ parse: [] });
    expect(receiver.requests.every((r) => r.problems.length === 0)).toBe(true);
    // Once the outbox records the delivery no later poll can send it again: it was delivered exactly once.
    await expect.poll(() => deliveryStatus(server.dataDir, id), { timeout: 20_000 }).toBe("delivered");
    expect(receiver.delivered()).toHaveLength(1);
  });

  test("a request accepted just before the server is killed is still delivered after a restart", async ({ page }) => {
    const dataDir = makeDataDir();
    const env = { SUPPORT_WEBHOOK_URL: receiver.url };
    const first = await startAppServer({ env, dataDir });
    servers.push(first);
    await receiver.stop();
    await page.goto(first.url);
    await openChat(page);
    await chooseCategory(page, "Key Reset");
    const accepted = page.waitForResponse((r) => r.url().endsWith("/api/support") && r.request().method() === "POST");
    await answerAll(page, answersFor("Key Reset"));
    const response = await accepted;
    expect(response.status()).toBe(202);
    const { id } = (await response.json()) as { id: string };
    await first.kill();
    expect(receiver.delivered()).toHaveLength(0);
    await receiver.start();
    const second = await startAppServer({ env, dataDir });
    servers.push(second);
    const [message] = await receiver.waitForDelivered(1, 60_000);
    expect(message?.embeds?.[0]?.footer?.text).toBe(`Request ID: ${id}`);
    expect(message?.embeds?.[0]?.title).toBe("Support Request - Key Reset");
  });
});

test.describe("POST /api/support", () => {
  const keyReset = { category: "Key Reset", answers: ["Kestrel Vault", "New PC", "me@example.com"] };
  const headers = () => ({ "X-Forwarded-For": newVisitorIp() });
  const freshPayload = async (request: APIRequestContext) => {
    const challenge = await request.get("/api/captcha/challenge");
    expect(challenge.status()).toBe(200);
    return solveCaptchaPayload(await challenge.json());
  };

  test("stores the request before answering 202, and accepts each captcha payload once", async ({ request }) => {
    const altcha = await freshPayload(request);
    const accepted = await request.post("/api/support", { data: { ...keyReset, altcha }, headers: headers() });
    expect(accepted.status()).toBe(202);
    const { id, status } = (await accepted.json()) as { id: string; status: string };
    // The suite's server has no SUPPORT_WEBHOOK_URL, so the request waits for an operator's retry.
    expect(status).toBe("no_channel");
    const handle = openDatabase({ dataDir: process.env.E2E_DATA_DIR ?? "" });
    try {
      const row = await handle.db
        .selectFrom("support_requests")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        category: "Key Reset",
        delivery_status: "no_channel",
        answers: JSON.stringify(keyReset.answers),
      });
    } finally {
      await handle.close();
    }
    const replay = await request.post("/api/support", { data: { ...keyReset, altcha }, headers: headers() });
    expect(replay.status()).toBe(403);
    expect(await replay.json()).toEqual({ error: "Captcha already used. Please try again." });
  });

  const invalid: Array<[string, Record<string, unknown>, string]> = [
    ["an unknown category", { category: "Billing", answers: ["a"] }, "Unknown support category"],
    ["too few answers", { category: "Key Reset", answers: ["a", "b"] }, "Wrong number of answers for this category"],
    ["a whitespace-only answer", { category: "Key Reset", answers: ["a", "  ", "c"] }, "Answers cannot be empty"],
    [
      "an answer over 900 characters",
      { category: "Key Reset", answers: ["a", "x".repeat(901), "c"] },
      "Answers are at most 900 characters",
    ],
    ["answers that are not text", { category: "Key Reset", answers: [1, 2, 3] }, "Answers must be text"],
    [
      "an answer with a lone surrogate",
      { category: "Key Reset", answers: ["x\uD83D end", "b", "c"] },
      LONE_SURROGATE_MESSAGE,
    ],
  ];
  for (const [name, body, error] of invalid) {
    test(`answers 400 {error} for ${name}, writing nothing`, async ({ request }) => {
      const response = await request.post("/api/support", { data: { ...body, altcha: "unused" }, headers: headers() });
      expect(response.status()).toBe(400);
      expect(await response.json()).toEqual({ error });
    });
  }

  test("answers 4xx {error} for a missing or forged captcha, a non-JSON body and malformed JSON", async ({
    request,
  }) => {
    const missing = await request.post("/api/support", { data: keyReset, headers: headers() });
    expect(missing.status()).toBe(400);
    expect(await missing.json()).toEqual({ error: "Captcha payload missing" });
    const forged = await request.post("/api/support", {
      data: { ...keyReset, altcha: Buffer.from("{}").toString("base64") },
      headers: headers(),
    });
    expect(forged.status()).toBe(403);
    expect(await forged.json()).toHaveProperty("error");
    const form = await request.post("/api/support", { form: { category: "Key Reset" }, headers: headers() });
    expect(form.status()).toBe(415);
    const malformed = await request.post("/api/support", {
      data: "{not json",
      headers: { ...headers(), "Content-Type": "application/json" },
    });
    expect(malformed.status()).toBe(400);
    expect(await malformed.json()).toHaveProperty("error");
  });
});
