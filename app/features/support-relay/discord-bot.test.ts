import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SUPPORT_QUESTIONS } from "~/features/support-chat/support-chat";
import { createLogger } from "~/platform/logger.server";
import { discordPayloadProblems } from "../../../tests/fakes/chat-webhook-receiver";
import { type DiscordEmulator, startDiscordEmulator } from "../../../tests/fakes/discord-emulator";
import { buildChatChannelMessage, type ChannelSupportRequest } from "./chat-channel.server";
import { createDiscordBot, type DiscordBotOptions, NOTE_REACTION, threadName } from "./discord-bot.server";
import { createRateLimitTracker } from "./discord-rate-limits.server";

const request: ChannelSupportRequest = {
  id: "6f1c1f0e-8d1b-4c52-9a55-0d6f1e9b2f10",
  category: "Product Support",
  questions: SUPPORT_QUESTIONS["Product Support"],
  answers: ["Kestrel Vault", "It crashes on start @everyone", "Windows 11"],
  locale: "de",
  createdAt: "2026-11-21T09:05:00.000Z",
};

let emulator: DiscordEmulator;
let lines: Record<string, unknown>[];
let raw: string[];

function bot(channelId: string, overrides: Partial<DiscordBotOptions> = {}) {
  const logger = createLogger("info", {
    write(line: string) {
      raw.push(line);
      lines.push(JSON.parse(line));
    },
  });
  return createDiscordBot({
    token: emulator.token,
    apiBase: emulator.apiBase,
    supportChannelId: channelId,
    logger,
    ...overrides,
  });
}

/** A posted request's thread, ready for the team to answer in. */
async function postedThread(channelKind: "text" | "forum" = "text") {
  const channelId = emulator.addChannel({ kind: channelKind });
  const client = bot(channelId);
  const posted = await client.postRequest(request);
  if (!posted.ok) throw new Error(`post failed: ${posted.error.message}`);
  return { client, channelId, threadId: posted.value.threadId };
}

beforeEach(async () => {
  emulator = await startDiscordEmulator();
  lines = [];
  raw = [];
});
afterEach(async () => {
  await emulator.close();
});

