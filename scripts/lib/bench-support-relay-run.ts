// Run by scripts/lib/bench-support-relay.mjs under tsx (the reader is TypeScript with the app's `~/` paths): the
// reply reader against the Discord emulator on 127.0.0.1 with N open conversations, active or idle, on SQLite.
// Prints Discord requests per open conversation per minute and the achieved read interval. Figures only.
import crypto from "node:crypto";
import { createDiscordBot } from "../../app/features/support-relay/discord-bot.server.ts";
import { readDueThreads } from "../../app/features/support-relay/thread-relay.server.ts";
import { startDiscordEmulator } from "../../tests/fakes/discord-emulator.ts";
import { createTestDatabase } from "../../tests/support/databases.ts";

const ACTIVE_SECONDS = Number(process.env.BENCH_RELAY_ACTIVE_SECONDS ?? 20);
/** Enough rounds to measure an interval when the global 50/s stretches a round past the usual window. */
const secondsFor = (count: number) => Math.max(ACTIVE_SECONDS, Math.ceil((count / 50) * 4));
const IDLE_SECONDS = Number(process.env.BENCH_RELAY_IDLE_SECONDS ?? 130);
const ACTIVE_SIZES = (process.env.BENCH_RELAY_ACTIVE ?? "10,100,1000").split(",").map(Number);
const IDLE_SIZES = (process.env.BENCH_RELAY_IDLE ?? "1000,3000").split(",").map(Number);
/** How often the reader looks for due threads (the running app's tick). */
const TICK_MS = 250;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function scenario(count: number, active: boolean, seconds: number) {
  const database = await createTestDatabase("sqlite");
  const emulator = await startDiscordEmulator();
  try {
    const { db } = database.handle;
    const channelId = emulator.addChannel({ kind: "text" });
    const now = Date.now();
    const visitorActiveAt = new Date(active ? now : now - 11 * 60_000).toISOString();
    const rows = Array.from({ length: count }, (_, i) => ({
      id: crypto.randomUUID(),
      request_id: crypto.randomUUID(),
      category: "Key Reset",
      locale: "en",
      visitor_email: null,
      status: "open" as const,
      channel_id: channelId,
      thread_id: emulator.addThread(channelId, `bench ${i}`),
      last_relayed_message_id: null,
      next_read_at: new Date(now).toISOString(),
      last_read_at: null,
      // As recordConversationThread leaves a new thread: its first archived/locked check 5 min on.
      state_checked_at: new Date(now).toISOString(),
      visitor_active_at: visitorActiveAt,
      visitor_seen_seq: 0,
      last_message_at: new Date(now).toISOString(),
      created_at: new Date(now).toISOString(),
      resolved_at: null,
    }));
    for (let i = 0; i < rows.length; i += 200)
      await db
        .insertInto("support_conversations")
        .values(rows.slice(i, i + 200))
        .execute();
    const bot = createDiscordBot({ token: emulator.token, apiBase: emulator.apiBase, supportChannelId: channelId });
    const readsAt = new Map<string, number[]>();
    const onRead = (id: string) => {
      const list = readsAt.get(id) ?? [];
      list.push(Date.now());
      readsAt.set(id, list);
    };
    const started = Date.now();
    const before = emulator.requests.length;
    while (Date.now() - started < seconds * 1000) {
      const tickStarted = Date.now();
      await readDueThreads({ db, bot, onRead });
      await sleep(Math.max(0, TICK_MS - (Date.now() - tickStarted)));
    }
    const minutes = (Date.now() - started) / 60_000;
    const requests = emulator.requests.length - before;
    const gaps: number[] = [];
    for (const times of readsAt.values())
      for (let i = 1; i < times.length; i++) gaps.push((times[i] ?? 0) - (times[i - 1] ?? 0));
    const unread = count - readsAt.size;
    const rateLimited = emulator.rateLimited().length;
    const fmt = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : "n/a (one read each)");
    console.log(
      `| ${count} | ${active ? "active (2 s)" : "idle (60 s)"} | ${seconds} s | ${(requests / count / minutes).toFixed(2)} | ${(requests / minutes / 60).toFixed(1)} | ${fmt(percentile(gaps, 50))} | ${fmt(percentile(gaps, 95))} | ${unread} | ${rateLimited} |`,
    );
  } finally {
    await emulator.close();
    await database.drop();
  }
}

console.log(
  "\n## Support relay: reading replies from Discord (the reply reader against the emulator, SQLite, one instance)",
);
console.log(
  "Each conversation has its own thread; an active one's visitor was on the page (read every 2 s), an idle one's left over 10 min ago (every 60 s); archived/locked is checked every 5 min per thread. Our client keeps Discord's global 50 requests/s.\n",
);
console.log(
  "| open conversations | visitor | measured over | Discord requests per conversation per minute | requests/s | read interval p50 | read interval p95 | never read | 429s |",
);
console.log("|---|---|---|---|---|---|---|---|---|");
for (const count of ACTIVE_SIZES) await scenario(count, true, secondsFor(count));
for (const count of IDLE_SIZES) await scenario(count, false, IDLE_SECONDS);
