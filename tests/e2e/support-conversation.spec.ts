import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { axeBuilder, WCAG_TAGS } from "../support/axe";
import { CLOSING_MESSAGES, SUPPORT_QUESTIONS } from "~/features/support-chat/support-chat";
import { resolveConversation } from "~/features/support-conversation/conversation-store.server";
import { CONVERSATION_COOKIE, CONVERSATION_HINT_COOKIE } from "~/features/support-conversation/support-conversation";
import fc from "fast-check";
import { openDatabase } from "../../db/client";
import { type DiscordEmulator, startDiscordEmulator } from "../fakes/discord-emulator";
import { type AppServer, startAppServer } from "../support/app-server";
import { solveCaptchaPayload } from "../support/captcha-solver";
import { gotoHydrated } from "../support/hydration";
import { openChat, sendKeyResetFromChat } from "../support/support-chat";
import { openConversationThroughApi } from "../support/support-conversation-client";
import { secretsInLog } from "../support/server-log";

// Support that answers back (issue 30), end to end: the app posts requests through the Discord emulator's bot routes
// and reads the team's replies from the threads, as it would from Discord.

const KEY_RESET_ANSWERS = ["Kestrel Vault", "Moved to a new laptop", "visitor@example.com"];

function newVisitorIp() {
  const octet = () => Math.floor(Math.random() * 254) + 1;
  return `10.${octet()}.${octet()}.${octet()}`;
}

