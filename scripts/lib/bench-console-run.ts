// Run by scripts/lib/bench-console.mjs under tsx: the console's server times (the dashboard, the order search and the
// support inbox's lists, search and conversation page) over 100,000
// paid orders, 100,000 support requests and 100,000 conversations with a visitor message and a team reply each, on
// SQLite and PostgreSQL. Prints p50/p95 per period. Figures only.
import { sql } from "kysely";
import { readDashboard, type DashboardPeriod } from "../../app/features/console/dashboard/dashboard.server.ts";
import { searchOrders } from "../../app/features/console/orders/orders.server.ts";
import {
  listInbox,
  loadConsoleConversation,
  waitingCounts,
} from "../../app/features/console/support/support.server.ts";
import { createTestDatabase, isPostgresReachable } from "../../tests/support/databases.ts";

const ROWS = Number(process.env.BENCH_CONSOLE_ROWS ?? 100_000);
const RUNS = Number(process.env.BENCH_CONSOLE_RUNS ?? 15);
const BATCH = 500;
const now = new Date("2026-11-27T12:00:00.000Z");
// Spread over 60 days, so every period and the one before it hold rows.
const at = (i: number) => new Date(now.getTime() - ((i * 7919) % (60 * 24 * 60)) * 60_000).toISOString();

function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function seed(db: Awaited<ReturnType<typeof createTestDatabase>>["handle"]["db"]) {
  for (let start = 0; start < ROWS; start += BATCH) {
    const ids = Array.from({ length: Math.min(BATCH, ROWS - start) }, (_, k) => start + k);
    await db
      .insertInto("orders")
      .values(
        ids.map((i) => ({
          id: `o${i}`,
          provider: "demo",
          provider_invoice_id: `inv${i}`,
          product_id: 1,
          variant_id: 1,
          quantity: 1,
          amount_cents: 999 + (i % 5000),
          status: i % 10 === 0 ? "pending" : "completed",
          created_at: at(i),
          completed_at: i % 10 === 0 ? null : at(i),
          raw_event_id: null,
          // Five orders per buyer, each with its key: what the console's order search looks up.
          buyer_email: `buyer${i % Math.max(1, Math.floor(ROWS / 5))}@example.com`,
          delivered_key: `KEY-${i}`,
        })),
      )
      .execute();
    await db
      .insertInto("support_requests")
      .values(
        ids.map((i) => ({
          id: `r${i}`,
          category: "Key Reset",
          answers: JSON.stringify([`Kestrel ${i % 7}`, `reason ${i}`, `buyer${i}@example.com`]),
          locale: "en",
          created_at: at(i),
          delivery_status: i % 50 === 0 ? "failed" : "delivered",
          attempts: 1,
          next_attempt_at: at(i),
          first_failed_at: null,
          last_error: null,
          delivered_at: at(i),
          claimed_by: null,
          claimed_until: null,
        })),
      )
      .execute();
    await db
      .insertInto("support_conversations")
      .values(
        ids.map((i) => ({
          id: `c${i}`,
          request_id: `r${i}`,
          category: "Key Reset",
          locale: "en",
          visitor_email: `buyer${i}@example.com`,
          status: i % 3 === 0 ? "resolved" : "open",
          channel_id: null,
          thread_id: null,
          last_relayed_message_id: null,
          next_read_at: null,
          last_read_at: null,
          state_checked_at: null,
          visitor_active_at: at(i),
          visitor_seen_seq: 0,
          last_message_at: i % 4 === 0 ? at(i) : new Date(Date.parse(at(i)) + 20 * 60_000).toISOString(),
          created_at: at(i),
          resolved_at: i % 3 === 0 ? at(i) : null,
          // The inbox's turn, as the messages below leave it: a quarter wait for the team, the rest for the visitor.
          waiting_on: i % 4 === 0 ? ("us" as const) : ("visitor" as const),
          waiting_since: i % 4 === 0 ? at(i) : new Date(Date.parse(at(i)) + 20 * 60_000).toISOString(),
          first_team_reply_at: i % 4 === 0 ? null : new Date(Date.parse(at(i)) + 20 * 60_000).toISOString(),
          assigned_staff_id: i % 5 === 0 ? "staff-sam" : null,
        })),
      )
      .execute();
    const message = (i: number, seq: number, author: "visitor" | "team", minutes: number) => ({
      conversation_id: `c${i}`,
      seq,
      id: `c${i}-${seq}`,
      author,
      author_name: author === "team" ? "Sam" : null,
      body: author === "team" ? "Done, your key is reset." : `My key ${i} stopped working`,
      discord_message_id: null,
      created_at: new Date(Date.parse(at(i)) + minutes * 60_000).toISOString(),
      delivery_status: null,
      attempts: 0,
      next_attempt_at: null,
      first_failed_at: null,
      last_error: null,
      delivered_at: null,
      claimed_by: null,
      claimed_until: null,
      emailed_at: null,
      source: author === "team" ? ("console" as const) : null,
      staff_id: null,
    });
    await db
      .insertInto("support_conversation_messages")
      .values(
        ids.flatMap((i) =>
          i % 4 === 0 ? [message(i, 1, "visitor", 0)] : [message(i, 1, "visitor", 0), message(i, 2, "team", 20)],
        ),
      )
      .execute();
  }
}

