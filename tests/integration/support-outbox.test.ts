import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  channelKey,
  redisChannelPauses,
  rememberingChannelPauses,
} from "~/features/support-relay/channel-pauses.server";
import {
  deliverDueSupportRequests,
  GIVE_UP_AFTER_MS,
  retryDelayMs,
  startDeliveryWorker,
} from "~/features/support-relay/delivery-worker.server";
import {
  claimDueSupportRequests,
  findSupportRequest,
  insertSupportRequest,
  listSupportRequests,
  readOutboxDepth,
  requeueSupportRequests,
} from "~/features/support-relay/support-outbox.server";
import { supportChannelPauses, supportDeliveryAttempts, supportOutboxDepth } from "~/platform/metrics.server";
import { type ChatWebhookReceiver, startChatWebhookReceiver } from "../fakes/chat-webhook-receiver";
import { freePort } from "../support/app-server";
import { createTestDatabase, type TestDatabase, testDialects } from "../support/databases";

const dialects = await testDialects();
const keyReset = { category: "Key Reset" as const, answers: ["Kestrel Vault", "New PC", "me@example.com"] };

describe.each(dialects)("support outbox on %s", (dialect) => {
  let database: TestDatabase;
  let receiver: ChatWebhookReceiver;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database.drop();
  });
  beforeEach(async () => {
    await database.handle.db.deleteFrom("support_requests").execute();
    await database.handle.db.deleteFrom("channel_pauses").execute();
    receiver = await startChatWebhookReceiver();
  });
  afterEach(async () => {
    await receiver.close();
  });

  const options = (extra: Partial<Parameters<typeof deliverDueSupportRequests>[0]> = {}) => ({
    db: database.handle.db,
    dialect,
    webhookUrl: receiver.url,
    random: () => 0.5,
    timeoutMs: 2_000,
    ...extra,
  });

  it("stores a request as pending with its answers, and as no_channel without a webhook", async () => {
    const pending = await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true });
    const parked = await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: false });
    expect((await findSupportRequest(database.handle.db, pending.id))?.deliveryStatus).toBe("pending");
    expect(await findSupportRequest(database.handle.db, parked.id)).toMatchObject({
      deliveryStatus: "no_channel",
      answers: keyReset.answers,
    });
    expect(pending.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await listSupportRequests(database.handle.db, { status: "no_channel" })).map((r) => r.id)).toEqual([
      parked.id,
    ]);
  });

  it("delivers a pending request once, in the exact channel format, and marks it delivered", async () => {
    const request = await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true });
    const pass = await deliverDueSupportRequests(options());
    expect(pass.delivered).toEqual([request.id]);
    expect(receiver.requests).toHaveLength(1);
    const [received] = receiver.requests;
    expect(received?.query.get("wait")).toBe("true");
    expect(received?.problems).toEqual([]);
    expect(received?.body).toEqual({
      content: "New Key Reset Request",
      embeds: [
        {
          title: "Support Request - Key Reset",
          description:
            "**Which product key needs to be reset?**\nKestrel Vault\n\n**What is the reason for the reset?**\nNew PC\n\n**What is your email address or chat username, so we can reach you?**\nme@example.com",
          color: 5793266,
          timestamp: request.createdAt,
          footer: { text: `Request ID: ${request.id}` },
        },
      ],
      allowed_mentions: { parse: [] },
    });
    const stored = await findSupportRequest(database.handle.db, request.id);
    expect(stored).toMatchObject({ deliveryStatus: "delivered", attempts: 1, lastError: null });
    expect(stored?.deliveredAt).not.toBeNull();
    expect((await deliverDueSupportRequests(options())).delivered).toEqual([]);
    expect(receiver.requests).toHaveLength(1);
  });

  it("backs off with jitter after a 5xx and retries when due", async () => {
    const request = await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true });
    receiver.queue({ kind: "500" });
    const start = new Date();
    const first = await deliverDueSupportRequests(options({ now: () => start }));
    expect(first.retrying).toEqual([request.id]);
    const afterFailure = await findSupportRequest(database.handle.db, request.id);
    expect(afterFailure).toMatchObject({
      deliveryStatus: "pending",
      attempts: 1,
      lastError: "HTTP 500: 500: Internal Server Error",
    });
    expect(Date.parse(afterFailure?.nextAttemptAt ?? "") - start.getTime()).toBe(retryDelayMs(1, () => 0.5));
    // Not due yet: nothing is sent.
    expect((await deliverDueSupportRequests(options({ now: () => start }))).delivered).toEqual([]);
    const later = new Date(start.getTime() + 60_000);
    expect((await deliverDueSupportRequests(options({ now: () => later }))).delivered).toEqual([request.id]);
    expect(receiver.requests.map((r) => r.answer)).toEqual(["500", "204"]);
  });

  it("waits retry_after seconds (float) on 429, or the Retry-After header when the body has none", async () => {
    const request = await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true });
    const start = new Date();
    receiver.queue({ kind: "429", retryAfterSeconds: 2.5, header: false });
    await deliverDueSupportRequests(options({ now: () => start }));
    let stored = await findSupportRequest(database.handle.db, request.id);
    expect(Date.parse(stored?.nextAttemptAt ?? "") - start.getTime()).toBe(2500);
    expect(stored?.lastError).toContain("HTTP 429");

    receiver.queue({ kind: "429", retryAfterSeconds: 7, body: false });
    const second = new Date(start.getTime() + 2500);
    await deliverDueSupportRequests(options({ now: () => second }));
    stored = await findSupportRequest(database.handle.db, request.id);
    expect(Date.parse(stored?.nextAttemptAt ?? "") - second.getTime()).toBe(7000);

    const third = new Date(second.getTime() + 7000);
    expect((await deliverDueSupportRequests(options({ now: () => third }))).delivered).toEqual([request.id]);
  });

  it("holds every other request after a 429 instead of collecting more of them", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true })).id);
    receiver.queue({ kind: "429", retryAfterSeconds: 1.5 });
    const start = new Date();
    const pass = await deliverDueSupportRequests(options({ now: () => start }));
    expect(receiver.requests).toHaveLength(1);
    expect(pass.pausedUntil).toEqual(new Date(start.getTime() + 1500));
    const stored = await listSupportRequests(database.handle.db, { status: "pending" });
    expect(stored.map((r) => r.attempts)).toEqual([0, 0, 0]);
    expect(stored.every((r) => r.claimedUntil === null)).toBe(true);
    const justBefore = new Date(start.getTime() + 1499);
    expect((await deliverDueSupportRequests(options({ now: () => justBefore }))).delivered).toEqual([]);
    expect(receiver.requests).toHaveLength(1);
    const later = new Date(start.getTime() + 1500);
    expect((await deliverDueSupportRequests(options({ now: () => later }))).delivered.sort()).toEqual([...ids].sort());
  });

  it("after a 429 posts nothing to the channel until retry_after has passed, however often new requests wake the worker", async () => {
    receiver.setDefault({ kind: "429", retryAfterSeconds: 1 });
    const worker = startDeliveryWorker({ ...options(), pollMs: 50 });
    try {
      // Visitors keep asking for help at 5 requests per second while the channel is rate limiting us.
      for (let i = 0; i < 12; i++) {
        await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true });
        worker.kick();
        await new Promise((r) => setTimeout(r, 200));
      }
      receiver.setDefault({ kind: "204" });
      await vi.waitFor(
        async () => expect(await listSupportRequests(database.handle.db, { status: "delivered" })).toHaveLength(12),
        { timeout: 20_000, interval: 100 },
      );
    } finally {
      await worker.stop();
    }
    const posts = receiver.requests;
    expect(posts.filter((r) => r.answer === "429").length).toBeGreaterThan(0);
    for (const [i, post] of posts.entries()) {
      const previous = posts[i - 1];
      if (previous?.answer === "429") expect(post.receivedAt - previous.receivedAt).toBeGreaterThanOrEqual(1000);
    }
    expect(receiver.delivered()).toHaveLength(12);
    // Each delivered once, and the 429s were not counted as attempts.
    expect((await listSupportRequests(database.handle.db)).map((r) => r.attempts)).toEqual(Array(12).fill(1));
  });

  it("a second worker on the same database honours the first one's pause", async () => {
    const first = await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true });
    const start = new Date();
    receiver.queue({ kind: "429", retryAfterSeconds: 30 });
    await deliverDueSupportRequests(options({ workerId: "a", now: () => start }));
    expect(receiver.requests).toHaveLength(1);
    const second = await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true });
    const otherInstance = database.open();
    try {
      const during = new Date(start.getTime() + 29_000);
      const paused = await deliverDueSupportRequests(
        options({ db: otherInstance.db, workerId: "b", now: () => during }),
      );
      expect(receiver.requests).toHaveLength(1);
      expect(paused.pausedUntil).toEqual(new Date(start.getTime() + 30_000));
      const after = new Date(start.getTime() + 30_000);
      const pass = await deliverDueSupportRequests(options({ db: otherInstance.db, workerId: "b", now: () => after }));
      expect(pass.delivered.sort()).toEqual([first.id, second.id].sort());
    } finally {
      if (dialect === "sqlite") await otherInstance.close();
    }
  });

  it("does not count a 429 as a failed attempt, nor let it lengthen the backoff", async () => {
    const request = await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true });
    receiver.queue({ kind: "500" }, { kind: "429", retryAfterSeconds: 5 }, { kind: "500" });
    const start = new Date();
    await deliverDueSupportRequests(options({ now: () => start }));
    const limitedAt = new Date(start.getTime() + 60_000);
    await deliverDueSupportRequests(options({ now: () => limitedAt }));
    expect(await findSupportRequest(database.handle.db, request.id)).toMatchObject({
      attempts: 1,
      firstFailedAt: start.toISOString(),
      nextAttemptAt: new Date(limitedAt.getTime() + 5000).toISOString(),
    });
    const failedAgainAt = new Date(limitedAt.getTime() + 5000);
    await deliverDueSupportRequests(options({ now: () => failedAgainAt }));
    const stored = await findSupportRequest(database.handle.db, request.id);
    expect(stored?.attempts).toBe(2);
    expect(Date.parse(stored?.nextAttemptAt ?? "") - failedAgainAt.getTime()).toBe(retryDelayMs(2, () => 0.5));
  });

  it("never posts a request twice while both workers are alive, even when the channel answers slower than the claim lease", async () => {
    for (let i = 0; i < 4; i++) await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true });
    receiver.setDefault({ kind: "204", delayMs: 3_000 });
    const otherInstance = database.open();
    const slow = { leaseMs: 2_000, timeoutMs: 10_000 };
    const workers = [
      startDeliveryWorker({ ...options({ workerId: "a", ...slow }), pollMs: 50 }),
      startDeliveryWorker({ ...options({ db: otherInstance.db, workerId: "b", ...slow }), pollMs: 50 }),
    ];
    const footers = () => receiver.requests.map((r) => r.body.embeds?.[0]?.footer?.text);
    try {
      await vi.waitFor(() => expect(new Set(footers()).size).toBe(4), { timeout: 25_000, interval: 100 });
    } finally {
      // stop() lets the last posts finish, so every post either worker made is in by now.
      for (const worker of workers) await worker.stop();
      if (dialect === "sqlite") await otherInstance.close();
    }
    expect(footers()).toHaveLength(4);
    expect(await listSupportRequests(database.handle.db, { status: "delivered" })).toHaveLength(4);
  }, 40_000);

  it("stop() lets the post in flight finish and records it", async () => {
    receiver.setDefault({ kind: "204", delayMs: 500 });
    const worker = startDeliveryWorker({ ...options(), pollMs: 60_000 });
    const request = await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true });
    worker.kick();
    await receiver.waitForRequests(1);
    await worker.stop();
    expect(await findSupportRequest(database.handle.db, request.id)).toMatchObject({
      deliveryStatus: "delivered",
      attempts: 1,
      claimedUntil: null,
    });
    expect(receiver.delivered()).toHaveLength(1);
  });

  it("stop() abandons a post that outlasts its grace period and hands the request back for another instance at once", async () => {
    receiver.setDefault({ kind: "hang" });
    const worker = startDeliveryWorker({ ...options({ timeoutMs: 20_000 }), pollMs: 60_000, stopGraceMs: 200 });
    const request = await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true });
    worker.kick();
    await receiver.waitForRequests(1);
    await worker.stop();
    expect(await findSupportRequest(database.handle.db, request.id)).toMatchObject({
      deliveryStatus: "pending",
      attempts: 0,
      claimedUntil: null,
      lastError: null,
    });
    receiver.setDefault({ kind: "204" });
    expect((await deliverDueSupportRequests(options({ workerId: "another-instance" }))).delivered).toEqual([
      request.id,
    ]);
  });

  it("shows invisible and direction-changing characters to staff as visible marks", async () => {
    // Displayed with the override, this contact address reads "me@example.com".
    const spoofed = "me@\u202Emoc.elpmaxe";
    await insertSupportRequest(
      database.handle.db,
      { category: "Key Reset", answers: ["Kestrel Vault", "New\u200BPC", spoofed] },
      { channelConfigured: true },
    );
    await deliverDueSupportRequests(options());
    const [received] = receiver.requests;
    expect(received?.answer).toBe("204");
    const description = received?.body.embeds?.[0]?.description ?? "";
    expect(description).toContain("\nme@\\[U+202E\\]moc.elpmaxe");
    expect(description).toContain("\nNew\\[U+200B\\]PC\n");
    expect(JSON.stringify(received?.body)).not.toMatch(/[\u202E\u200B]/);
  });

  it("delivers four 900-character answers full of Markdown whole", async () => {
    const answers = ["*a", "_b", "[c", "`d"].map((pair) => pair.repeat(450));
    const request = await insertSupportRequest(
      database.handle.db,
      { category: "Product Support", answers },
      { channelConfigured: true },
    );
    expect((await deliverDueSupportRequests(options())).delivered).toEqual([request.id]);
    const [received] = receiver.requests;
    expect(received?.problems).toEqual([]);
    const text = (received?.body.embeds ?? []).map((e) => e.description ?? "").join("\n");
    for (const pair of ["\\*a", "\\_b", "\\[c", "\\`d"]) expect(text).toContain(`\n${pair.repeat(450)}`);
  });

  it("runs as a background worker: a kick delivers at once, stop() ends it", async () => {
    let firstPassDone: () => void = () => {};
    const firstPass = new Promise<void>((resolve) => (firstPassDone = resolve));
    const worker = startDeliveryWorker({ ...options(), pollMs: 60_000, onPass: () => firstPassDone() });
    try {
      // The first pass found nothing; without the kick the next look would be a minute away.
      await firstPass;
      const request = await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true });
      worker.kick();
      const [message] = await receiver.waitForDelivered(1, 5_000);
      expect(message?.embeds?.[0]?.footer?.text).toBe(`Request ID: ${request.id}`);
    } finally {
      await worker.stop();
    }
  });

  it("marks a request failed with the reason on a 4xx other than 429", async () => {
    const request = await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true });
    receiver.queue({ kind: "400", message: "Invalid Form Body" });
    const pass = await deliverDueSupportRequests(options());
    expect(pass.failed).toEqual([request.id]);
    expect(await findSupportRequest(database.handle.db, request.id)).toMatchObject({
      deliveryStatus: "failed",
      lastError: "HTTP 400: Invalid Form Body",
    });
  });

  it("retries after a timeout and gives up after 24 h of failures", async () => {
    const request = await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true });
    receiver.setDefault({ kind: "hang" });
    const start = new Date();
    await deliverDueSupportRequests(options({ now: () => start, timeoutMs: 200 }));
    const stored = await findSupportRequest(database.handle.db, request.id);
    expect(stored).toMatchObject({
      deliveryStatus: "pending",
      lastError: "timed out or aborted",
      firstFailedAt: start.toISOString(),
    });
    receiver.setDefault({ kind: "500" });
    const dayLater = new Date(start.getTime() + GIVE_UP_AFTER_MS);
    const pass = await deliverDueSupportRequests(options({ now: () => dayLater }));
    expect(pass.failed).toEqual([request.id]);
    const failed = await findSupportRequest(database.handle.db, request.id);
    expect(failed?.deliveryStatus).toBe("failed");
    expect(failed?.lastError).toMatch(/^gave up after 24 h of failures; last: HTTP 500/);
  });

  it("retries on a network error while the channel is down, and delivers once it is back", async () => {
    const request = await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true });
    await receiver.stop();
    const start = new Date();
    expect((await deliverDueSupportRequests(options({ now: () => start }))).retrying).toEqual([request.id]);
    expect((await findSupportRequest(database.handle.db, request.id))?.lastError).toMatch(/^network error/);
    await receiver.start();
    const later = new Date(start.getTime() + 60_000);
    expect((await deliverDueSupportRequests(options({ now: () => later }))).delivered).toEqual([request.id]);
  });

  it("lets a claim expire so a crashed worker's request is picked up again", async () => {
    const request = await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true });
    const now = new Date();
    const claimed = await claimDueSupportRequests(database.handle.db, dialect, {
      workerId: "crashed",
      limit: 10,
      leaseMs: 30_000,
      now,
    });
    expect(claimed.map((r) => r.id)).toEqual([request.id]);
    expect(
      await claimDueSupportRequests(database.handle.db, dialect, {
        workerId: "other",
        limit: 10,
        leaseMs: 30_000,
        now,
      }),
    ).toEqual([]);
    const afterLease = new Date(now.getTime() + 30_001);
    expect((await deliverDueSupportRequests(options({ now: () => afterLease }))).delivered).toEqual([request.id]);
  });

  it("never sends a request twice when two workers with their own connections run side by side", async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 30; i++)
      ids.add((await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true })).id);
    const second = database.open();
    const [a, b] = await Promise.all([
      deliverDueSupportRequests(options({ workerId: "a" })),
      deliverDueSupportRequests(options({ db: second.db, workerId: "b" })),
    ]);
    if (dialect === "sqlite") await second.close();
    const footers = receiver.delivered().map((m) => m.embeds?.[0]?.footer?.text);
    expect(footers).toHaveLength(30);
    expect(new Set(footers).size).toBe(30);
    expect(new Set([...a.delivered, ...b.delivered])).toEqual(ids);
    expect(a.delivered.length + b.delivered.length).toBe(30);
  });

  it("counts posts by outcome and 429 pauses, and reads the outbox depth by delivery status", async () => {
    const attempts = async (outcome: string) =>
      (await supportDeliveryAttempts.get()).values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
    const pauses = async () => (await supportChannelPauses.get()).values[0]?.value ?? 0;
    const outcomes = ["delivered", "retry", "rate_limited", "failed"];
    const before = await Promise.all([...outcomes.map(attempts), pauses()]);
    for (let i = 0; i < 3; i++) await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true });
    await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: false });
    receiver.queue({ kind: "500" }, { kind: "429", retryAfterSeconds: 1 }, { kind: "400" });
    const start = new Date();
    expect((await deliverDueSupportRequests(options({ now: () => start }))).pausedUntil).toBeDefined();
    await deliverDueSupportRequests(options({ now: () => new Date(start.getTime() + 60_000) }));
    const after = await Promise.all([...outcomes.map(attempts), pauses()]);
    expect(after.map((value, i) => value - (before[i] ?? 0))).toEqual([2, 1, 1, 1, 1]);
    expect(await readOutboxDepth(database.handle.db)).toEqual({ pending: 0, delivered: 2, failed: 1, no_channel: 1 });
    expect((await supportOutboxDepth.get()).values.map((v) => [v.labels.status, v.value]).sort()).toEqual([
      ["delivered", 2],
      ["failed", 1],
      ["no_channel", 1],
      ["pending", 0],
    ]);
  });

  it("requeues failed and no_channel requests for the retry command, never delivered ones", async () => {
    const parked = await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: false });
    const rejected = await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true });
    receiver.queue({ kind: "400" });
    await deliverDueSupportRequests(options());
    const done = await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true });
    await deliverDueSupportRequests(options());
    expect(await requeueSupportRequests(database.handle.db, { id: done.id })).toEqual([]);
    expect((await requeueSupportRequests(database.handle.db, { allUndelivered: true })).sort()).toEqual(
      [parked.id, rejected.id].sort(),
    );
    const pass = await deliverDueSupportRequests(options());
    expect(pass.delivered.sort()).toEqual([parked.id, rejected.id].sort());
    expect(receiver.delivered()).toHaveLength(3);
  });
});

