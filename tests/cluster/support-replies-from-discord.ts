// Scenario i: replies written by the team in Discord threads (the emulator) reach visitors whose streams are on any of
// three instances; one instance reads the threads (the lease). That instance is killed: another takes the lease over
// and the replies written meanwhile arrive, each once, on the right stream; `note:` messages never do.
import type pg from "pg";
import type { DiscordEmulator } from "../fakes/discord-emulator";
import { openConversationThroughApi } from "../support/support-conversation-client";
import { type Checks, type Cluster, clientAddresses, forEachConcurrently, sleep, waitFor } from "./cluster";
import { Visitor } from "./support-conversations";

const VISITORS = 12;
const LEASE = "support-replies";

/** The instance whose reader holds the lease: frozen in turn, the holder is the one whose lease stops being renewed. */
async function leaseHolder(cluster: Cluster, db: pg.Client): Promise<number> {
  const lease = async () =>
    (await db.query("SELECT holder, expires_at FROM leases WHERE name = $1", [LEASE])).rows[0] as
      | { holder: string; expires_at: string }
      | undefined;
  await waitFor(lease, 20_000, "the reply reader's lease");
  for (let i = 0; i < cluster.ports.length; i++) {
    const pid = cluster.pid(i);
    if (pid === undefined) continue;
    process.kill(pid, "SIGSTOP");
    try {
      const before = await lease();
      await sleep(1_500);
      const after = await lease();
      // The holder renews every 250 ms: frozen, its expiry stands still.
      if (before && after && before.holder === after.holder && before.expires_at === after.expires_at) return i;
    } finally {
      process.kill(pid, "SIGCONT");
    }
  }
  throw new Error("no instance's freeze stopped the lease's renewal");
}

export async function supportRepliesFromDiscord(opts: {
  cluster: Cluster;
  balancer: string;
  db: pg.Client;
  emulator: DiscordEmulator;
  checks: Checks;
}) {
  const { cluster, balancer, db, emulator, checks } = opts;
  const started = Date.now();
  const nextClient = clientAddresses();
  const visitors: Visitor[] = [];
  try {
    await forEachConcurrently(VISITORS, 4, async (n) => {
      const client = nextClient();
      const opened = await openConversationThroughApi(balancer, { client });
      const visitor = new Visitor(opened.conversationId, opened.cookie, client, balancer);
      visitors[n] = visitor;
      await visitor.connect(n % 4 === 3 ? balancer : cluster.url(n % 4));
    });
    // The bot posted each request and opened its thread.
    const threads = await waitFor(
      async () => {
        const rows = (
          await db.query("SELECT id, thread_id FROM support_conversations WHERE id = ANY($1)", [
            visitors.map((v) => v.conversationId),
          ])
        ).rows as Array<{ id: string; thread_id: string | null }>;
        return rows.length === VISITORS && rows.every((r) => r.thread_id)
          ? new Map(rows.map((r) => [r.id, r.thread_id as string]))
          : undefined;
      },
      60_000,
      "a thread for every conversation",
      200,
    );

    const postedAt = new Map<string, number>();
    const latencies: number[] = [];
    const post = (round: number, timed: boolean) => {
      for (const v of visitors) {
        const thread = threads.get(v.conversationId) as string;
        const body = `Reply ${round} for ${v.conversationId}`;
        if (timed) postedAt.set(body, performance.now());
        emulator.postAsTeam(thread, body, { author: { globalName: "Dana from Support" } });
        emulator.postNote(thread, `internal ${round} for ${v.conversationId}`);
      }
    };
    const record = () => {
      for (const v of visitors)
        for (const m of v.received)
          if (postedAt.has(m.body)) {
            latencies.push(performance.now() - (postedAt.get(m.body) as number));
            postedAt.delete(m.body);
          }
    };
    const watch = setInterval(record, 5);
    const arrived = (round: number, timeoutMs: number) =>
      waitFor(
        () =>
          visitors.every((v) => v.received.some((m) => m.body === `Reply ${round} for ${v.conversationId}`))
            ? true
            : undefined,
        timeoutMs,
        `reply round ${round} on every stream`,
        20,
      );

    post(1, true);
    await arrived(1, 30_000);

    // The reading instance is killed; the team goes on writing.
    const holder = await leaseHolder(cluster, db);
    const killedAt = Date.now();
    await cluster.kill(holder);
    post(2, false);
    await arrived(2, 60_000);
    const takeoverSeconds = (Date.now() - killedAt) / 1000;
    await cluster.startInstance(holder);
    post(3, true);
    await arrived(3, 30_000);
    record();
    clearInterval(watch);
    await sleep(1_000);

    let duplicates = 0;
    let notes = 0;
    let foreign = 0;
    let lost = 0;
    for (const v of visitors) {
      const seqs = v.received.map((m) => m.seq);
      duplicates += seqs.length - new Set(seqs).size;
      notes += v.received.filter((m) => m.body.includes("internal ")).length;
      foreign += v.received.filter((m) => m.body.startsWith("Reply ") && !m.body.endsWith(v.conversationId)).length;
      const stored = (
        await db.query("SELECT seq, body FROM support_conversation_messages WHERE conversation_id = $1", [
          v.conversationId,
        ])
      ).rows as Array<{ seq: number; body: string }>;
      lost += stored.filter((row) => !seqs.includes(Number(row.seq))).length;
      duplicates += stored.length - new Set(stored.map((r) => r.body)).size;
    }
    checks.that(duplicates === 0, `i: ${duplicates} reply(ies) stored or shown twice`);
    checks.that(notes === 0, `i: ${notes} note(s) reached a visitor`);
    checks.that(foreign === 0, `i: ${foreign} reply(ies) shown on another visitor's stream`);
    checks.that(lost === 0, `i: ${lost} stored message(s) never reached their stream`);
    const sorted = [...latencies].sort((a, b) => a - b);
    const pct = (p: number) => (sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0).toFixed(0);
    console.log(
      `i. replies from Discord threads: ${VISITORS} visitors on 3 instances + nginx, ${VISITORS * 3} replies and ${VISITORS * 3} notes posted in the emulator; thread-to-stream p50=${pct(50)} ms p95=${pct(95)} ms (${latencies.length} timed); lease holder (instance ${holder}) killed: replies written meanwhile all shown ${takeoverSeconds.toFixed(1)} s after the kill; lost=${lost} duplicates=${duplicates} notes=${notes} foreign=${foreign}; ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    for (const v of visitors) v?.close();
  }
}