async function axeViolations(page: Page, include: string) {
  const results = await axeBuilder(page).include(include).withTags(WCAG_TAGS).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

function chatList(page: Page) {
  return page.getByRole("dialog", { name: "Support Chat" }).getByRole("list", { name: "Conversation" });
}

/** A Key Reset request through the API (captcha solved), in `request`'s cookie jar: it gets the conversation cookie. */
async function requestKeyReset(request: APIRequestContext, baseUrl: string, locale?: string) {
  const challenge = await request.get(`${baseUrl}/api/captcha/challenge`);
  const altcha = await solveCaptchaPayload(await challenge.json());
  const response = await request.post(`${baseUrl}/api/support`, {
    data: { category: "Key Reset", answers: KEY_RESET_ANSWERS, altcha, ...(locale ? { locale } : {}) },
    headers: { "X-Forwarded-For": newVisitorIp() },
  });
  expect(response.status()).toBe(202);
  return (await response.json()) as { id: string; conversation: { id: string; link: string } };
}

test.describe("support that answers back, with the team in Discord", () => {
  // Serial: the tests share one app and emulator, and each finds its request's thread as the channel's newest.
  test.describe.configure({ mode: "serial", timeout: 120_000 });
  let emulator: DiscordEmulator;
  let server: AppServer;
  let channelId: string;

  test.beforeAll(async () => {
    emulator = await startDiscordEmulator();
    channelId = emulator.addChannel({ kind: "text", name: "support" });
    server = await startAppServer({
      env: {
        DISCORD_BOT_TOKEN: emulator.token,
        DISCORD_SUPPORT_CHANNEL_ID: channelId,
        DISCORD_API_BASE: emulator.apiBase,
        // Every request's log line, to show the link's key and the browser key never reach the log.
        LOG_LEVEL: "info",
      },
    });
  });

  test.afterAll(async () => {
    await server?.stop();
    await emulator?.close();
  });

  /** The thread of the request that was sent `threadsBefore` threads ago: the one the bot opened for it. */
  async function threadOfNextRequest(threadsBefore: number): Promise<string> {
    await expect.poll(() => emulator.threadsOf(channelId).length, { timeout: 30_000 }).toBe(threadsBefore + 1);
    const thread = emulator.threadsOf(channelId).at(-1);
    if (!thread) throw new Error("no thread");
    return thread.id;
  }

  /** The conversation of a thread: the last message the visitor's page reported seen, and the last there is. */
  async function seenAndLast(threadId: string) {
    const handle = openDatabase({ dataDir: server.dataDir });
    try {
      const row = await handle.db
        .selectFrom("support_conversations as c")
        .innerJoin("support_conversation_messages as m", "m.conversation_id", "c.id")
        .select(["c.visitor_seen_seq as seen", (eb) => eb.fn.max("m.seq").as("last")])
        .where("c.thread_id", "=", threadId)
        .groupBy("c.visitor_seen_seq")
        .executeTakeFirst();
      return { seen: Number(row?.seen), last: Number(row?.last) };
    } finally {
      await handle.close();
    }
  }

  const teamTexts = (threadId: string) => emulator.messagesOf(threadId).map((m) => m.content);

  test("a reply posted in the thread appears in the open panel with the replier's name; a note does not; the visitor answers into the thread; a reload and a new browser show it all", async ({
    page,
    browser,
  }) => {
    await page.setExtraHTTPHeaders({ "X-Forwarded-For": newVisitorIp() });
    const threadsBefore = emulator.threadsOf(channelId).length;
    await gotoHydrated(page, `${server.url}/`);
    const panel = await openChat(page);
    const list = await sendKeyResetFromChat(page, panel, KEY_RESET_ANSWERS);
    const input = panel.getByRole("textbox", { name: "Your answer" });
    // The questionnaire is as it was: the input closes; the panel says the team answers here and gives the link.
    await expect(panel.getByText("Our team will answer here. You can reply once they have.")).toBeVisible();
    const privateLink = panel.getByRole("link", { name: /\/support\/conversation\?key=/ });
    await expect(privateLink).toBeVisible();
    await expect(input).toBeDisabled();

    const threadId = await threadOfNextRequest(threadsBefore);
    emulator.postNote(threadId, "checking the licence server first");
    emulator.postAsTeam(threadId, "Hi! Your key is reset. Details: https://kestrel.example/help/keys", {
      author: { username: "mara" },
    });
    const reply = list.getByRole("listitem").filter({ hasText: "Your key is reset." });
    await expect(reply).toBeVisible();
    await expect(reply).toContainText("mara");
    await expect(reply.locator("time")).toHaveText(/^\d{2}:\d{2}$/);
    const link = reply.getByRole("link", { name: "https://kestrel.example/help/keys" });
    await expect(link).toHaveAttribute("rel", "nofollow ugc noopener");
    expect(await link.getAttribute("target")).toBeNull();
    // Screen readers hear it from the panel's live region, with the replier's name.
    await expect(panel.locator("[aria-live=polite]")).toHaveText(/^mara: Hi! Your key is reset\./);
    // What the open panel showed counts as seen: no unseen-reply email for it.
    await expect.poll(() => seenAndLast(threadId)).toEqual({ seen: 10, last: 10 });
    // The note came before the reply and was read with it, so it would show by now if it could.
    await expect(list.getByText("checking the licence server first")).toHaveCount(0);
    expect(await axeViolations(page, "#support-chat-panel")).toEqual([]);

    // The input opens again: the visitor's answer lands in the thread.
    const message = panel.getByRole("textbox", { name: "Your message" });
    await expect(message).toBeEnabled();
    await message.fill("Thank you, it works again.");
    await message.press("Enter");
    await expect(message).toHaveValue("");
    await expect(list.getByText("Thank you, it works again.")).toBeVisible();
    await expect.poll(() => teamTexts(threadId).some((text) => text.includes("Thank you, it works again."))).toBe(true);

    // A reload, then another page: the whole conversation is still there.
    await page.reload();
    await openChat(page);
    for (const text of [CLOSING_MESSAGES["Key Reset"], "Your key is reset.", "Thank you, it works again."])
      await expect(chatList(page).getByText(text, { exact: false })).toBeVisible();

    // A browser restart keeps the cookie but not the tab's sessionStorage: the chat on any page shows it all.
    const restarted = await browser.newContext({
      storageState: { cookies: await page.context().cookies(), origins: [] },
    });
    const again = await restarted.newPage();
    await gotoHydrated(again, `${server.url}/faq`);
    await openChat(again);
    const items = chatList(again).getByRole("listitem");
    await expect(items.filter({ hasText: "Thank you, it works again." })).toBeVisible();
    await expect(items.filter({ hasText: SUPPORT_QUESTIONS["Key Reset"][0] ?? "" })).toBeVisible();
    await expect(items.filter({ hasText: "mara" })).toBeVisible();
    await restarted.close();

    // The conversation page shows the same, live, and passes axe.
    await gotoHydrated(page, `${server.url}/support/conversation`);
    await expect(page.getByRole("heading", { level: 1, name: "Your support conversation" })).toBeVisible();
    emulator.postAsTeam(threadId, "Glad to hear it. Anything else?", { author: { username: "mara" } });
    const pageList = page.getByRole("list", { name: "Conversation" });
    await expect(pageList.getByText("Glad to hear it.")).toBeVisible();
    expect(await axeViolations(page, "main")).toEqual([]);
    // Answering on the page with JavaScript: the message shows, the box empties, and it reaches the thread.
    const box = page.getByRole("textbox", { name: "Your message" });
    await box.fill("No, that is all. Thanks!");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(pageList.getByText("No, that is all. Thanks!")).toBeVisible();
    await expect(box).toHaveValue("");
    await expect.poll(() => teamTexts(threadId).some((text) => text.includes("No, that is all. Thanks!"))).toBe(true);
  });

  test("with the event stream refused, replies come by polling; a resolved conversation says so and offers New request", async ({
    page,
  }) => {
    const threadsBefore = emulator.threadsOf(channelId).length;
    // Sent from another tab of this browser: this tab's panel starts fresh and shows the browser's conversation.
    const { conversation } = await requestKeyReset(page.context().request, server.url);
    const threadId = await threadOfNextRequest(threadsBefore);
    const refused: string[] = [];
    await page.route("**/api/support/conversation/events*", (route) => {
      refused.push(route.request().url());
      return route.fulfill({ status: 503, contentType: "text/plain", body: "no streams here" });
    });
    await gotoHydrated(page, `${server.url}/faq`);
    const panel = await openChat(page);
    const list = chatList(page);
    await expect(list.getByText(CLOSING_MESSAGES["Key Reset"])).toBeVisible();
    await expect(panel.getByRole("button", { name: "Select a category" })).toHaveCount(0);
    expect(refused.length).toBeGreaterThan(0);

    emulator.postAsTeam(threadId, "Polling works too.", { author: { username: "mara" } });
    await expect(list.getByRole("listitem").filter({ hasText: "Polling works too." })).toContainText("mara");

    // The team resolves it (here straight in the database, as the relay does when the thread is closed).
    const handle = openDatabase({ dataDir: server.dataDir });
    try {
      expect(await resolveConversation(handle.db, conversation.id)).toBe(true);
    } finally {
      await handle.close();
    }
    await expect(
      panel.getByText("This conversation is resolved. Start a new request if you need more help."),
    ).toBeVisible();
    await expect(panel.getByRole("textbox", { name: "Your answer" })).toBeDisabled();
    await panel.getByRole("button", { name: "New request" }).click();
    await expect(panel.getByRole("button", { name: "Select a category" })).toBeFocused();
    await expect(list.getByText("Polling works too.")).toHaveCount(0);
  });

  test("without JavaScript: the conversation page shows the conversation and answers go in by the form", async ({
    browser,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const threadsBefore = emulator.threadsOf(channelId).length;
    await requestKeyReset(context.request, server.url);
    const threadId = await threadOfNextRequest(threadsBefore);
    const page = await context.newPage();
    const response = await page.goto(`${server.url}/support/conversation`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["cache-control"]).toBe("no-store");
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute("content", /noindex/);
    const list = page.getByRole("list", { name: "Conversation" });
    await expect(list.getByText(KEY_RESET_ANSWERS[1] ?? "")).toBeVisible();
    await expect(list.getByText(CLOSING_MESSAGES["Key Reset"])).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Your message" })).toHaveCount(0);

    emulator.postAsTeam(threadId, "Which version of Kestrel Vault is it?", { author: { username: "jonas" } });
    await expect(async () => {
      await page.reload();
      await expect(list.getByText("Which version of Kestrel Vault is it?")).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await expect(list.getByRole("listitem").filter({ hasText: "Which version" })).toContainText("jonas");

    await page.getByRole("textbox", { name: "Your message" }).fill("Version 4.2, on Windows.");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(page).toHaveURL(`${server.url}/support/conversation`);
    await expect(list.getByText("Version 4.2, on Windows.")).toBeVisible();
    await expect.poll(() => teamTexts(threadId).some((text) => text.includes("Version 4.2, on Windows."))).toBe(true);

    // A message too long is refused on the page, not with an error page, and what was typed comes back in the box.
    const tooLong = `${"y".repeat(900)}z`;
    const refused = await context.request.post(`${server.url}/support/conversation`, {
      form: { text: tooLong },
      headers: { Origin: server.url },
      maxRedirects: 0,
    });
    expect(refused.status()).toBe(400);
    const refusedPage = await refused.text();
    expect(refusedPage).toContain("Write a message of at most 900 characters.");
    expect(refusedPage).toContain(`>${tooLong}</textarea>`);
    // React Router refuses a foreign Origin itself (400); one without Origin or Referer is refused by the page (403).
    const post = (headers: Record<string, string>) =>
      context.request.post(`${server.url}/support/conversation`, { form: { text: "from elsewhere" }, headers });
    expect((await post({ Origin: "https://evil.example" })).status()).toBe(400);
    const noOrigin = await post({});
    expect(noOrigin.status()).toBe(403);
    expect(await noOrigin.text()).toContain("This form must be sent from this site.");
    expect(teamTexts(threadId).some((text) => text.includes("from elsewhere"))).toBe(false);
    await context.close();
  });

  test("the private link opens the conversation in a fresh browser and the address loses the key", async ({
    browser,
  }) => {
    // Sent from a German page by another browser (the visitor's phone, say); only the link travels.
    const requester = await browser.newContext();
    const { conversation } = await requestKeyReset(requester.request, server.url, "de");
    await requester.close();
    expect(conversation.link).toContain("/de/support/conversation?key=");
    const linkPath = new URL(conversation.link);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}${linkPath.pathname}${linkPath.search}`);
    await expect(page).toHaveURL(`${server.url}/de/support/conversation`);
    await expect(page.getByRole("heading", { level: 1, name: "Ihr Support-Gespräch" })).toBeVisible();
    await expect(page.getByRole("list", { name: "Unterhaltung" }).getByText(KEY_RESET_ANSWERS[1] ?? "")).toBeVisible();
    const cookie = (await context.cookies()).find((c) => c.name === CONVERSATION_COOKIE);
    expect(cookie?.httpOnly).toBe(true);
    // The chat on this browser's next page asks for the conversation: the link set the hint too (no secret in it).
    const hint = (await context.cookies()).find((c) => c.name === CONVERSATION_HINT_COOKIE);
    expect(hint).toMatchObject({ value: "1", httpOnly: false, sameSite: "Lax", path: "/" });
    expect(hint?.expires).toBeCloseTo(cookie?.expires ?? 0, -1);
    const linkKey = linkPath.searchParams.get("key") ?? "";
    expect(server.logs()).toContain("/de/support/conversation");
    expect(secretsInLog(server.logs(), [linkKey, cookie?.value ?? ""])).toEqual([]);
    await context.close();

    // A key that opens nothing is a helpful 404, and sets no cookie.
    const stranger = await browser.newContext();
    const strangerPage = await stranger.newPage();
    const wrongKey = await strangerPage.goto(`${server.url}/support/conversation?key=${"A".repeat(43)}`);
    expect(wrongKey?.status()).toBe(404);
    await expect(strangerPage.getByRole("heading", { level: 1, name: "No conversation here" })).toBeVisible();
    expect((await stranger.cookies()).some((c) => c.name === CONVERSATION_COOKIE)).toBe(false);
    await stranger.close();
  });

  test("a wrong or missing cookie gets 404: nobody reads another's conversation", async ({ browser }) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const none = await page.goto(`${server.url}/support/conversation`);
    expect(none?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "No conversation here" })).toBeVisible();
    await expect(page.getByText("Open the support chat to start one", { exact: false })).toBeVisible();
    expect(await axeViolations(page, "main")).toEqual([]);

    await context.addCookies([{ name: CONVERSATION_COOKIE, value: "B".repeat(43), url: server.url }]);
    const wrong = await page.goto(`${server.url}/support/conversation`);
    expect(wrong?.status()).toBe(404);
    expect((await context.request.get(`${server.url}/api/support/conversation`)).status()).toBe(404);
    await context.close();
  });

  test("a key that opens no conversation clears the chat's hint, so the next page does not ask again", async ({
    browser,
  }) => {
    const context = await browser.newContext();
    const hinted = async () => (await context.cookies()).some((c) => c.name === CONVERSATION_HINT_COOKIE);
    const stale = [
      { name: CONVERSATION_COOKIE, value: "C".repeat(43), url: server.url },
      { name: CONVERSATION_HINT_COOKIE, value: "1", url: server.url },
    ];
    await context.addCookies(stale);
    expect((await context.request.get(`${server.url}/api/support/conversation`)).status()).toBe(404);
    expect(await hinted()).toBe(false);
    // The conversation page that finds none clears it as well.
    await context.addCookies(stale);
    const page = await context.newPage();
    expect((await page.goto(`${server.url}/support/conversation`))?.status()).toBe(404);
    expect(await hinted()).toBe(false);
    await context.close();
  });

  test("opening the chat without a conversation sends no request for it and logs no failed request; after a request, the next page asks and shows it", async ({
    browser,
  }) => {
    const context = await browser.newContext({ extraHTTPHeaders: { "X-Forwarded-For": newVisitorIp() } });
    // Everything the browser's console would list as failed, on every page: refused requests, error statuses, errors.
    const failures: string[] = [];
    context.on("page", (opened) => {
      opened.on("requestfailed", (request) =>
        failures.push(`failed: ${request.url()} ${request.failure()?.errorText}`),
      );
      opened.on("response", (response) => {
        if (response.status() >= 400) failures.push(`${response.status()}: ${response.url()}`);
      });
      opened.on("console", (message) => {
        if (message.type() === "error") failures.push(`console: ${message.text()}`);
      });
    });
    const reads = { beforeTheRequest: 0, afterIt: 0 };
    let requestSent = false;
    context.on("request", (request) => {
      const path = new URL(request.url()).pathname;
      if (path === "/api/support" && request.method() === "POST") requestSent = true;
      if (path === "/api/support/conversation") reads[requestSent ? "afterIt" : "beforeTheRequest"] += 1;
    });
    const page = await context.newPage();

    await gotoHydrated(page, `${server.url}/`);
    const panel = await openChat(page);
    await sendKeyResetFromChat(page, panel, KEY_RESET_ANSWERS);
    // The panel shows the private link once it has read the conversation the request opened.
    await expect(panel.getByRole("link", { name: /\/support\/conversation\?key=/ })).toBeVisible();
    expect(reads.beforeTheRequest).toBe(0);
    expect(reads.afterIt).toBeGreaterThan(0);
    expect(failures).toEqual([]);

    // A new tab (no sessionStorage of its own): its chat asks for the conversation and shows it.
    const next = await context.newPage();
    await gotoHydrated(next, `${server.url}/faq`);
    const asked = next.waitForResponse((response) => new URL(response.url()).pathname === "/api/support/conversation");
    await openChat(next);
    expect((await asked).status()).toBe(200);
    await expect(chatList(next).getByText(KEY_RESET_ANSWERS[1] ?? "")).toBeVisible();
    await expect(chatList(next).getByText(CLOSING_MESSAGES["Key Reset"])).toBeVisible();
    expect(failures).toEqual([]);
    await context.close();
  });
  test("fuzzed requests to the conversation page never get a 5xx, whatever the key, cookie, origin and form", async () => {
    test.setTimeout(180_000);
    const opened = await openConversationThroughApi(server.url, { client: newVisitorIp() });
    const linkKey = new URL(opened.link).searchParams.get("key") ?? "";
    const cookies = [
      opened.cookie,
      undefined,
      `${CONVERSATION_COOKIE}=${"A".repeat(43)}`,
      `${CONVERSATION_COOKIE}=../x;%%`,
    ];
    const text = fc.oneof(fc.string({ maxLength: 200 }), fc.constant("x".repeat(20_000)));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("GET", "HEAD", "POST", "PUT", "DELETE"),
        fc.constantFrom("/support/conversation", "/de/support/conversation", "/ar/support/conversation"),
        fc.option(fc.oneof(fc.string({ maxLength: 80 }), fc.constant("%E0%A4%A"), fc.constant(linkKey)), {
          nil: undefined,
        }),
        fc.constantFrom(...cookies),
        fc.constantFrom(server.url, "https://evil.example", undefined),
        fc.oneof(
          text.map((t) => `text=${encodeURIComponent(t)}`),
          fc.string({ maxLength: 300 }),
          fc.constant(`text=${"%".repeat(50)}`),
          // Half an emoji (a lone surrogate as bytes): not a message anyone can store.
          fc.constant("text=%ED%A0%80"),
        ),
        fc.constantFrom("application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain", ""),
        async (method, path, key, cookie, origin, body, type) => {
          const url = key === undefined ? path : `${path}?key=${key.startsWith("%") ? key : encodeURIComponent(key)}`;
          const headers: Record<string, string> = { "x-forwarded-for": newVisitorIp() };
          if (cookie) headers.cookie = cookie;
          if (origin) headers.origin = origin;
          const sendsBody = !["GET", "HEAD"].includes(method);
          if (sendsBody && type) headers["content-type"] = type;
          const res = await fetch(`${server.url}${url}`, {
            method,
            headers,
            body: sendsBody ? body : undefined,
            redirect: "manual",
          });
          await res.arrayBuffer();
          expect(res.status, `${method} ${url}`).toBeLessThan(500);
        },
      ),
      { numRuns: 300 },
    );
  });
});