const REDIS_SERVER = "/usr/bin/redis-server";

describe.skipIf(!fs.existsSync(REDIS_SERVER))(
  "support delivery pauses shared through Redis (skipped without /usr/bin/redis-server)",
  () => {
    let server: ChildProcess;
    let port: number;
    const clients: Redis[] = [];
    let database: TestDatabase;
    let receiver: ChatWebhookReceiver;

    const connect = async () => {
      const client = new Redis({
        port,
        host: "127.0.0.1",
        lazyConnect: true,
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
        retryStrategy: () => null,
      });
      // Refusals while redis-server starts surface through connect() below, not as stray error events.
      client.on("error", () => {});
      await vi.waitFor(() => client.connect(), { timeout: 10_000, interval: 100 });
      clients.push(client);
      return client;
    };

    beforeAll(async () => {
      port = await freePort();
      server = spawn(
        REDIS_SERVER,
        ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        { stdio: "ignore" },
      );
      database = await createTestDatabase((await testDialects()).includes("postgres") ? "postgres" : "sqlite");
      receiver = await startChatWebhookReceiver();
    });
    afterAll(async () => {
      for (const client of clients) client.disconnect();
      server?.kill();
      await receiver?.close();
      await database?.drop();
    });

    it("a second instance sharing Redis honours the first one's pause", async () => {
      const [redisA, redisB] = [await connect(), await connect()];
      const options = (extra: Partial<Parameters<typeof deliverDueSupportRequests>[0]>) => ({
        db: database.handle.db,
        dialect: database.handle.dialect,
        webhookUrl: receiver.url,
        ...extra,
      });
      const first = await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true });
      const start = new Date();
      receiver.queue({ kind: "429", retryAfterSeconds: 30 });
      await deliverDueSupportRequests(
        options({ workerId: "a", now: () => start, pauses: rememberingChannelPauses(redisChannelPauses(redisA)) }),
      );
      expect(receiver.requests).toHaveLength(1);
      // The pause lives in Redis (until it ends), not in the database.
      expect(await redisB.pttl(`kestrel:channel-pause:${channelKey(receiver.url)}`)).toBeGreaterThan(20_000);
      expect(await database.handle.db.selectFrom("channel_pauses").selectAll().execute()).toEqual([]);

      const second = await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true });
      const otherInstance = { pauses: rememberingChannelPauses(redisChannelPauses(redisB)), workerId: "b" };
      const during = new Date(start.getTime() + 29_000);
      const paused = await deliverDueSupportRequests(options({ ...otherInstance, now: () => during }));
      expect(receiver.requests).toHaveLength(1);
      expect(paused.pausedUntil).toEqual(new Date(start.getTime() + 30_000));
      const after = new Date(start.getTime() + 30_000);
      const pass = await deliverDueSupportRequests(options({ ...otherInstance, now: () => after }));
      expect(pass.delivered.sort()).toEqual([first.id, second.id].sort());
    });

    it("keeps the worker that saw the 429 paused while Redis cannot answer", async () => {
      const down = new Redis({
        port: 1,
        host: "127.0.0.1",
        lazyConnect: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
      });
      down.on("error", () => {});
      const pauses = rememberingChannelPauses(redisChannelPauses(down));
      const now = new Date();
      await pauses.pause("channel", new Date(now.getTime() + 5_000), now);
      expect(await pauses.pausedUntil("channel", now)).toEqual(new Date(now.getTime() + 5_000));
      expect(await pauses.pausedUntil("channel", new Date(now.getTime() + 5_000))).toBeNull();
      down.disconnect();
    });
  },
);