async function bench(dialect: "sqlite" | "postgres") {
  const database = await createTestDatabase(dialect);
  try {
    const { db } = database.handle;
    const seeding = performance.now();
    await seed(db);
    if (dialect === "postgres") await sql`ANALYZE`.execute(db);
    console.log(
      `${dialect}: seeded ${ROWS.toLocaleString("en")} orders, requests and conversations (${((performance.now() - seeding) / 1000).toFixed(1)} s)`,
    );
    for (const period of ["24h", "7d", "30d"] as DashboardPeriod[]) {
      await readDashboard(db, period, now);
      const times: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const started = performance.now();
        await readDashboard(db, period, now);
        times.push(performance.now() - started);
      }
      console.log(
        `  dashboard ${period.padEnd(3)} p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms  p95 ${percentile(times, 95).toFixed(1).padStart(7)} ms  (${RUNS} runs)`,
      );
    }
    const middle = Math.floor(ROWS / 2);
    for (const [label, query] of [
      ["email", `buyer${middle % Math.max(1, Math.floor(ROWS / 5))}@example.com`],
      ["key", `KEY-${middle}`],
      ["invoice", `inv${middle}`],
    ] as const) {
      await searchOrders(db, query, 1);
      const times: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const started = performance.now();
        const found = await searchOrders(db, query, 1);
        times.push(performance.now() - started);
        if (found.orders.length === 0) throw new Error(`order search by ${label} found nothing`);
      }
      console.log(
        `  order search by ${label.padEnd(7)} p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms  p95 ${percentile(times, 95).toFixed(1).padStart(7)} ms  (${RUNS} runs)`,
      );
    }
    // The support inbox: one page of each list, a deep page, a search, and one conversation's page.
    const filter = { scope: "all" as const, staffId: "staff-sam" };
    const inboxCases: Array<[string, () => Promise<unknown>]> = [
      ["waiting for us, page 1", () => listInbox(db, { ...filter, state: "waiting-for-us" }, 1)],
      ["waiting for us, page 200", () => listInbox(db, { ...filter, state: "waiting-for-us" }, 200)],
      ["waiting for visitor, mine", () => listInbox(db, { ...filter, scope: "mine", state: "waiting-for-visitor" }, 1)],
      ["resolved, page 1", () => listInbox(db, { ...filter, state: "resolved" }, 1)],
      [
        "search by email",
        () => listInbox(db, { ...filter, state: "waiting-for-us", query: `buyer${middle - (middle % 4)}@` }, 1),
      ],
      [
        "search by text",
        () => listInbox(db, { ...filter, state: "waiting-for-us", query: `key ${middle - (middle % 4)} stopped` }, 1),
      ],
      ["waiting counts", () => waitingCounts(db, "staff-sam")],
      [
        "one conversation",
        () =>
          loadConsoleConversation(db, `c${middle}`, () => ({ productName: "x", durationLabel: null }), {
            actor: "bench@example.com",
          }),
      ],
    ];
    for (const [label, run] of inboxCases) {
      await run();
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const started = performance.now();
        await run();
        times.push(performance.now() - started);
      }
      console.log(
        `  inbox ${label.padEnd(26)} p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms  p95 ${percentile(times, 95).toFixed(1).padStart(7)} ms  (${RUNS} runs)`,
      );
    }
  } finally {
    await database.drop();
  }
}

console.log(`\n## Console dashboard: server time over ${ROWS.toLocaleString("en")} orders and conversations`);
await bench("sqlite");
if (await isPostgresReachable()) await bench("postgres");
else console.log("postgres: not reachable on 127.0.0.1:5432, skipped");
