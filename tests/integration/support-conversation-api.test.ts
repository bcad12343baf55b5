import crypto from "node:crypto";
import type { AddressInfo } from "node:net";
import compression from "compression";
import express from "express";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  conversationDoorbell,
  createLocalDoorbell,
  setConversationDoorbell,
} from "~/features/support-conversation/conversation-doorbell.server";
import {
  createPostgresDoorbell,
  createRedisDoorbell,
  type SharedDoorbell,
} from "~/features/support-conversation/conversation-live.server";
import {
  appendConversationMessage,
  findConversation,
  openConversation,
  resolveConversation,
} from "~/features/support-conversation/conversation-store.server";
import { ConversationStreams } from "~/features/support-conversation/conversation-streams.server";
import {
  createConversationApi,
  FOREIGN_ORIGIN_ERROR,
  NO_CONVERSATION_ERROR,
  RESOLVED_ERROR,
  VISITOR_MESSAGE_LIMITS,
} from "~/features/support-conversation/conversation.api.server";
import {
  CONVERSATION_COOKIE,
  type ConversationMessage,
  type ConversationView,
} from "~/features/support-conversation/support-conversation";
import {
  addTeamReply,
  questionnaireLines,
  repliesLive,
  resolveConversationAndRing,
  setRepliesBlocked,
} from "~/features/support-conversation/support-conversation.server";
import { type Kysely, sql } from "kysely";
import type { Database } from "../../db/schema";
import { createTestDatabase, type TestDatabase, testDialects } from "../support/databases";
import { type EventStreamReader, openEventStream } from "../support/event-stream";

