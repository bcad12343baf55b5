// Run by scripts/lib/bench-console-trust.mjs under tsx (issue 42): the inbox's text search over 100,000 conversations
// before (the plain LIKE as it was: a correlated EXISTS, no index) and after (listInbox with migration 024's index:
// SQLite FTS5 trigram, PostgreSQL pg_trgm), p50/p95; and the audit log's CSV export of 1,000,000 entries (keyset
// batches), its time and the process's peak RSS. Both databases. Figures only.
import { type Kysely, sql } from "kysely";
import { auditCsv } from "../../app/features/audit/audit-log.server.ts";
import { listInbox } from "../../app/features/console/support/support.server.ts";
import type { Database } from "../../db/schema.ts";
import { createTestDatabase, isPostgresReachable } from "../../tests/support/databases.ts";

const CONVERSATIONS = Number(process.env.BENCH_TRUST_CONVERSATIONS ?? 100_000);
const AUDIT_ENTRIES = Number(process.env.BENCH_TRUST_AUDIT ?? 1_000_000);
const RUNS = Number(process.env.BENCH_TRUST_RUNS ?? 15);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

function percentile(values: number[], p: number) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function time(label: string, run: () => Promise<unknown>) {
  await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  console.log(
    `  ${label.padEnd(44)} p50 ${percentile(times, 50).toFixed(1).padStart(8)} ms  p95 ${percentile(times, 95).toFixed(1).padStart(8)} ms  (${RUNS} runs)`,
  );
}

/** Conversations, each with its request, a visitor message and (three in four) a team reply, made inside the database. */
async function seedConversations(db: Kysely<Database>, dialect: "sqlite" | "postgres") {
  const series =
    dialect === "postgres"
      ? sql`SELECT i FROM generate_series(0, ${CONVERSATIONS - 1}::int) AS i`
      : sql`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${CONVERSATIONS - 1}) SELECT i FROM n`;
  const when = sql.raw(dialect === "postgres" ? "'2026-11-27T12:00:00.000Z'" : "'2026-11-27T12:00:00.000Z'");
  await sql`INSERT INTO support_requests (id, category, answers, locale, created_at, delivery_status, attempts,
      next_attempt_at, delivered_at)
    SELECT 'r' || i, 'Key Reset', '["Kestrel Vault","reason","buyer' || i || '@example.com"]', 'en', ${when},
      'delivered', 1, ${when}, ${when} FROM (${series}) AS s`.execute(db);
  await sql`INSERT INTO support_conversations (id, request_id, category, locale, visitor_email, status, visitor_seen_seq,
      last_message_at, created_at, waiting_on, waiting_since, visitor_active_at)
    SELECT 'c' || i, 'r' || i, 'Key Reset', 'en', 'buyer' || i || '@example.com', 'open', 0, ${when}, ${when},
      CASE WHEN i % 4 = 0 THEN 'us' ELSE 'visitor' END, ${when}, ${when} FROM (${series}) AS s`.execute(db);
  await sql`INSERT INTO support_conversation_messages (conversation_id, seq, id, author, body, created_at, attempts)
    SELECT 'c' || i, 1, 'c' || i || '-1', 'visitor', 'My key ' || i || ' stopped working', ${when}, 0
    FROM (${series}) AS s`.execute(db);
  await sql`INSERT INTO support_conversation_messages (conversation_id, seq, id, author, author_name, body, created_at, attempts)
    SELECT 'c' || i, 2, 'c' || i || '-2', 'team', 'Sam', 'Done, your key is reset.', ${when}, 0
    FROM (${series}) AS s WHERE i % 4 <> 0`.execute(db);
}

