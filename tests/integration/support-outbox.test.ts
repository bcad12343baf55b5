import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { deliverDueSupportRequests, GIVE_UP_AFTER_MS, retryDelayMs, startDeliveryWorker } from "~/features/support-chat/support-delivery.server";
import {
  claimDueSupportRequests,
  findSupportRequest,
  insertSupportRequest,
  listSupportRequests,
  requeueSupportRequests,
} from "~/features/support-chat/support-requests.server";
import { type ChatWebhookReceiver, startChatWebhookReceiver } from "../fakes/chat-webhook-receiver";
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
    expect(await findSupportRequest(database.handle.db, parked.id)).toMatchObject({ deliveryStatus: "no_channel", answers: keyReset.answers });
    expect(pending.id).toMatch(/^[0-9a-f-]{36}$/);
    expect((await listSupportRequests(database.handle.db, { status: "no_channel" })).map((r) => r.id)).toEqual([parked.id]);
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
    expect(afterFailure).toMatchObject({ deliveryStatus: "pending", attempts: 1, lastError: "HTTP 500: 500: Internal Server Error" });
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

  it("holds the rest of the batch after a 429 instead of collecting more of them", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true })).id);
    receiver.queue({ kind: "429", retryAfterSeconds: 1.5 });
    const start = new Date();
    const pass = await deliverDueSupportRequests(options({ now: () => start }));
    expect(receiver.requests).toHaveLength(1);
    expect(pass.retrying.sort()).toEqual([...ids].sort());
    const stored = await listSupportRequests(database.handle.db, { status: "pending" });
    expect(stored.map((r) => r.nextAttemptAt)).toEqual(Array(3).fill(new Date(start.getTime() + 1500).toISOString()));
    expect(stored.map((r) => r.attempts).sort()).toEqual([0, 0, 1]);
    expect(stored.every((r) => r.claimedUntil === null)).toBe(true);
    const later = new Date(start.getTime() + 1500);
    expect((await deliverDueSupportRequests(options({ now: () => later }))).delivered.sort()).toEqual([...ids].sort());
  });

  it("runs as a background worker: a kick delivers at once, stop() ends it", async () => {
    const worker = startDeliveryWorker({ ...options(), pollMs: 60_000 });
    try {
      // The first pass found nothing; without the kick the next look would be a minute away.
      await new Promise((r) => setTimeout(r, 100));
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
    expect(await findSupportRequest(database.handle.db, request.id)).toMatchObject({ deliveryStatus: "failed", lastError: "HTTP 400: Invalid Form Body" });
  });

  it("retries after a timeout and gives up after 24 h of failures", async () => {
    const request = await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true });
    receiver.setDefault({ kind: "hang" });
    const start = new Date();
    await deliverDueSupportRequests(options({ now: () => start, timeoutMs: 200 }));
    const stored = await findSupportRequest(database.handle.db, request.id);
    expect(stored).toMatchObject({ deliveryStatus: "pending", lastError: "timed out or aborted", firstFailedAt: start.toISOString() });
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
    const claimed = await claimDueSupportRequests(database.handle.db, dialect, { workerId: "crashed", limit: 10, leaseMs: 30_000, now });
    expect(claimed.map((r) => r.id)).toEqual([request.id]);
    expect(await claimDueSupportRequests(database.handle.db, dialect, { workerId: "other", limit: 10, leaseMs: 30_000, now })).toEqual([]);
    const afterLease = new Date(now.getTime() + 30_001);
    expect((await deliverDueSupportRequests(options({ now: () => afterLease }))).delivered).toEqual([request.id]);
  });

  it("never sends a request twice when two workers with their own connections run side by side", async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 30; i++) ids.add((await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true })).id);
    const second = database.open();
    const [a, b] = await Promise.all([
      deliverDueSupportRequests(options({ workerId: "a", batchSize: 3 })),
      deliverDueSupportRequests(options({ db: second.db, workerId: "b", batchSize: 3 })),
    ]);
    if (dialect === "sqlite") await second.close();
    const footers = receiver.delivered().map((m) => m.embeds?.[0]?.footer?.text);
    expect(footers).toHaveLength(30);
    expect(new Set(footers).size).toBe(30);
    expect(new Set([...a.delivered, ...b.delivered])).toEqual(ids);
    expect(a.delivered.length + b.delivered.length).toBe(30);
  });

  it("requeues failed and no_channel requests for the retry command, never delivered ones", async () => {
    const parked = await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: false });
    const rejected = await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true });
    receiver.queue({ kind: "400" });
    await deliverDueSupportRequests(options());
    const done = await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: true });
    await deliverDueSupportRequests(options());
    expect(await requeueSupportRequests(database.handle.db, { id: done.id })).toEqual([]);
    expect((await requeueSupportRequests(database.handle.db, { allUndelivered: true })).sort()).toEqual([parked.id, rejected.id].sort());
    const pass = await deliverDueSupportRequests(options());
    expect(pass.delivered.sort()).toEqual([parked.id, rejected.id].sort());
    expect(receiver.delivered()).toHaveLength(3);
  });
});