const dialects = await testDialects();
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** One app instance: the conversation API over its own stream hub, on its own port. */
async function startInstance(db: () => Kysely<Database>, pollMs: number | null, doorbell = conversationDoorbell) {
  const streams = new ConversationStreams({ db, doorbell, repliesLive, pollMs });
  const app = express();
  // As server.ts serves it: the stream must get through the compression middleware unbuffered.
  app.use(compression());
  app.use("/api", createConversationApi({ db, streams: () => streams }));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    streams,
    async stop() {
      streams.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
type Instance = Awaited<ReturnType<typeof startInstance>>;

async function newConversation(db: Kysely<Database>) {
  return openConversation(db, {
    requestId: crypto.randomUUID(),
    category: "Key Reset",
    locale: "en",
    visitorEmail: "visitor@example.com",
    lines: questionnaireLines("Key Reset", ["Kestrel Vault", "New PC", "visitor@example.com"]),
  });
}

const cookie = (token: string) => ({ cookie: `${CONVERSATION_COOKIE}=${token}` });
const messagesOf = (stream: EventStreamReader) =>
  stream.events.filter((e) => e.event === "message").map((e) => JSON.parse(e.data) as ConversationMessage);

describe.each(dialects)("the conversation API on %s", (dialect) => {
  let database: TestDatabase;
  let instance: Instance;
  const db = () => database.handle.db;
  const open: EventStreamReader[] = [];
  const stream = async (token: string | undefined, headers: Record<string, string> = {}, query = "") => {
    const reader = await openEventStream(`${instance.base}/api/support/conversation/events${query}`, {
      ...(token ? cookie(token) : {}),
      ...headers,
    });
    open.push(reader);
    return reader;
  };
  const post = (path: string, token: string | undefined, body: unknown, origin: string | null = instance.base) =>
    fetch(`${instance.base}/api/support/conversation${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(origin ? { origin } : {}),
        ...(token ? cookie(token) : {}),
      },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    // SQLite serves one process: its streams check for news each second (the CLI writes from another process).
    instance = await startInstance(db, dialect === "sqlite" ? 1_000 : null);
  });
  afterEach(() => {
    for (const reader of open.splice(0)) reader.close();
    setRepliesBlocked(null);
  });
  afterAll(async () => {
    await instance.stop();
    await database.drop();
  });

  it("answers the whole conversation to its cookie, only what is new with ?after, and marks the visitor present", async () => {
    const { conversation, token } = await newConversation(db());
    await db()
      .updateTable("support_conversations")
      .set({ visitor_active_at: "2020-01-01T00:00:00.000Z" })
      .where("id", "=", conversation.id)
      .execute();
    const res = await fetch(`${instance.base}/api/support/conversation`, { headers: cookie(token) });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const view = (await res.json()) as ConversationView;
    expect(view).toMatchObject({ id: conversation.id, category: "Key Reset", status: "open", repliesLive: true });
    expect(view.messages.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(view.messages[1]).toMatchObject({ author: "visitor", body: "Key Reset", authorName: null });
    expect((await findConversation(db(), conversation.id))?.visitor_active_at).not.toBe("2020-01-01T00:00:00.000Z");

    await addTeamReply(db(), conversation.id, { authorName: "Ada", body: "Done, try again" });
    const after = await fetch(`${instance.base}/api/support/conversation?after=9`, { headers: cookie(token) });
    expect(((await after.json()) as ConversationView).messages).toEqual([
      expect.objectContaining({ seq: 10, author: "team", authorName: "Ada", body: "Done, try again" }),
    ]);
    for (const bad of ["-1", "x", "1.5"]) {
      const res400 = await fetch(`${instance.base}/api/support/conversation?after=${bad}`, { headers: cookie(token) });
      expect(res400.status).toBe(400);
      expect(await res400.json()).toHaveProperty("error");
    }
  });

  it("answers 404 {error} on every route without a cookie, with an unknown or malformed one, and with a link key", async () => {
    const { linkKey } = await newConversation(db());
    const unknown = crypto.randomBytes(32).toString("base64url");
    for (const token of [undefined, unknown, "short", "x".repeat(43), linkKey]) {
      const headers = token ? cookie(token) : {};
      const view = await fetch(`${instance.base}/api/support/conversation`, { headers });
      expect(view.status).toBe(404);
      expect(await view.json()).toEqual({ error: NO_CONVERSATION_ERROR });
      const events = await stream(token);
      expect(events.status).toBe(404);
      expect(events.headers.get("content-type")).toMatch(/application\/json/);
      const message = await post("/messages", token, { text: "hello" });
      expect(message.status).toBe(404);
      expect(await message.json()).toEqual({ error: NO_CONVERSATION_ERROR });
      const seen = await post("/seen", token, { seq: 1 });
      expect(seen.status).toBe(404);
    }
  });

  it("shows a visitor only their own conversation", async () => {
    const mine = await newConversation(db());
    const theirs = await newConversation(db());
    await addTeamReply(db(), theirs.conversation.id, { authorName: "Ada", body: "secret for them" });
    const view = (await (
      await fetch(`${instance.base}/api/support/conversation`, { headers: cookie(mine.token) })
    ).json()) as ConversationView;
    expect(view.id).toBe(mine.conversation.id);
    expect(JSON.stringify(view)).not.toContain("secret for them");
    const events = await stream(mine.token);
    await events.waitFor((e) => e.id === "9");
    await addTeamReply(db(), theirs.conversation.id, { authorName: "Ada", body: "another secret" });
    await addTeamReply(db(), mine.conversation.id, { authorName: "Ada", body: "for me" });
    await events.waitFor((e) => e.data.includes("for me"));
    expect(JSON.stringify(events.events)).not.toContain("secret");
  });

  it("stores a visitor's message (202), refuses bad bodies (400), foreign pages (403) and resolved conversations (409)", async () => {
    const { conversation, token } = await newConversation(db());
    const res = await post("/messages", token, { text: "  It still fails  " });
    expect(res.status).toBe(202);
    const { message } = (await res.json()) as { message: ConversationMessage };
    expect(message).toMatchObject({ seq: 10, author: "visitor", body: "It still fails", authorName: null });
    const stored = await db()
      .selectFrom("support_conversation_messages")
      .selectAll()
      .where("conversation_id", "=", conversation.id)
      .where("seq", "=", 10)
      .executeTakeFirstOrThrow();
    expect(stored.delivery_status).toBe("no_channel");

    for (const body of [{}, { text: "" }, { text: "   " }, { text: 5 }, { text: "x".repeat(5000) }, "text", null]) {
      const bad = await post("/messages", token, body);
      expect(bad.status).toBe(400);
      expect(await bad.json()).toHaveProperty("error");
    }
    const foreign = await post("/messages", token, { text: "hi" }, "https://evil.example");
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toEqual({ error: FOREIGN_ORIGIN_ERROR });
    expect((await post("/messages", token, { text: "hi" }, null)).status).toBe(403);
    const crossSite = await fetch(`${instance.base}/api/support/conversation/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "sec-fetch-site": "cross-site", ...cookie(token) },
      body: JSON.stringify({ text: "hi" }),
    });
    expect(crossSite.status).toBe(403);
    const sameSite = await fetch(`${instance.base}/api/support/conversation/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "sec-fetch-site": "same-origin", ...cookie(token) },
      body: JSON.stringify({ text: "from our page" }),
    });
    expect(sameSite.status).toBe(202);

    expect(await resolveConversation(db(), conversation.id)).toBe(true);
    const resolved = await post("/messages", token, { text: "anyone?" });
    expect(resolved.status).toBe(409);
    expect(await resolved.json()).toEqual({ error: RESOLVED_ERROR });
  });

  it("limits a conversation's messages to a chat's pace (429 with Retry-After)", async () => {
    const { token } = await newConversation(db());
    for (let i = 0; i < VISITOR_MESSAGE_LIMITS.conversation.points; i++)
      expect((await post("/messages", token, { text: `message ${i}` })).status).toBe(202);
    const limited = await post("/messages", token, { text: "one more" });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited.json()).toEqual({ error: VISITOR_MESSAGE_LIMITS.conversation.error });
  });

  it("records what the page has seen (204), never beyond the last message", async () => {
    const { conversation, token } = await newConversation(db());
    await addTeamReply(db(), conversation.id, { authorName: "Ada", body: "Hello" });
    expect((await post("/seen", token, { seq: 10 })).status).toBe(204);
    expect((await findConversation(db(), conversation.id))?.visitor_seen_seq).toBe(10);
    expect((await post("/seen", token, { seq: 5 })).status).toBe(204);
    expect((await findConversation(db(), conversation.id))?.visitor_seen_seq).toBe(10);
    expect((await post("/seen", token, { seq: 1e9 })).status).toBe(204);
    expect((await findConversation(db(), conversation.id))?.visitor_seen_seq).toBe(10);
    for (const body of [{}, { seq: -1 }, { seq: "3" }, { seq: 1.5 }])
      expect((await post("/seen", token, body)).status).toBe(400);
    expect((await post("/seen", token, { seq: 10 }, "https://evil.example")).status).toBe(403);
  });

  it("streams the conversation: headers, retry, status, then each new message once with its seq as id", async () => {
    const { conversation, token } = await newConversation(db());
    const events = await stream(token, { "accept-encoding": "gzip, br" });
    expect(events.status).toBe(200);
    expect(events.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(events.headers.get("cache-control")).toContain("no-store");
    expect(events.headers.get("x-accel-buffering")).toBe("no");
    expect(events.headers.get("content-encoding")).toBeNull();
    await events.waitFor((e) => e.id === "9");
    expect(events.retry).toBe(3000);
    // The conversation's id too: a page whose cookie changed since (a new request in another tab) can tell.
    expect(events.events[0]).toEqual({
      event: "status",
      data: JSON.stringify({ status: "open", repliesLive: true, conversationId: conversation.id }),
    });
    await addTeamReply(db(), conversation.id, { authorName: "Ada", body: "First" });
    await addTeamReply(db(), conversation.id, { authorName: "Grace", body: "Second" });
    await events.waitFor((e) => e.id === "11");
    expect(messagesOf(events).map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(messagesOf(events).at(-1)).toMatchObject({ author: "team", authorName: "Grace", body: "Second" });

    await resolveConversationAndRing(db(), conversation.id);
    await events.waitFor((e) => e.event === "status" && e.data.includes("resolved"));
    setRepliesBlocked("intent off");
    await events.waitFor((e) => e.event === "status" && e.data.includes('"repliesLive":false'));
  });

  it("replays from Last-Event-ID (or ?after) from the database: nothing missed, nothing repeated", async () => {
    const { conversation, token } = await newConversation(db());
    const first = await stream(token);
    await addTeamReply(db(), conversation.id, { authorName: "Ada", body: "reply 10" });
    await first.waitFor((e) => e.id === "10");
    first.close();
    // Written while the visitor was away: the browser reconnects with the last id it saw.
    await addTeamReply(db(), conversation.id, { authorName: "Ada", body: "reply 11" });
    await appendConversationMessage(db(), conversation.id, { author: "visitor", body: "message 12" });
    const resumed = await stream(token, { "last-event-id": "10" });
    await resumed.waitFor((e) => e.id === "12");
    await addTeamReply(db(), conversation.id, { authorName: "Ada", body: "reply 13" });
    await resumed.waitFor((e) => e.id === "13");
    expect(messagesOf(resumed).map((m) => m.seq)).toEqual([11, 12, 13]);
    const byQuery = await stream(token, {}, "?after=12");
    await byQuery.waitFor((e) => e.id === "13");
    expect(messagesOf(byQuery).map((m) => m.seq)).toEqual([13]);
    expect((await stream(token, { "last-event-id": "abc" })).status).toBe(400);
    // An id this conversation never reached was seen in another conversation: everything is sent again.
    const fromElsewhere = await stream(token, { "last-event-id": "500" });
    await fromElsewhere.waitFor((e) => e.id === "13");
    expect(messagesOf(fromElsewhere).map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });

  it("delivers a burst of replies, each exactly once and in order, to every stream of the conversation", async () => {
    const { conversation, token } = await newConversation(db());
    const a = await stream(token);
    const b = await stream(token, { "last-event-id": "9" });
    await a.waitFor((e) => e.id === "9");
    // Three writers at once, ten times over (a visitor and two team members typing together).
    for (let round = 0; round < 10; round++)
      await Promise.all(
        [0, 1, 2].map((i) => addTeamReply(db(), conversation.id, { authorName: "Ada", body: `r${round}.${i}` })),
      );
    await a.waitFor((e) => e.id === "39");
    await b.waitFor((e) => e.id === "39");
    const seqs = Array.from({ length: 30 }, (_, i) => 10 + i);
    expect(messagesOf(a).map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, ...seqs]);
    expect(messagesOf(b).map((m) => m.seq)).toEqual(seqs);
  });

  it("marks the visitors of open streams present while they stay connected", async () => {
    const { conversation, token } = await newConversation(db());
    const presence = new ConversationStreams({ db, doorbell: conversationDoorbell, repliesLive, presenceMs: 200 });
    const app = express();
    app.use("/api", createConversationApi({ db, streams: () => presence }));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const events = await openEventStream(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/support/conversation/events`,
      cookie(token),
    );
    try {
      await events.waitFor((e) => e.id === "9");
      await db()
        .updateTable("support_conversations")
        .set({ visitor_active_at: "2020-01-01T00:00:00.000Z" })
        .where("id", "=", conversation.id)
        .execute();
      await expect
        .poll(async () => (await findConversation(db(), conversation.id))?.visitor_active_at)
        .not.toBe("2020-01-01T00:00:00.000Z");
    } finally {
      events.close();
      presence.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("removes a closed stream's listener", async () => {
    const { token } = await newConversation(db());
    await expect.poll(() => instance.streams.size).toBe(0);
    const before = instance.streams.size;
    const events = await stream(token);
    await events.waitFor((e) => e.id === "9");
    expect(instance.streams.size).toBe(before + 1);
    events.close();
    await expect.poll(() => instance.streams.size).toBe(before);
    // HEAD gets the stream's headers and no stream held open.
    const head = await fetch(`${instance.base}/api/support/conversation/events`, {
      method: "HEAD",
      headers: cookie(token),
    });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(instance.streams.size).toBe(before);
  });

  it("ends streams at shutdown, and ends new ones at once so a draining instance does not wait for them", async () => {
    const { token } = await newConversation(db());
    const other = await startInstance(db, null);
    try {
      const events = await openEventStream(`${other.base}/api/support/conversation/events`, cookie(token));
      await events.waitFor((e) => e.id === "9");
      other.streams.close();
      await events.ended;
      const late = await openEventStream(`${other.base}/api/support/conversation/events`, cookie(token));
      expect(late.status).toBe(200);
      await late.ended;
      expect(late.retry).toBe(3000);
      expect(late.events).toEqual([]);
      expect(other.streams.size).toBe(0);
    } finally {
      await other.stop();
    }
  });

  if (dialect === "sqlite")
    it("brings a reply written by another process (no ring here) within the second's check", async () => {
      const { conversation, token } = await newConversation(db());
      const events = await stream(token);
      await events.waitFor((e) => e.id === "9");
      // Another process (the CLI) writes with its own connection and its own bell: this one never rings.
      const other = database.open();
      await appendConversationMessage(other.db, conversation.id, {
        author: "team",
        authorName: "CLI",
        body: "from cli",
      });
      await other.close();
      await events.waitFor((e) => e.id === "10");
    });
});

describe.skipIf(!dialects.includes("postgres"))("the doorbell between instances", () => {
  let database: TestDatabase;
  const bells: SharedDoorbell[] = [];
  const instances: Instance[] = [];
  let redis: Redis | undefined;
  beforeAll(async () => {
    database = await createTestDatabase("postgres");
  });
  afterEach(async () => {
    for (const i of instances.splice(0)) await i.stop();
    for (const b of bells.splice(0)) await b.close();
    setConversationDoorbell(createLocalDoorbell());
  });
  afterAll(async () => {
    redis?.disconnect();
    await database.drop();
  });

  const twoInstances = async (makeBell: (reread: () => void) => SharedDoorbell) => {
    const pair: Instance[] = [];
    for (let i = 0; i < 2; i++) {
      const handle = database.open();
      let instance: Instance | undefined;
      const bell = makeBell(() => instance?.streams.rereadAll());
      bells.push(bell);
      instance = await startInstance(
        () => handle.db,
        null,
        () => bell,
      );
      instances.push(instance);
      pair.push(instance);
    }
    return { one: pair[0] as Instance, two: pair[1] as Instance, bellOne: bells.at(-2) as SharedDoorbell };
  };

  /** `listening` resolves once instance 2's bell listens, so only a ring (not its first re-read) can bring the reply. */
  const replyReachesOtherInstance = async (
    makeBell: (reread: () => void) => SharedDoorbell,
    listening: () => Promise<boolean>,
  ) => {
    const { two, bellOne } = await twoInstances(makeBell);
    const { conversation, token } = await newConversation(database.handle.db);
    const events = await openEventStream(`${two.base}/api/support/conversation/events`, cookie(token));
    try {
      await events.waitFor((e) => e.id === "9");
      await expect.poll(listening).toBe(true);
      // Stored by instance 1 (its bell rings); the stream is on instance 2, which has no poll to fall back on.
      setConversationDoorbell(bellOne);
      await addTeamReply(database.handle.db, conversation.id, { authorName: "Ada", body: "across" });
      const reply = await events.waitFor((e) => e.id === "10", 3_000);
      expect(JSON.parse(reply.data)).toMatchObject({ body: "across", author: "team" });
      await addTeamReply(database.handle.db, conversation.id, { authorName: "Ada", body: "again" });
      await events.waitFor((e) => e.id === "11", 3_000);
      expect(events.events.filter((e) => e.event === "message").map((e) => e.id)).toEqual([
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
        "8",
        "9",
        "10",
        "11",
      ]);
    } finally {
      events.close();
    }
  };

  it("carries a reply stored on instance 1 to a stream on instance 2 through PostgreSQL LISTEN/NOTIFY", async () => {
    const channel = `support_conversation_${crypto.randomBytes(4).toString("hex")}`;
    await replyReachesOtherInstance(
      (onReconnect) =>
        createPostgresDoorbell({
          connectionString: database.url as string,
          db: () => database.handle.db,
          onReconnect,
          channel,
        }),
      async () =>
        (
          await sql`select pid from pg_stat_activity where query ilike ${`LISTEN%${channel}%`}`.execute(
            database.handle.db,
          )
        ).rows.length === 1,
    );
  });

  it("carries a reply stored on instance 1 to a stream on instance 2 through Redis pub/sub", async () => {
    redis ??= new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    const channel = `kestrel:test:${crypto.randomBytes(4).toString("hex")}`;
    await replyReachesOtherInstance(
      (onReconnect) => createRedisDoorbell({ url: REDIS_URL, publisher: () => redis, onReconnect, channel }),
      async () => ((await redis?.call("PUBSUB", "NUMSUB", channel)) as [string, number])[1] === 1,
    );
  });

  it("re-reads every open stream when the Redis bell reconnects: a ring lost meanwhile misses nothing", async () => {
    redis ??= new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    const suffix = crypto.randomBytes(4).toString("hex");
    const { two } = await twoInstances((onReconnect) =>
      createRedisDoorbell({
        url: REDIS_URL,
        publisher: () => redis,
        onReconnect,
        channel: `kestrel:test:${suffix}`,
        connectionName: `kestrel-test-bell-${suffix}`,
      }),
    );
    const { conversation, token } = await newConversation(database.handle.db);
    const events = await openEventStream(`${two.base}/api/support/conversation/events`, cookie(token));
    try {
      await events.waitFor((e) => e.id === "9");
      const subscriber = async () =>
        ((await redis?.call("CLIENT", "LIST")) as string)
          .split("\n")
          .find((line) => line.includes(`name=kestrel-test-bell-${suffix}`));
      await expect.poll(subscriber).toBeDefined();
      // A reply stored without a ring (as if the ring was lost), then the subscriber's connection is cut.
      await appendConversationMessage(database.handle.db, conversation.id, {
        author: "team",
        authorName: "Ada",
        body: "during the cut",
      });
      const id = /\bid=(\d+)/.exec((await subscriber()) ?? "")?.[1];
      expect(id).toBeDefined();
      await redis?.call("CLIENT", "KILL", "ID", id as string);
      await events.waitFor((e) => e.id === "10", 10_000);
      expect(events.events.filter((e) => e.id === "10")).toHaveLength(1);
    } finally {
      events.close();
    }
  });

  it("re-reads every open stream when the PostgreSQL bell reconnects: a ring lost meanwhile misses nothing", async () => {
    const channel = `support_conversation_${crypto.randomBytes(4).toString("hex")}`;
    const { two } = await twoInstances((onReconnect) =>
      createPostgresDoorbell({
        connectionString: database.url as string,
        db: () => database.handle.db,
        onReconnect,
        channel,
      }),
    );
    const { conversation, token } = await newConversation(database.handle.db);
    const events = await openEventStream(`${two.base}/api/support/conversation/events`, cookie(token));
    try {
      await events.waitFor((e) => e.id === "9");
      // A reply stored without a ring (as if the ring was lost), then the LISTEN connection is cut.
      await appendConversationMessage(database.handle.db, conversation.id, {
        author: "team",
        authorName: "Ada",
        body: "during the cut",
      });
      const listening = sql`select pid from pg_stat_activity where query ilike ${`LISTEN%${channel}%`}`;
      await expect.poll(async () => (await listening.execute(database.handle.db)).rows.length).toBe(1);
      const terminated = await sql<{
        pid: number;
      }>`select pg_terminate_backend(pid) as pid from pg_stat_activity where query ilike ${`LISTEN%${channel}%`}`.execute(
        database.handle.db,
      );
      expect(terminated.rows.length).toBeGreaterThan(0);

      await events.waitFor((e) => e.id === "10", 10_000);
      expect(events.events.filter((e) => e.id === "10")).toHaveLength(1);
    } finally {
      events.close();
    }
  });
});
