// Scenario h: support conversations live across instances (issue 30). Visitors hold event streams on all three
// instances (and through nginx); team replies are stored by this process as another instance would (its own database
// handle, the Redis doorbell the instances use) and each must appear once, on its own visitor's stream only. Then the
// instance holding a third of the streams is killed: its visitors reconnect through nginx with Last-Event-ID, replies
// stored meanwhile arrive, and nothing is lost or doubled.
import { Redis } from "ioredis";
import type { Kysely } from "kysely";
import { setConversationDoorbell } from "~/features/support-conversation/conversation-doorbell.server";
import { createRedisDoorbell } from "~/features/support-conversation/conversation-live.server";
import { addTeamReply } from "~/features/support-conversation/support-conversation.server";
import { openDatabase } from "../../db/client";
import type { Database } from "../../db/schema";
import { type EventStreamReader, openEventStream } from "../support/event-stream";
import { openConversationThroughApi } from "../support/support-conversation-client";
import { makeDataDir } from "../support/app-server";
import { type Checks, type Cluster, clientAddresses, forEachConcurrently, sleep, waitFor } from "./cluster";

const VISITORS = 30;

interface Received {
  seq: number;
  body: string;
}

/** A browser's EventSource: keeps what it received, reconnects through the balancer with Last-Event-ID when dropped. */
export class Visitor {
  readonly received: Received[] = [];
  reconnects = 0;
  private reader?: EventStreamReader;
  private closed = false;

  constructor(
    readonly conversationId: string,
    readonly cookie: string,
    readonly client: string,
    private readonly balancer: string,
  ) {}

  get lastSeq(): number {
    return this.received.at(-1)?.seq ?? 0;
  }

  async connect(base: string): Promise<void> {
    const reader = await openEventStream(
      `${base}/api/support/conversation/events`,
      {
        cookie: this.cookie,
        "x-forwarded-for": this.client,
        ...(this.lastSeq > 0 ? { "last-event-id": String(this.lastSeq) } : {}),
      },
      (event) => {
        if (event.event !== "message") return;
        const message = JSON.parse(event.data) as Received;
        this.received.push({ seq: message.seq, body: message.body });
      },
    );
    if (reader.status !== 200) throw new Error(`stream answered ${reader.status}`);
    this.reader = reader;
    void reader.ended.then(async () => {
      if (this.closed) return;
      // As EventSource does after `retry: 3000` (shorter here: the scenario measures delivery, not the wait).
      for (;;) {
        await sleep(300);
        if (this.closed) return;
        try {
          this.reconnects++;
          await this.connect(this.balancer);
          return;
        } catch {}
      }
    });
  }

  close() {
    this.closed = true;
    this.reader?.close();
  }
}

export async function supportConversationsAcrossInstances(opts: {
  cluster: Cluster;
  balancer: string;
  databaseUrl: string;
  redisUrl: string;
  checks: Checks;
}) {
  const { cluster, balancer, databaseUrl, redisUrl, checks } = opts;
  const started = Date.now();
  const nextClient = clientAddresses();
  const handle = openDatabase({ databaseUrl, dataDir: makeDataDir("kestrel-cluster-h-") });
  const db: Kysely<Database> = handle.db;
  const publisher = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  const bell = createRedisDoorbell({ url: redisUrl, publisher: () => publisher, onReconnect: () => {} });
  setConversationDoorbell(bell);
  const visitors: Visitor[] = [];
  try {
    // Conversations opened through nginx; streams held on instance 0, 1, 2 and nginx in turn.
    await forEachConcurrently(VISITORS, 5, async (n) => {
      const client = nextClient();
      const opened = await openConversationThroughApi(balancer, { client });
      const visitor = new Visitor(opened.conversationId, opened.cookie, client, balancer);
      visitors[n] = visitor;
      await visitor.connect(n % 4 === 3 ? balancer : cluster.url(n % 4));
    });
    await waitFor(
      () => (visitors.every((v) => v.lastSeq >= 9) ? true : undefined),
      20_000,
      "every stream's replay of the questionnaire",
    );

    // Two replies per conversation, stored by this process (another instance) with its Redis ring.
    const sentAt = new Map<string, number>();
    const latencies: number[] = [];
    const reply = async (visitor: Visitor, round: number) => {
      const body = `Reply ${round} for ${visitor.conversationId}`;
      // Round 3 waits for reconnections: timed apart (the scenario's duration), not in the delivery figures.
      if (round !== 3) sentAt.set(body, performance.now());
      await addTeamReply(db, visitor.conversationId, { authorName: "Cluster Team", body });
    };
    const arrived = async (round: number) =>
      waitFor(
        () =>
          visitors.every((v) => v.received.some((m) => m.body === `Reply ${round} for ${v.conversationId}`))
            ? true
            : undefined,
        15_000,
        `reply round ${round} on every stream`,
        20,
      );
    const record = () => {
      for (const v of visitors)
        for (const m of v.received)
          if (sentAt.has(m.body)) {
            latencies.push(performance.now() - (sentAt.get(m.body) as number));
            sentAt.delete(m.body);
          }
    };
    const watch = setInterval(record, 5);
    for (const round of [1, 2]) {
      await Promise.all(visitors.map((v) => reply(v, round)));
      await arrived(round);
    }

    // The instance holding the streams of visitors 0, 4, 8, … is killed; replies are stored while they reconnect.
    const onKilled = visitors.filter((_v, n) => n % 4 === 0);
    await cluster.kill(0);
    await Promise.all(visitors.map((v) => reply(v, 3)));
    await arrived(3);
    await cluster.startInstance(0);
    await Promise.all(visitors.map((v) => reply(v, 4)));
    await arrived(4);
    record();
    clearInterval(watch);

    let duplicates = 0;
    let foreign = 0;
    let outOfOrder = 0;
    let lost = 0;
    for (const v of visitors) {
      const seqs = v.received.map((m) => m.seq);
      duplicates += seqs.length - new Set(seqs).size;
      outOfOrder += seqs.some((s, i) => i > 0 && s <= (seqs[i - 1] as number)) ? 1 : 0;
      foreign += v.received.filter((m) => m.body.startsWith("Reply ") && !m.body.endsWith(v.conversationId)).length;
      const stored = await db
        .selectFrom("support_conversation_messages")
        .select("seq")
        .where("conversation_id", "=", v.conversationId)
        .execute();
      lost += stored.filter((row) => !seqs.includes(Number(row.seq))).length;
    }
    checks.that(duplicates === 0, `h: ${duplicates} message(s) shown twice on a stream`);
    checks.that(foreign === 0, `h: ${foreign} reply(ies) shown on another visitor's stream`);
    checks.that(outOfOrder === 0, `h: ${outOfOrder} stream(s) received messages out of order`);
    checks.that(lost === 0, `h: ${lost} stored message(s) never reached their stream`);
    checks.that(
      onKilled.every((v) => v.reconnects > 0),
      "h: every visitor of the killed instance reconnected through nginx",
    );
    const sorted = [...latencies].sort((a, b) => a - b);
    const pct = (p: number) => (sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0).toFixed(0);
    console.log(
      `h. support conversations: ${VISITORS} visitors on 3 instances + nginx, ${VISITORS * 4} replies stored by another process; reply-to-stream p50=${pct(50)} ms p95=${pct(95)} ms max=${pct(100)} ms (${latencies.length} timed); instance 0 killed: ${onKilled.length} visitors reconnected; lost=${lost} duplicates=${duplicates} foreign=${foreign}; ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    for (const v of visitors) v?.close();
    await bell.close();
    publisher.disconnect();
    await handle.close();
  }
}