describe("the Discord bot", () => {
  it("tells a text channel from a forum channel", async () => {
    const text = emulator.addChannel({ kind: "text", name: "support" });
    const forum = emulator.addChannel({ kind: "forum", name: "help-desk" });
    const voice = emulator.addChannel({ kind: "voice" });
    const guildId = "800000000000000001";
    expect(await bot(text).lookUpChannel()).toEqual({
      ok: true,
      value: { id: text, kind: "text", name: "support", guildId },
    });
    expect(await bot(text).lookUpChannel(forum)).toEqual({
      ok: true,
      value: { id: forum, kind: "forum", name: "help-desk", guildId },
    });
    const other = await bot(voice).lookUpChannel();
    expect(other.ok === false && other.error.kind).toBe("unsupported_channel");
  });

  it("posts a request into a text channel as the webhook does, then opens a thread on that message", async () => {
    const channelId = emulator.addChannel({ kind: "text" });
    const posted = await bot(channelId).postRequest(request);
    expect(posted.ok).toBe(true);
    if (!posted.ok) return;
    const [message] = emulator.messagesOf(channelId);
    expect(posted.value).toEqual({ channelId, messageId: message?.id, threadId: message?.id });
    const expected = buildChatChannelMessage(request);
    expect(message?.content).toBe(expected.content);
    expect(message?.embeds).toEqual(expected.embeds);
    expect(message?.allowedMentions).toEqual({ parse: [] });
    expect(discordPayloadProblems({ content: message?.content, embeds: message?.embeds })).toEqual([]);
    const [thread] = emulator.threadsOf(channelId);
    expect(thread).toMatchObject({ id: message?.id, name: threadName(request), autoArchiveDuration: 10080 });
    expect(emulator.requests.map((r) => `${r.method} ${r.path.replace(/\d{6,}/g, ":id")}`)).toEqual([
      "GET /api/v10/channels/:id",
      "POST /api/v10/channels/:id/messages",
      "POST /api/v10/channels/:id/messages/:id/threads",
    ]);
  });

  it("posts a request into a forum channel as a post whose thread holds the same message", async () => {
    const channelId = emulator.addChannel({ kind: "forum" });
    const posted = await bot(channelId).postRequest(request);
    expect(posted.ok).toBe(true);
    if (!posted.ok) return;
    const [thread] = emulator.threadsOf(channelId);
    expect(posted.value).toEqual({ channelId, messageId: thread?.id, threadId: thread?.id });
    expect(thread?.name).toBe("Product Support · 6f1c1f0e");
    const [first] = emulator.messagesOf(posted.value.threadId);
    expect(first?.content).toBe("New Product Support Request");
    expect(first?.embeds).toEqual(buildChatChannelMessage(request).embeds);
    expect(first?.allowedMentions).toEqual({ parse: [] });
    expect(emulator.messagesOf(channelId)).toEqual([]);
  });

  it("posts a visitor's message into the thread as typed, with mentions off", async () => {
    const { client, threadId } = await postedThread();
    const posted = await client.postToThread(threadId, "  Still **crashing** @everyone\u202E  ");
    expect(posted.ok).toBe(true);
    const last = emulator.messagesOf(threadId).at(-1);
    expect(last).toMatchObject({
      id: posted.ok ? posted.value.messageId : "",
      content: "**Visitor:** Still \\*\\*crashing\\*\\* @everyone\\[U+202E\\]",
      allowedMentions: { parse: [] },
    });
    const long = await client.postToThread(threadId, "x".repeat(5000));
    expect(long.ok).toBe(true);
    expect(emulator.messagesOf(threadId).at(-1)?.content).toHaveLength(2000);
    const before = emulator.requests.length;
    expect(await client.postToThread(threadId, "   ")).toMatchObject({ ok: false, error: { kind: "rejected" } });
    expect(emulator.requests).toHaveLength(before);
  });

  it("reads a thread oldest first, and with `after` only what is newer", async () => {
    const { client, threadId } = await postedThread();
    const first = emulator.postAsTeam(threadId, "Hi! Which version?");
    const second = emulator.postAsTeam(threadId, "And which Windows build?");
    const all = await client.readThread(threadId);
    expect(all.ok).toBe(true);
    if (!all.ok) return;
    const replies = all.value.messages.filter((m) => m.kind === "team_reply");
    expect(replies.map((m) => m.kind === "team_reply" && m.text)).toEqual([
      "Hi! Which version?",
      "And which Windows build?",
    ]);
    expect(replies[0]).toMatchObject({ id: first, authorName: "dana" });
    expect(all.value.newestId).toBe(second);
    expect(all.value.intentMissing).toBe(false);

    const third = emulator.postAsTeam(threadId, "Found it: fixed in 2.1");
    const newer = await client.readThread(threadId, { after: second });
    expect(newer.ok && newer.value.messages.map((m) => m.id)).toEqual([third]);
    const none = await client.readThread(threadId, { after: third });
    expect(none.ok && none.value).toMatchObject({ messages: [], newestId: null, more: false });
    const read = emulator.requests.filter((r) => r.method === "GET" && r.path.endsWith("/messages")).at(-1);
    expect(read?.query.get("after")).toBe(third);
  });

  it("pages with `limit`: the oldest ones after the cursor first, and says when more follow", async () => {
    const { client, threadId } = await postedThread("forum");
    const ids = ["one", "two", "three", "four", "five"].map((text) => emulator.postAsTeam(threadId, text));
    const page = await client.readThread(threadId, { limit: 2 });
    expect(page.ok && page.value.messages.map((m) => m.id)).toEqual(ids.slice(0, 2));
    expect(page.ok && page.value.more).toBe(true);
    const next = await client.readThread(threadId, { after: ids[1], limit: 2 });
    expect(next.ok && next.value.messages.map((m) => m.id)).toEqual(ids.slice(2, 4));
  });

  it("keeps notes internal and confirms each with a reaction", async () => {
    const { client, threadId } = await postedThread();
    const reply = emulator.postAsTeam(threadId, "Could you send a screenshot?");
    const note = emulator.postNote(threadId, "customer had this before, see #412");
    const shouting = emulator.postAsTeam(threadId, "  NOTE: refund approved");
    const page = await client.readThread(threadId);
    expect(page.ok).toBe(true);
    if (!page.ok) return;
    const kinds = Object.fromEntries(page.value.messages.map((m) => [m.id, m.kind]));
    expect(kinds[reply]).toBe("team_reply");
    expect(kinds[note]).toBe("note");
    expect(kinds[shouting]).toBe("note");
    expect(page.value.messages.find((m) => m.id === note)).toMatchObject({
      text: "customer had this before, see #412",
    });
    const reactions = Object.fromEntries(emulator.messagesOf(threadId).map((m) => [m.id, m.reactions]));
    expect(reactions[note]).toEqual([NOTE_REACTION]);
    expect(reactions[shouting]).toEqual([NOTE_REACTION]);
    expect(reactions[reply]).toEqual([]);
  });

  it("ignores bots, webhooks and system messages (the thread's starter, the bot's own posts)", async () => {
    const { client, threadId } = await postedThread();
    await client.postToThread(threadId, "visitor says hi");
    const other = emulator.postAsBot(threadId, "Ticket #12 opened");
    const hook = emulator.postAsBot(threadId, "Vault is down", { webhook: true });
    const person = emulator.postAsTeam(threadId, "On it");
    const page = await client.readThread(threadId);
    expect(page.ok).toBe(true);
    if (!page.ok) return;
    const relayed = page.value.messages.filter((m) => m.kind !== "ignored").map((m) => m.id);
    expect(relayed).toEqual([person]);
    expect(page.value.messages.filter((m) => m.kind === "ignored").map((m) => m.id)).toEqual(
      expect.arrayContaining([other, hook]),
    );
  });

  it("sees when the team resolves a conversation by archiving or locking its thread", async () => {
    const { client, threadId } = await postedThread();
    expect(await client.threadState(threadId)).toEqual({
      ok: true,
      value: { archived: false, locked: false, resolved: false },
    });
    emulator.archive(threadId);
    expect(await client.threadState(threadId)).toEqual({
      ok: true,
      value: { archived: true, locked: false, resolved: true },
    });
    const { client: other, threadId: second } = await postedThread("forum");
    emulator.lock(second);
    expect(await other.threadState(second)).toMatchObject({ ok: true, value: { locked: true, resolved: true } });
    const refused = await other.postToThread(second, "hello?");
    expect(refused.ok === false && refused.error.kind).toBe("thread_closed");
  });
});

