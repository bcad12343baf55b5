// Issue 35, the support inbox's server side: whose turn it is and the lists built on it, the console's replies and
// notes told to the Discord thread once through the outbox (delayed by an outage, never lost or doubled), notes never
// in the visitor's messages, `note:` from the thread kept once, Resolve archiving the thread and Reopen opening it.
// Real databases (SQLite and PostgreSQL) and the Discord emulator on 127.0.0.1.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  assignConversation,
  INBOX_PAGE_SIZE,
  listInbox,
  loadConsoleConversation,
  neighbours,
  noteFromConsole,
  reopenFromConsole,
  replyFromConsole,
  resolveFromConsole,
  waitingCounts,
} from "~/features/console/support/support.server";
import { SUPPORT_QUESTIONS, type SupportCategory } from "~/features/support-chat/support-chat";
import { conversationNotes } from "~/features/support-conversation/conversation-notes.server";
import {
  type ConversationRow,
  conversationMessages,
  findConversation,
  openConversation,
} from "~/features/support-conversation/conversation-store.server";
import {
  addTeamReply,
  addVisitorMessage,
  questionnaireLines,
  setRepliesBlocked,
} from "~/features/support-conversation/support-conversation.server";
import { deliverDueSupportRequests } from "~/features/support-relay/delivery-worker.server";
import { createDiscordBot } from "~/features/support-relay/discord-bot.server";
import { insertSupportRequest } from "~/features/support-relay/support-outbox.server";
import { postDueThreadPosts } from "~/features/support-relay/thread-posts.server";
import { readDueThreads } from "~/features/support-relay/thread-relay.server";
import { resetEnvForTests } from "~/platform/env.server";
import { createLogger } from "~/platform/logger.server";
import { type DiscordEmulator, startDiscordEmulator } from "../fakes/discord-emulator";
import { createTestDatabase, type TestDatabase, testDialects } from "../support/databases";

const dialects = await testDialects();
const ADA = { id: "staff-ada", email: "ada@example.com" };
const GRACE = { id: "staff-grace", email: "grace+support@example.com" };
/** The audit entry's who-and-what for a change by this person to this conversation. */
const by = (staff: { email: string }, conversationId: string) => ({ actor: staff.email, target: conversationId });

