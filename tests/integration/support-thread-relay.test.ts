// Issue 30, the Discord side: each request posted by the bot with a thread of its own, visitor messages into the
// thread once, the team's replies read back over REST under a lease, notes and bots kept out, owner problems reported
// once and shown on pages, the thread archived or locked → resolved. Real databases (SQLite and PostgreSQL) and the
// Discord emulator on 127.0.0.1, taken down for real in the outage test.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SUPPORT_QUESTIONS, type SupportCategory } from "~/features/support-chat/support-chat";
import { conversationDoorbell } from "~/features/support-conversation/conversation-doorbell.server";
import {
  type ConversationRow,
  conversationMessages,
  findConversation,
  openConversation,
} from "~/features/support-conversation/conversation-store.server";
import {
  addVisitorMessage,
  questionnaireLines,
  repliesLive,
  setRepliesBlocked,
} from "~/features/support-conversation/support-conversation.server";
import { buildChatChannelMessage } from "~/features/support-relay/chat-channel.server";
import { deliverDueSupportRequests, discordNonce } from "~/features/support-relay/delivery-worker.server";
import { createDiscordBot, type DiscordBotOptions, NOTE_REACTION } from "~/features/support-relay/discord-bot.server";
import { createRateLimitTracker } from "~/features/support-relay/discord-rate-limits.server";
import { insertSupportRequest } from "~/features/support-relay/support-outbox.server";
import {
  checkSupportChannel,
  postDueVisitorMessages,
  type ReadPass,
  readDueThreads,
  relayBlocker,
  startThreadRelay,
} from "~/features/support-relay/thread-relay.server";
import { claimDueVisitorMessages, readRelayBlocked } from "~/features/support-relay/thread-relay-store.server";
import { resetEnvForTests } from "~/platform/env.server";
import { createLogger } from "~/platform/logger.server";
import { type ChatWebhookReceiver, startChatWebhookReceiver } from "../fakes/chat-webhook-receiver";
import { type DiscordEmulator, startDiscordEmulator } from "../fakes/discord-emulator";
import { createTestDatabase, type TestDatabase, testDialects } from "../support/databases";

const dialects = await testDialects();
/** Every thread is due at once in these tests (the cadence has its own test). */
const NOW_SCHEDULE = { fastMs: 0, slowMs: 0 };