describe("the Discord bot under rate limits", () => {
  it("waits out a 429's retry_after and tries again", async () => {
    const channelId = emulator.addChannel({ kind: "text" });
    emulator.queue({ kind: "429", retryAfterSeconds: 0.2 });
    const started = Date.now();
    const channel = await bot(channelId).lookUpChannel();
    expect(channel.ok).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    const [limited, retried] = emulator.requests;
    expect(limited?.status).toBe(429);
    expect((retried?.at ?? 0) - (limited?.at ?? 0)).toBeGreaterThanOrEqual(190);
  });

  it("waits out a 429 that names its wait only in Retry-After", async () => {
    const channelId = emulator.addChannel({ kind: "text" });
    emulator.queue({ kind: "429", retryAfterSeconds: 1, body: false });
    const started = Date.now();
    expect((await bot(channelId).lookUpChannel()).ok).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
  });

  it("waits out a global 429 for every route", async () => {
    const channelId = emulator.addChannel({ kind: "text" });
    emulator.queue({ kind: "429", retryAfterSeconds: 0.15, global: true });
    const started = Date.now();
    const posted = await bot(channelId).postRequest(request);
    expect(posted.ok).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it("gives up with rate_limited when a 429 asks for longer than a call may wait", async () => {
    const channelId = emulator.addChannel({ kind: "text" });
    emulator.queue({ kind: "429", retryAfterSeconds: 60 });
    const result = await bot(channelId, { maxWaitInCallMs: 1_000 }).lookUpChannel();
    expect(result).toMatchObject({ ok: false, error: { kind: "rate_limited", retryAfterMs: 60_000 } });
    expect(emulator.requests).toHaveLength(1);
  });

  it("respects each bucket: with Remaining 0 it waits for Reset-After instead of drawing a 429", async () => {
    emulator.setBucketLimit(2, 0.3);
    const { client, threadId } = await postedThread();
    const started = Date.now();
    for (const text of ["one", "two", "three", "four", "five"]) {
      const posted = await client.postToThread(threadId, text);
      expect(posted.ok).toBe(true);
    }
    // Five posts at two per 0.3 s: two windows waited out, and Discord never had to say no.
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(emulator.rateLimited()).toEqual([]);
  });

  it("stops calling once the invalid requests reach the budget, and says so in one line", async () => {
    const channelId = emulator.addChannel({ kind: "text", access: "none" });
    const client = bot(channelId, { limits: createRateLimitTracker({ invalidRequestBudget: 3 }) });
    for (let i = 0; i < 5; i++) await client.lookUpChannel();
    expect(emulator.requests).toHaveLength(3);
    const last = await client.lookUpChannel();
    expect(last.ok === false && last.error.kind).toBe("invalid_request_budget");
    expect(lines.filter((l) => l.discordProblem === "invalid_request_budget")).toHaveLength(1);
  });
});

describe("the Discord bot when it cannot work", () => {
  it("reports a wrong token as unauthorized, in one log line however often it is tried", async () => {
    const channelId = emulator.addChannel({ kind: "text" });
    const client = bot(channelId, { token: "wrong.token.value-7d1e" });
    const first = await client.postRequest(request);
    const again = await client.lookUpChannel();
    expect(first).toMatchObject({ ok: false, error: { kind: "unauthorized" } });
    expect(again).toMatchObject({ ok: false, error: { kind: "unauthorized" } });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, discordProblem: "unauthorized" });
    expect(String(lines[0]?.msg)).toMatch(/refused the token \(401 Unauthorized\).*DISCORD_BOT_TOKEN/);
    expect(raw.join("")).not.toContain("wrong.token.value-7d1e");
    expect(JSON.stringify([first, again])).not.toContain("wrong.token.value-7d1e");
  });

  it("reports a channel the bot cannot see as missing_access (50001)", async () => {
    const channelId = emulator.addChannel({ kind: "text", access: "none" });
    const client = bot(channelId);
    const result = await client.postRequest(request);
    await client.postRequest(request);
    expect(result).toMatchObject({ ok: false, error: { kind: "missing_access" } });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ discordProblem: "missing_access" });
    expect(String(lines[0]?.msg)).toContain("View Channel");
  });

  it("reports a channel the bot can see but not post in as missing_permissions (50013)", async () => {
    const channelId = emulator.addChannel({ kind: "forum", access: "read-only" });
    const client = bot(channelId);
    const result = await client.postRequest(request);
    expect(result).toMatchObject({ ok: false, error: { kind: "missing_permissions" } });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ discordProblem: "missing_permissions" });
    expect(String(lines[0]?.msg)).toContain("Create Public Threads");
  });

  it("notices the Message Content intent is off: people's messages are unreadable, one log line", async () => {
    const { client, threadId } = await postedThread();
    emulator.setMessageContentIntent(false);
    const reply = emulator.postAsTeam(threadId, "Hi! Which version?");
    const note = emulator.postNote(threadId, "internal");
    const page = await client.readThread(threadId);
    await client.readThread(threadId);
    expect(page.ok).toBe(true);
    if (!page.ok) return;
    expect(page.value.intentMissing).toBe(true);
    expect(page.value.messages.filter((m) => m.kind === "unreadable").map((m) => m.id)).toEqual([reply, note]);
    expect(page.value.messages.some((m) => m.kind === "team_reply" || m.kind === "note")).toBe(false);
    expect(lines.filter((l) => l.discordProblem === "intent_missing")).toHaveLength(1);
    expect(String(lines.find((l) => l.discordProblem === "intent_missing")?.msg)).toContain("Message Content intent");
    // The bot's own messages still read, so posting one-way keeps working.
    expect((await client.postToThread(threadId, "visitor text")).ok).toBe(true);
  });

  it("answers unavailable while Discord cannot be reached, and works again when it is back", async () => {
    const { client, threadId } = await postedThread();
    await emulator.stop();
    const down = await client.readThread(threadId);
    expect(down).toMatchObject({ ok: false, error: { kind: "unavailable" } });
    await emulator.start();
    expect((await client.readThread(threadId)).ok).toBe(true);
  });

  it("never puts the token in a log line or an error, whatever goes wrong", async () => {
    const channelId = emulator.addChannel({ kind: "text", access: "read-only" });
    const client = bot(channelId);
    const results: unknown[] = [await client.postRequest(request), await client.readThread("123456789012345678")];
    emulator.queue({ kind: "500" });
    results.push(await client.lookUpChannel());
    await emulator.stop();
    results.push(await client.lookUpChannel());
    expect(raw.join("")).not.toContain(emulator.token);
    expect(JSON.stringify(results)).not.toContain(emulator.token);
    // The token travels in the Authorization header only.
    expect(emulator.requests.every((r) => r.authorization === `Bot ${emulator.token}`)).toBe(true);
    expect(emulator.requests.some((r) => r.path.includes(emulator.token))).toBe(false);
  });
});