describe.each(dialects)("the support inbox, on %s", (dialect) => {
  let database: TestDatabase;
  let emulator: DiscordEmulator;
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
    process.env = { ...savedEnv, DISCORD_BOT_TOKEN: emulator.token, DISCORD_SUPPORT_CHANNEL_ID: "100000000000000001" };
    resetEnvForTests();
    setRepliesBlocked(null);
    const { db } = database.handle;
    for (const table of [
      "support_thread_posts",
      "support_conversation_notes",
      "support_conversation_messages",
      "support_conversation_keys",
      "support_conversations",
      "support_requests",
      "staff",
      "leases",
      "channel_pauses",
    ] as const)
      await db.deleteFrom(table).execute();
    for (const person of [ADA, GRACE])
      await db
        .insertInto("staff")
        .values({
          id: person.id,
          email: person.email,
          role: "support",
          webauthn_user_id: `user-${person.id}`,
          created_at: new Date().toISOString(),
        })
        .execute();
  });
  afterEach(async () => {
    await emulator.close();
  });

  const db = () => database.handle.db;

  function makeBot(channelId: string) {
    return createDiscordBot({
      token: emulator.token,
      apiBase: emulator.apiBase,
      supportChannelId: channelId,
      logger: createLogger("silent"),
      maxWaitInCallMs: 2_000,
    });
  }

  async function openRequest(
    options: { category?: SupportCategory; email?: string | null; at?: Date; product?: string } = {},
  ) {
    const category = options.category ?? "Key Reset";
    const email = options.email ?? null;
    const answers = SUPPORT_QUESTIONS[category].map((_, i, all) =>
      i === 0 ? (options.product ?? "Kestrel Vault") : i === all.length - 1 ? (email ?? "@chatname") : `answer ${i}`,
    );
    return db()
      .transaction()
      .execute(async (trx) => {
        const request = await insertSupportRequest(
          trx,
          { category, answers, locale: "de" },
          { channelConfigured: true },
        );
        const { conversation } = await openConversation(
          trx,
          {
            requestId: request.id,
            category,
            locale: "de",
            visitorEmail: email,
            lines: questionnaireLines(category, answers),
          },
          options.at ?? new Date(),
        );
        return conversation;
      });
  }

  /** A request delivered by the bot into a text channel: its conversation has its thread. */
  async function withThread() {
    const channelId = emulator.addChannel({ kind: "text" });
    const bot = makeBot(channelId);
    const conversation = await openRequest();
    const pass = await deliverDueSupportRequests({ db: db(), dialect, bot, timeoutMs: 2_000 });
    expect(pass.delivered).toHaveLength(1);
    const stored = (await findConversation(db(), conversation.id)) as ConversationRow;
    return { bot, conversation: stored, threadId: stored.thread_id as string };
  }

  const post = (bot: ReturnType<typeof makeBot>) =>
    postDueThreadPosts({ db: db(), dialect, bot, workerId: "test-poster", backoffBaseMs: 1 });

  const list = (state: "waiting-for-us" | "waiting-for-visitor" | "resolved", extra = {}) =>
    listInbox(db(), { state, scope: "all", staffId: ADA.id, ...extra }, 1);

  it("keeps whose turn it is: a request waits for us, a reply hands it to the visitor, their answer back to us", async () => {
    const t0 = new Date("2026-11-01T10:00:00.000Z");
    const first = await openRequest({ at: t0 });
    const second = await openRequest({ at: new Date("2026-11-01T11:00:00.000Z"), product: "Kestrel Studio" });
    expect((await list("waiting-for-us")).rows.map((r) => r.id)).toEqual([first.id, second.id]);
    expect((await list("waiting-for-us")).rows[1]).toMatchObject({
      category: "Key Reset",
      product: "Kestrel Studio",
      locale: "de",
      lastWords: "answer 1",
      since: "2026-11-01T11:00:00.000Z",
    });

    await addTeamReply(db(), first.id, { authorName: "ada", body: "Done." }, new Date("2026-11-01T12:00:00.000Z"));
    expect((await list("waiting-for-us")).rows.map((r) => r.id)).toEqual([second.id]);
    expect((await list("waiting-for-visitor")).rows).toEqual([
      expect.objectContaining({ id: first.id, since: "2026-11-01T12:00:00.000Z" }),
    ]);

    // Two visitor messages: it has waited since the first of them, and the list shows their newest words.
    await addVisitorMessage(first, "It still fails", db(), new Date("2026-11-01T13:00:00.000Z"));
    await addVisitorMessage(first, "Error 42", db(), new Date("2026-11-01T13:30:00.000Z"));
    const waiting = await list("waiting-for-us");
    expect(waiting.rows.map((r) => [r.id, r.since, r.lastWords])).toEqual([
      [second.id, "2026-11-01T11:00:00.000Z", "answer 1"],
      [first.id, "2026-11-01T13:00:00.000Z", "Error 42"],
    ]);
    const stored = await findConversation(db(), first.id);
    expect(stored?.first_team_reply_at).toBe("2026-11-01T12:00:00.000Z");
  });

  it("lists mine and unassigned, searches text and email, and pages through a long list", async () => {
    const mine = await openRequest({ email: "buyer@example.com" });
    const theirs = await openRequest();
    const nobody = await openRequest();
    await addVisitorMessage(nobody, "My licence shows 100% used_up", db());
    expect(await assignConversation(db(), mine.id, ADA.id, by(ADA, mine.id))).toEqual({ before: null });
    expect(await assignConversation(db(), mine.id, ADA.id, by(ADA, mine.id))).toBe(false);
    await assignConversation(db(), theirs.id, GRACE.id, by(GRACE, theirs.id));
    expect((await list("waiting-for-us", { scope: "mine" })).rows.map((r) => r.id)).toEqual([mine.id]);
    expect((await list("waiting-for-us", { scope: "unassigned" })).rows.map((r) => r.id)).toEqual([nobody.id]);
    expect((await list("waiting-for-us", { scope: "all" })).rows.find((r) => r.id === theirs.id)?.assignee).toBe(
      GRACE.email,
    );
    expect(await waitingCounts(db(), ADA.id)).toEqual({ all: 3, mine: 1, unassigned: 1 });
    expect((await list("waiting-for-us", { query: "BUYER@example" })).rows.map((r) => r.id)).toEqual([mine.id]);
    // `%` and `_` are searched for as they are, not as wildcards.
    expect((await list("waiting-for-us", { query: "100% used_" })).rows.map((r) => r.id)).toEqual([nobody.id]);
    expect((await list("waiting-for-us", { query: "100%x" })).rows).toEqual([]);

    for (let i = 0; i < INBOX_PAGE_SIZE + 2; i++) await openRequest({ at: new Date(Date.UTC(2026, 10, 2, 0, i)) });
    const page2 = await listInbox(db(), { state: "waiting-for-us", scope: "all", staffId: ADA.id }, 2);
    expect(page2).toMatchObject({ total: INBOX_PAGE_SIZE + 5, page: 2, pages: 2 });
    expect(page2.rows).toHaveLength(5);
    // Past the last page is the last page.
    expect((await listInbox(db(), { state: "waiting-for-us", scope: "all", staffId: ADA.id }, 99)).page).toBe(2);
  });

  it("finds the conversations before and after one in its list", async () => {
    const a = await openRequest({ at: new Date("2026-11-01T10:00:00.000Z") });
    const b = await openRequest({ at: new Date("2026-11-01T11:00:00.000Z") });
    const c = await openRequest({ at: new Date("2026-11-01T12:00:00.000Z") });
    const filter = { state: "waiting-for-us" as const, scope: "all" as const, staffId: ADA.id };
    const middle = (await findConversation(db(), b.id)) as ConversationRow;
    expect(await neighbours(db(), filter, middle)).toEqual({ previous: a.id, next: c.id });
    const firstRow = (await findConversation(db(), a.id)) as ConversationRow;
    expect(await neighbours(db(), filter, firstRow)).toEqual({ previous: null, next: b.id });
  });

  it("posts a console reply into the thread once under the agent's name; the visitor has it at once", async () => {
    const { bot, conversation, threadId } = await withThread();
    await replyFromConsole(
      db(),
      GRACE,
      conversation.id,
      "Your key is reset *now* @everyone",
      by(GRACE, conversation.id),
    );
    const visible = await conversationMessages(db(), conversation.id);
    expect(visible.at(-1)).toMatchObject({
      author: "team",
      authorName: "grace",
      body: "Your key is reset *now* @everyone",
    });
    expect((await post(bot)).delivered).toHaveLength(1);
    expect((await post(bot)).delivered).toHaveLength(0);
    const posts = emulator.messagesOf(threadId).filter((m) => m.content.includes("(console)"));
    expect(posts.map((m) => m.content)).toEqual(["**grace** (console): Your key is reset \\*now\\* @everyone"]);
    expect(posts[0]?.allowedMentions).toEqual({ parse: [] });
    // The bot's own post is never read back as a second reply.
    await readDueThreads({ db: db(), bot, schedule: { fastMs: 0, slowMs: 0 }, stateCheckMs: 3_600_000 });
    const team = (await conversationMessages(db(), conversation.id)).filter((m) => m.author === "team");
    expect(team).toHaveLength(1);
    const view = await loadConsoleConversation(
      db(),
      conversation.id,
      () => ({ productName: "x", durationLabel: null }),
      by(GRACE, conversation.id),
    );
    expect(view?.timeline.at(-1)).toMatchObject({
      kind: "message",
      author: "team",
      source: "console",
      authorName: "grace",
    });
  });

  it("keeps a console note from the visitor, posts it as a note, and keeps a thread's note once", async () => {
    const { bot, conversation, threadId } = await withThread();
    await noteFromConsole(db(), ADA, conversation.id, "Refund approved by the owner", by(ADA, conversation.id));
    expect((await conversationMessages(db(), conversation.id)).map((m) => m.body)).not.toContain(
      "Refund approved by the owner",
    );
    await post(bot);
    expect(emulator.messagesOf(threadId).map((m) => m.content)).toContain(
      "note: **ada** (console): Refund approved by the owner",
    );
    emulator.postNote(threadId, "checked the payment");
    emulator.postAsTeam(threadId, "We are on it");
    const readNow = () =>
      readDueThreads({ db: db(), bot, schedule: { fastMs: 0, slowMs: 0 }, stateCheckMs: 3_600_000 });
    await readNow();
    await readNow();
    const notes = await conversationNotes(db(), conversation.id);
    expect(notes.map((n) => [n.source, n.body])).toEqual([
      ["console", "Refund approved by the owner"],
      ["discord", "checked the payment"],
    ]);
    const visible = await conversationMessages(db(), conversation.id);
    expect(visible.map((m) => m.body)).not.toContain("checked the payment");
    expect(visible.at(-1)).toMatchObject({ author: "team", body: "We are on it" });
    // The conversation's own turn is not changed by notes: the team's reply made it the visitor's.
    expect((await findConversation(db(), conversation.id))?.waiting_on).toBe("visitor");
  });

  it("archives the thread on Resolve and opens it on Reopen; archiving in Discord resolves it in the console", async () => {
    const { bot, conversation, threadId } = await withThread();
    expect(await resolveFromConsole(db(), conversation.id, by(ADA, conversation.id))).toBe(true);
    expect(await resolveFromConsole(db(), conversation.id, by(ADA, conversation.id))).toBe(false);
    await post(bot);
    expect(emulator.channel(threadId)?.archived).toBe(true);
    expect((await list("resolved")).rows.map((r) => r.id)).toEqual([conversation.id]);

    expect(await reopenFromConsole(db(), conversation.id, by(ADA, conversation.id))).toBe(true);
    await post(bot);
    expect(emulator.channel(threadId)?.archived).toBe(false);
    const reopened = await findConversation(db(), conversation.id);
    expect(reopened).toMatchObject({ status: "open", resolved_at: null });

    // The team archives the thread in Discord: the next state check resolves it here.
    emulator.archive(threadId);
    await readDueThreads({ db: db(), bot, schedule: { fastMs: 0, slowMs: 0 }, stateCheckMs: 0 });
    expect((await findConversation(db(), conversation.id))?.status).toBe("resolved");
  });

  it("holds console posts through a Discord outage and posts each once when it is back", async () => {
    const { bot, conversation, threadId } = await withThread();
    await emulator.stop();
    await replyFromConsole(db(), ADA, conversation.id, "First", by(ADA, conversation.id));
    await noteFromConsole(db(), ADA, conversation.id, "Second", by(ADA, conversation.id));
    const during = await post(bot);
    expect(during.delivered).toEqual([]);
    expect(during.retrying.length).toBeGreaterThan(0);
    const view = await loadConsoleConversation(
      db(),
      conversation.id,
      () => ({ productName: "x", durationLabel: null }),
      by(ADA, conversation.id),
    );
    expect(view?.unsentToThread.map((p) => p.kind)).toEqual(["reply", "note"]);
    await emulator.start();
    // Due again after the backoff (1 ms base here).
    for (let i = 0; i < 20; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await post(bot);
      if (
        (await db().selectFrom("support_thread_posts").select("id").where("status", "=", "pending").execute())
          .length === 0
      )
        break;
    }
    const contents = emulator.messagesOf(threadId).map((m) => m.content);
    expect(contents.filter((c) => c === "**ada** (console): First")).toHaveLength(1);
    expect(contents.filter((c) => c === "note: **ada** (console): Second")).toHaveLength(1);
    expect(contents.indexOf("**ada** (console): First")).toBeLessThan(
      contents.indexOf("note: **ada** (console): Second"),
    );
  });
});