describe.each(dialects)("the Discord thread relay, on %s", (dialect) => {
  let database: TestDatabase;
  let emulator: DiscordEmulator;
  let logLines: Array<Record<string, unknown>>;
  let rawLog: string[];
  const savedEnv = { ...process.env };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database.drop();
    process.env = savedEnv;
    resetEnvForTests();
  });
  beforeEach(async () => {
    emulator = await startDiscordEmulator();
    logLines = [];
    rawLog = [];
    // addVisitorMessage queues for the thread only when a bot is configured.
    process.env = { ...savedEnv, DISCORD_BOT_TOKEN: emulator.token, DISCORD_SUPPORT_CHANNEL_ID: "100000000000000001" };
    resetEnvForTests();
    setRepliesBlocked(null);
    const { db } = database.handle;
    for (const table of [
      "support_conversation_messages",
      "support_conversation_keys",
      "support_conversations",
      "support_requests",
      "support_relay_status",
      "leases",
      "channel_pauses",
    ] as const)
      await db.deleteFrom(table).execute();
  });
  afterEach(async () => {
    await emulator.close();
  });

  const db = () => database.handle.db;

  function makeBot(channelId: string, overrides: Partial<DiscordBotOptions> = {}) {
    const logger = createLogger("info", {
      write(line: string) {
        rawLog.push(line);
        logLines.push(JSON.parse(line));
      },
    });
    return createDiscordBot({
      token: emulator.token,
      apiBase: emulator.apiBase,
      supportChannelId: channelId,
      logger,
      maxWaitInCallMs: 2_000,
      ...overrides,
    });
  }

  /** What POST /api/support stores: the request and its conversation, in one transaction. */
  async function openRequest(category: SupportCategory = "Key Reset", locale = "en") {
    const answers = SUPPORT_QUESTIONS[category].map((_, i) => (i === 0 ? "Kestrel Vault" : `answer ${i}`));
    return db()
      .transaction()
      .execute(async (trx) => {
        const request = await insertSupportRequest(trx, { category, answers, locale }, { channelConfigured: true });
        const { conversation } = await openConversation(trx, {
          requestId: request.id,
          category,
          locale,
          visitorEmail: null,
          lines: questionnaireLines(category, answers),
        });
        return { request, conversation };
      });
  }

  async function deliver(bot: ReturnType<typeof makeBot>, extra: { webhookUrl?: string } = {}) {
    const blocker = relayBlocker(db());
    const pass = await deliverDueSupportRequests({
      db: db(),
      dialect,
      bot,
      timeoutMs: 2_000,
      onBotProblem: (problem) => blocker.set(problem),
      ...extra,
    });
    return pass;
  }

  /** A request delivered by the bot into a new channel of `kind`: its conversation now has a thread. */
  async function threadFor(kind: "text" | "forum" = "text") {
    const channelId = emulator.addChannel({ kind });
    const bot = makeBot(channelId);
    const { request, conversation } = await openRequest();
    expect((await deliver(bot)).delivered).toEqual([request.id]);
    const stored = (await findConversation(db(), conversation.id)) as ConversationRow;
    return { bot, channelId, request, conversation: stored, threadId: stored.thread_id as string };
  }

  const read = (bot: ReturnType<typeof makeBot>, extra: Partial<Parameters<typeof readDueThreads>[0]> = {}) =>
    readDueThreads({ db: db(), bot, schedule: NOW_SCHEDULE, stateCheckMs: 60 * 60_000, ...extra });

  const teamMessages = async (conversationId: string) =>
    (await conversationMessages(db(), conversationId)).filter((m) => m.author === "team");

  const postVisitor = (
    bot: ReturnType<typeof makeBot>,
    extra: Partial<Parameters<typeof postDueVisitorMessages>[0]> = {},
  ) => postDueVisitorMessages({ db: db(), dialect, bot, workerId: "test-poster", ...extra });

  it.each(["text", "forum"] as const)(
    "posts a request from the bot into a %s channel with a thread of its own, and records the thread",
    async (kind) => {
      const channelId = emulator.addChannel({ kind });
      const bot = makeBot(channelId);
      const { request, conversation } = await openRequest("Product Support", "de");
      const before = Date.now();
      expect((await deliver(bot)).delivered).toEqual([request.id]);
      const [thread] = emulator.threadsOf(channelId);
      expect(emulator.threadsOf(channelId)).toHaveLength(1);
      const stored = await findConversation(db(), conversation.id);
      expect(stored?.thread_id).toBe(thread?.id);
      expect(stored?.channel_id).toBe(channelId);
      expect(Date.parse(stored?.next_read_at ?? "")).toBeGreaterThanOrEqual(before - 1000);
      // The same message the webhook posts: title line, embed with the seed's description, language in a field.
      const first = kind === "forum" ? emulator.messagesOf(thread?.id ?? "")[0] : emulator.messagesOf(channelId)[0];
      const expected = buildChatChannelMessage({ ...request, locale: "de" });
      expect(first?.content).toBe(expected.content);
      expect(first?.embeds).toEqual(expected.embeds);
      expect((first?.embeds[0] as { fields?: unknown } | undefined)?.fields).toEqual([
        { name: "Language", value: "German (de)", inline: true },
      ]);
      expect(first?.allowedMentions).toEqual({ parse: [] });
    },
  );

  it.each(["text", "forum"] as const)(
    "never posts a request twice into a %s channel when a crash came between the post and its record",
    async (kind) => {
      const channelId = emulator.addChannel({ kind });
      const bot = makeBot(channelId);
      const { request, conversation } = await openRequest();
      // The post went out, then the process died before anything was written.
      const lost = await bot.postRequest(request, { nonce: discordNonce(request.id), resume: true });
      expect(lost.ok).toBe(true);
      expect((await deliver(bot)).delivered).toEqual([request.id]);
      expect(emulator.threadsOf(channelId)).toHaveLength(1);
      if (kind === "text") expect(emulator.messagesOf(channelId)).toHaveLength(1);
      const stored = await findConversation(db(), conversation.id);
      expect(stored?.thread_id).toBe(emulator.threadsOf(channelId)[0]?.id);
    },
  );

  it("relays a reply once with its author's display name; a note stays internal and is reacted to; bots are ignored", async () => {
    const { bot, conversation, threadId } = await threadFor();
    const rings: number[] = [];
    const stopListening = conversationDoorbell().listen(conversation.id, () => rings.push(1));
    const replyId = emulator.postAsTeam(threadId, "Your key is reset: https://example.com/help", {
      author: { username: "dana", globalName: "Dana from Support" },
    });
    const noteId = emulator.postNote(threadId, "customer paid twice, check refund");
    emulator.postAsBot(threadId, "Another bot says hello");
    emulator.postAsBot(threadId, "A webhook says hello", { webhook: true });
    await read(bot);
    await read(bot);
    stopListening();
    const team = await teamMessages(conversation.id);
    expect(team).toEqual([
      expect.objectContaining({ authorName: "Dana from Support", body: "Your key is reset: https://example.com/help" }),
    ]);
    expect(rings.length).toBeGreaterThanOrEqual(1);
    const note = emulator.messagesOf(threadId).find((m) => m.id === noteId);
    expect(note?.reactions).toEqual([NOTE_REACTION]);
    const stored = await findConversation(db(), conversation.id);
    expect(BigInt(stored?.last_relayed_message_id ?? "0")).toBeGreaterThan(BigInt(replyId));
    expect(repliesLive()).toBe(true);
  });

  it("posts a visitor's message into the thread once; one written before the thread exists waits for it", async () => {
    const channelId = emulator.addChannel({ kind: "text" });
    const bot = makeBot(channelId);
    const { request, conversation } = await openRequest();
    await addVisitorMessage(conversation, "Any news? @everyone", db());
    expect(await postVisitor(bot)).toMatchObject({ delivered: [] });
    expect((await deliver(bot)).delivered).toEqual([request.id]);
    const threadId = (await findConversation(db(), conversation.id))?.thread_id as string;
    await addVisitorMessage(conversation, "Second message", db());
    const pass = await postVisitor(bot);
    expect(pass.delivered).toHaveLength(2);
    expect(await postVisitor(bot)).toMatchObject({ delivered: [], retrying: [], failed: [] });
    const visitorPosts = emulator.messagesOf(threadId).filter((m) => m.content.startsWith("**Visitor:**"));
    expect(visitorPosts.map((m) => m.content)).toEqual([
      "**Visitor:** Any news? @everyone",
      "**Visitor:** Second message",
    ]);
    expect(visitorPosts.every((m) => JSON.stringify(m.allowedMentions) === JSON.stringify({ parse: [] }))).toBe(true);
    // The bot's own posts are never read back as replies.
    await read(bot);
    expect(await teamMessages(conversation.id)).toEqual([]);
  });

  it("does not post a visitor's message twice when its worker died between the post and its record (Discord's nonce)", async () => {
    const { bot, conversation, threadId } = await threadFor();
    const message = await addVisitorMessage(conversation, "Hello again", db());
    // The first worker claims the message, posts it, and dies before writing anything.
    const [row] = await claimDueVisitorMessages(db(), dialect, {
      workerId: "dead-worker",
      limit: 1,
      leaseMs: 60_000,
      now: new Date(),
    });
    expect(row?.seq).toBe(message.seq);
    if (!row) return;
    const lost = await bot.postToThread(threadId, row.body, { nonce: discordNonce(row.id) });
    expect(lost.ok).toBe(true);
    // A restarted instance: nothing to take while the dead worker's claim runs, then the message once.
    const restarted = makeBot(conversation.channel_id as string);
    expect((await postVisitor(restarted)).delivered).toEqual([]);
    const later = () => new Date(Date.now() + 61_000);
    expect((await postVisitor(restarted, { now: later })).delivered).toEqual([row.id]);
    const posts = emulator.messagesOf(threadId).filter((m) => m.content.startsWith("**Visitor:**"));
    expect(posts).toHaveLength(1);
    const after = await db()
      .selectFrom("support_conversation_messages")
      .select(["delivery_status", "discord_message_id"])
      .where("id", "=", row.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual({ delivery_status: "delivered", discord_message_id: posts[0]?.id });
  });

  it("after a restart (a new reader on the same database) neither loses nor doubles a reply", async () => {
    const { bot, conversation, threadId } = await threadFor();
    emulator.postAsTeam(threadId, "one");
    await read(bot);
    emulator.postAsTeam(threadId, "two");
    emulator.postAsTeam(threadId, "three");
    // A crash after "two" was stored but before the cursor moved: the cursor is still on "one".
    const cursor = (await findConversation(db(), conversation.id))?.last_relayed_message_id as string;
    await read(bot);
    await db()
      .updateTable("support_conversations")
      .set({ last_relayed_message_id: cursor })
      .where("id", "=", conversation.id)
      .execute();
    const second = database.open();
    const restarted = makeBot(conversation.channel_id as string);
    await readDueThreads({ db: second.db, bot: restarted, schedule: NOW_SCHEDULE });
    emulator.postAsTeam(threadId, "four");
    await readDueThreads({ db: second.db, bot: restarted, schedule: NOW_SCHEDULE });
    if (dialect === "sqlite") await second.close();
    expect((await teamMessages(conversation.id)).map((m) => m.body)).toEqual(["one", "two", "three", "four"]);
  });

  it("loses and doubles nothing while Discord answers 429 and 5xx, or is down for a minute", async () => {
    const { bot, conversation, threadId } = await threadFor();
    let clock = Date.now();
    const now = () => new Date(clock);
    emulator.postAsTeam(threadId, "before the trouble");
    emulator.queue({ kind: "429", retryAfterSeconds: 0.05 }, { kind: "500" });
    await read(bot, { now });
    emulator.queue({ kind: "500" }, { kind: "500" });
    emulator.postAsTeam(threadId, "during 5xx");
    await read(bot, { now });
    await read(bot, { now });
    expect(emulator.rateLimited().length).toBeGreaterThanOrEqual(1);

    await emulator.stop();
    // Written while we cannot reach Discord: the team's messages and the visitor's.
    emulator.postAsTeam(threadId, "during the outage");
    await addVisitorMessage(conversation, "are you there?", db(), now());
    const outage: ReadPass[] = [];
    for (let second = 0; second < 60; second += 5) {
      clock += 5_000;
      outage.push(await read(bot, { now }));
      await postVisitor(bot, { now, backoffBaseMs: 1_000 });
    }
    expect(outage.every((pass) => pass.relayed === 0 && pass.errors > 0)).toBe(true);
    await emulator.start();
    // Past the longest backoff (10 min) the visitor's message may have been put off by.
    clock += 11 * 60_000;
    await read(bot, { now });
    await read(bot, { now });
    expect((await postVisitor(bot, { now })).delivered).toHaveLength(1);
    expect((await teamMessages(conversation.id)).map((m) => m.body)).toEqual([
      "before the trouble",
      "during 5xx",
      "during the outage",
    ]);
    expect(emulator.messagesOf(threadId).filter((m) => m.content === "**Visitor:** are you there?")).toHaveLength(1);
  });

  it("waits out a 429 on a visitor's message, then posts it once", async () => {
    const { conversation, threadId } = await threadFor();
    await addVisitorMessage(conversation, "still there?", db());
    let clock = Date.now();
    const now = () => new Date(clock);
    // The bot's rate-limit tracker on the same fake clock, so the 20 s pass without waiting for them.
    const bot = makeBot(conversation.channel_id as string, { limits: createRateLimitTracker({ now: () => clock }) });
    // Longer than the bot waits inside a call: the message is put off until Discord's retry_after.
    emulator.queue({ kind: "429", retryAfterSeconds: 20 });
    const limited = await postVisitor(bot, { now });
    expect(limited.delivered).toEqual([]);
    expect(limited.pausedUntil?.getTime()).toBeGreaterThanOrEqual(clock + 19_000);
    expect((await postVisitor(bot, { now })).delivered).toEqual([]);
    clock += 21_000;
    expect((await postVisitor(bot, { now })).delivered).toHaveLength(1);
    expect(emulator.messagesOf(threadId).filter((m) => m.content === "**Visitor:** still there?")).toHaveLength(1);
  });

  it("a missing permission in the channel: blocked, logged once, the request goes one-way through the webhook", async () => {
    const receiver: ChatWebhookReceiver = await startChatWebhookReceiver();
    try {
      const channelId = emulator.addChannel({ kind: "text", access: "read-only" });
      const bot = makeBot(channelId);
      await openRequest();
      await openRequest();
      expect((await deliver(bot, { webhookUrl: receiver.url })).delivered).toHaveLength(2);
      expect(receiver.requests).toHaveLength(2);
      expect(emulator.threadsOf(channelId)).toHaveLength(0);
      expect(repliesLive()).toBe(false);
      expect(await readRelayBlocked(db())).toBe("missing_permissions");
      expect(logLines.filter((l) => l.discordProblem === "missing_permissions")).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  });

  it("a refused token: one log line, pages stop promising live replies, requests still reach the webhook", async () => {
    const receiver: ChatWebhookReceiver = await startChatWebhookReceiver();
    try {
      const channelId = emulator.addChannel({ kind: "text" });
      const bot = makeBot(channelId, { token: "wrong.token" });
      const blocker = relayBlocker(db());
      expect((await checkSupportChannel(bot, blocker)).ok).toBe(false);
      expect(repliesLive()).toBe(false);
      expect(await readRelayBlocked(db())).toBe("unauthorized");
      const { request } = await openRequest();
      expect((await deliver(bot, { webhookUrl: receiver.url })).delivered).toEqual([request.id]);
      expect(receiver.requests).toHaveLength(1);
      await openRequest();
      await deliver(bot, { webhookUrl: receiver.url });
      expect(logLines.filter((l) => l.discordProblem === "unauthorized")).toHaveLength(1);
      expect(rawLog.join("\n")).not.toContain("wrong.token");
      // Another instance's pages take the verdict from the database.
      setRepliesBlocked(null);
      await relayBlocker(db()).refresh();
      expect(repliesLive()).toBe(false);
    } finally {
      await receiver.close();
    }
  });

  it("the Message Content intent off: blocked, nothing lost; switched on, the reply arrives", async () => {
    const { bot, conversation, threadId } = await threadFor();
    const blocker = relayBlocker(db());
    emulator.setMessageContentIntent(false);
    emulator.postAsTeam(threadId, "the answer");
    await read(bot, { blocker });
    await read(bot, { blocker });
    expect(repliesLive()).toBe(false);
    expect(await readRelayBlocked(db())).toBe("intent_missing");
    expect(logLines.filter((l) => l.discordProblem === "intent_missing")).toHaveLength(1);
    expect(await teamMessages(conversation.id)).toEqual([]);
    emulator.setMessageContentIntent(true);
    await read(bot, { blocker });
    expect((await teamMessages(conversation.id)).map((m) => m.body)).toEqual(["the answer"]);
    expect(repliesLive()).toBe(true);
  });

  it.each(["archive", "lock"] as const)(
    "a thread the team %ss resolves its conversation, which is not read again",
    async (how) => {
      const { bot, conversation, threadId } = await threadFor("forum");
      const rings: number[] = [];
      const stopListening = conversationDoorbell().listen(conversation.id, () => rings.push(1));
      emulator[how](threadId);
      await read(bot, { stateCheckMs: 0 });
      stopListening();
      expect((await findConversation(db(), conversation.id))?.status).toBe("resolved");
      expect(rings).toHaveLength(1);
      const reads = emulator.requests.length;
      await read(bot, { stateCheckMs: 0 });
      expect(emulator.requests.length).toBe(reads);
    },
  );

  it("reads active visitors' threads every 2 s and the others every minute; idle ones not at all", async () => {
    const { bot, conversation } = await threadFor();
    const { conversation: idle } = await openRequest();
    let clock = Date.now();
    const now = () => new Date(clock);
    const readsOf = new Map<string, number>();
    const onRead = (id: string) => readsOf.set(id, (readsOf.get(id) ?? 0) + 1);
    // A second conversation whose visitor left 11 minutes ago, and a third nobody touched for 15 days.
    await deliver(bot);
    await db()
      .updateTable("support_conversations")
      .set({ visitor_active_at: new Date(clock - 11 * 60_000).toISOString() })
      .where("id", "=", idle.id)
      .execute();
    const { conversation: stale } = await openRequest();
    await deliver(bot);
    const longAgo = new Date(clock - 15 * 24 * 60 * 60_000).toISOString();
    await db()
      .updateTable("support_conversations")
      .set({ visitor_active_at: longAgo, last_message_at: longAgo })
      .where("id", "=", stale.id)
      .execute();
    for (let tick = 0; tick < 120; tick++) {
      await readDueThreads({ db: db(), bot, now, onRead });
      clock += 500;
    }
    // 60 s of ticks: the active thread about 30 times, the other about once a minute (plus the first read).
    expect(readsOf.get(conversation.id)).toBeGreaterThanOrEqual(28);
    expect(readsOf.get(conversation.id)).toBeLessThanOrEqual(31);
    expect(readsOf.get(idle.id)).toBeGreaterThanOrEqual(1);
    expect(readsOf.get(idle.id)).toBeLessThanOrEqual(2);
    expect(readsOf.get(stale.id)).toBeUndefined();
  });

  it("one reader at a time: a second instance does not read while the first holds the lease, and takes over when it dies", async () => {
    const { conversation, channelId, threadId } = await threadFor();
    const readers = { first: 0, second: 0 };
    const firstHandle = database.open();
    const errors: unknown[] = [];
    const first = startThreadRelay({
      db: firstHandle.db,
      dialect,
      bot: makeBot(channelId),
      instanceId: "first",
      leaseMs: 1_500,
      tickMs: 50,
      schedule: { fastMs: 100 },
      onRead: () => readers.first++,
      onError: (error) => errors.push(error),
    });
    const waitFor = async (condition: () => boolean | Promise<boolean>) => {
      for (let i = 0; i < 400 && !(await condition()); i++) await new Promise((r) => setTimeout(r, 25));
      expect(await condition()).toBe(true);
    };
    await waitFor(() => readers.first >= 2);
    const second = startThreadRelay({
      db: db(),
      dialect,
      bot: makeBot(channelId),
      instanceId: "second",
      leaseMs: 1_500,
      tickMs: 50,
      schedule: { fastMs: 100 },
      onRead: () => readers.second++,
    });
    try {
      await waitFor(() => readers.first >= 6);
      expect(readers.second).toBe(0);
      // The first instance dies: its database connection is gone, its lease is never renewed nor released.
      await firstHandle.close();
      emulator.postAsTeam(threadId, "after the takeover");
      await waitFor(() => readers.second >= 1);
      await waitFor(async () => (await teamMessages(conversation.id)).length === 1);
      expect((await teamMessages(conversation.id)).map((m) => m.body)).toEqual(["after the takeover"]);
    } finally {
      await second.stop();
      await first.stop();
    }
  });
});