/** The search as it was before issue 42's index: the count and the page, each a correlated EXISTS over every message. */
async function searchByLike(db: Kysely<Database>, query: string) {
  const pattern = `%${query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const where = sql`c.status = 'open' AND c.waiting_on = 'us' AND (lower(c.visitor_email) LIKE ${pattern} ESCAPE '\\'
    OR EXISTS (SELECT 1 FROM support_conversation_messages m WHERE m.conversation_id = c.id
      AND m.author IN ('visitor', 'team') AND lower(m.body) LIKE ${pattern} ESCAPE '\\'))`;
  await sql`SELECT count(*) AS n FROM support_conversations c WHERE ${where}`.execute(db);
  return sql`SELECT c.id FROM support_conversations c WHERE ${where} ORDER BY c.waiting_since, c.id LIMIT 25`.execute(
    db,
  );
}

async function benchSearch(dialect: "sqlite" | "postgres") {
  const database = await createTestDatabase(dialect);
  try {
    const { db } = database.handle;
    const seeding = performance.now();
    await seedConversations(db, dialect);
    if (dialect === "postgres") await sql`ANALYZE`.execute(db);
    console.log(
      `${dialect}: seeded ${CONVERSATIONS.toLocaleString("en")} conversations (${((performance.now() - seeding) / 1000).toFixed(1)} s)`,
    );
    const filter = { state: "waiting-for-us" as const, scope: "all" as const, staffId: "staff-sam" };
    const rare = `key ${CONVERSATIONS / 2} stopped`;
    const common = "stopped working";
    const none = "printer jam";
    if (dialect === "postgres") {
      // Before: PostgreSQL without the pg_trgm indexes.
      await sql`DROP INDEX support_conversation_messages_body_trgm`.execute(db);
      await sql`DROP INDEX support_conversations_email_trgm`.execute(db);
    }
    for (const [label, query] of [
      ["one match", rare],
      ["no match", none],
      [`${(CONVERSATIONS / 4).toLocaleString("en")} matches`, common],
    ] as const)
      await time(`text search, ${label}: before (LIKE)`, () => searchByLike(db, query));
    if (dialect === "postgres") {
      await sql`CREATE INDEX support_conversation_messages_body_trgm ON support_conversation_messages
        USING gin (lower(body) gin_trgm_ops)`.execute(db);
      await sql`CREATE INDEX support_conversations_email_trgm ON support_conversations
        USING gin (lower(visitor_email) gin_trgm_ops)`.execute(db);
      await sql`ANALYZE`.execute(db);
    }
    for (const [label, query] of [
      ["one match", rare],
      ["no match", none],
      [`${(CONVERSATIONS / 4).toLocaleString("en")} matches`, common],
    ] as const)
      await time(`text search, ${label}: after (index)`, () => listInbox(db, { ...filter, query }, 1));
  } finally {
    await database.drop();
  }
}

async function benchCsv(dialect: "sqlite" | "postgres") {
  const database = await createTestDatabase(dialect);
  try {
    const { db } = database.handle;
    const seeding = performance.now();
    const series =
      dialect === "postgres"
        ? sql`SELECT i FROM generate_series(0, ${AUDIT_ENTRIES - 1}::int) AS i`
        : sql`WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${AUDIT_ENTRIES - 1}) SELECT i FROM n`;
    // One entry a second going back from the bench's "now", with a few repeated times so the keyset's tie-break works.
    const at =
      dialect === "postgres"
        ? sql`to_char(timestamp '2026-11-27 12:00:00' - (i / 2) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"')`
        : sql`strftime('%Y-%m-%dT%H:%M:%S.000Z', '2026-11-27 12:00:00', '-' || (i / 2) || ' seconds')`;
    await sql`INSERT INTO audit_log (at, actor, action, target, detail, client_address, user_agent, session_began_with)
      SELECT ${at}, 'agent' || (i % 20) || '@example.com', 'orders-looked-up', 'email:' || i, '{"found":1}',
        '203.0.113.' || (i % 250), 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0', 'passkey' FROM (${series}) AS s`.execute(
      db,
    );
    if (dialect === "postgres") await sql`ANALYZE`.execute(db);
    console.log(
      `${dialect}: seeded ${AUDIT_ENTRIES.toLocaleString("en")} audit entries (${((performance.now() - seeding) / 1000).toFixed(1)} s)`,
    );
    const rssBefore = process.memoryUsage().rss;
    let peak = rssBefore;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const started = performance.now();
    let bytes = 0;
    let lines = 0;
    for await (const line of auditCsv(db, {})) {
      bytes += Buffer.byteLength(line);
      lines++;
    }
    const ms = performance.now() - started;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    console.log(
      `  audit CSV export, ${(lines - 1).toLocaleString("en")} entries: ${(ms / 1000).toFixed(1)} s, ${mb(bytes)} of CSV; RSS ${mb(rssBefore)} before, peak ${mb(peak)} during (+${mb(peak - rssBefore)})`,
    );
  } finally {
    await database.drop();
  }
}

console.log(
  `\n## Console trust (issue 42): inbox text search over ${CONVERSATIONS.toLocaleString("en")} conversations, audit CSV of ${AUDIT_ENTRIES.toLocaleString("en")} entries`,
);
// BENCH_TRUST_PART=search|csv runs one half; BENCH_TRUST_DIALECT=sqlite|postgres one database.
const only = process.env.BENCH_TRUST_PART;
const dialects = (["sqlite", "postgres"] as const).filter((d) => (process.env.BENCH_TRUST_DIALECT ?? d) === d);
const postgres = await isPostgresReachable();
for (const dialect of dialects) {
  if (dialect === "postgres" && !postgres) {
    console.log("postgres: not reachable on 127.0.0.1:5432, skipped");
    continue;
  }
  if (only !== "csv") await benchSearch(dialect);
}
for (const dialect of dialects) if (only !== "search" && (dialect === "sqlite" || postgres)) await benchCsv(dialect);
