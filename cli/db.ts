import { once } from "node:events";
import fs from "node:fs";
import path from "node:path";
import { type Kysely, sql } from "kysely";
import { z } from "zod";
import type { DbHandle } from "../db/client";
import type { Database } from "../db/schema";
import { EnvError, parseEnv } from "~/platform/env.server";
import { quietExperimentalWarnings, startCommand } from "./cli-context";

export const DB_USAGE = `Usage:
  npm run cli -- db export > shop.jsonl
  npm run cli -- db import [--replace] < shop.jsonl
  npm run cli -- db backup <file>

Moves a shop's data between databases (SQLite under DATA_DIR, or PostgreSQL at DATABASE_URL) as JSON Lines, one row
per line: {"table":"orders","row":{...}}. Orders, shop notifications, support requests, status rows and their
recorded history, incidents with their updates, the reviews cache, the console's staff (with their passkeys' public
keys), the audit log and the published content revisions are exported; short-lived state (spent captchas, chat channel pauses, the synced shop
catalogue, content drafts), the mail outbox (codes and links that expire) and the buyers' and staff's sign-in codes, links and sessions are not.
"import" keeps ids and runs in one transaction into an empty database; --replace deletes what the target holds first.
"backup" writes an online copy of the SQLite database (VACUUM INTO); on PostgreSQL use pg_dump.`;

/** Tables that hold a shop's data, each with the key its rows are exported in order of. */
export const SHOP_DATA_TABLES = {
  status_entries: "id",
  status_changes: "id",
  incidents: "id",
  // After incidents: each update names its incident.
  incident_updates: "id",
  orders: "id",
  shop_notifications: "idempotency_key",
  support_requests: "id",
  // After support_requests: each conversation names its request; its keys (hashes only) and messages name it.
  support_conversations: "id",
  support_conversation_keys: "key_hash",
  support_conversation_messages: "id",
  // The team's internal notes on conversations, and the saved replies agents insert (issue 35).
  support_conversation_notes: "id",
  support_saved_replies: "id",
  reviews_cache: "source",
  // The console's team with their passkeys' public halves, and the audit log (issue 34). A shop moved to another
  // domain keeps its staff, but passkeys belong to the old host name: invite everyone again (docs/console.md).
  staff: "id",
  staff_passkeys: "id",
  audit_log: "id",
  // What the owner published over content/ (issue 44): every revision, so the moved shop shows the same text and
  // keeps its history.
  content_revisions: "id",
} as const;

/**
 * Tables of short-lived state a running shop rebuilds (spent captchas, chat channel pauses, the shop catalogue it
 * syncs again at boot, pending resyncs, leases, what the probes saw lately), and the mail outbox (sign-in codes and
 * links that expire, which an export file must not carry): never moved.
 */
export const TRANSIENT_TABLES: readonly string[] = [
  "captcha_used",
  "channel_pauses",
  "catalogue_snapshots",
  "catalogue_sync_requests",
  "leases",
  "status_probes",
  "mail_outbox",
  // What the console still had to tell a Discord thread: the moved shop's threads are another matter.
  "support_thread_posts",
  // Sign-in codes (10 minutes) and sessions (24 hours) of /orders: a moved shop's buyers sign in again.
  "buyer_sign_in_codes",
  "buyer_sessions",
  // The Discord bot's last verdict (token refused, intent off …): found again by the next call to Discord.
  "support_relay_status",
  // The prices the shop sync saw (issue 36): recorded again from the next sync; until 30 days are recorded again, no
  // struck-through price is shown (the safe side of the EU's 30-day rule).
  "shop_price_history",
  // The console's setup links (an hour), sessions (7 days at most) and WebAuthn challenges (5 minutes).
  "staff_setup_links",
  "staff_sessions",
  "staff_challenges",
  // Releases (issue 45) name files in their storage, which an export file does not carry: a moved shop adds its
  // releases again with `releases add` (docs/releases.md); the demo's seed is imported again on the new database.
  "releases",
  "release_files",
  "release_downloads",
  "release_imports",
  // SQLite's search index over the inbox's messages (migration 024, FTS5 and its shadow tables): its triggers fill it
  // again as the messages are imported.
  "support_message_search",
  "support_message_search_config",
  "support_message_search_content",
  "support_message_search_data",
  "support_message_search_docsize",
  "support_message_search_idx",
  // The team's unpublished drafts, and the content version every instance compares (a moved shop starts its own).
  "content_drafts",
  "content_version",
];

export type ShopDataTable = keyof typeof SHOP_DATA_TABLES;
const tableNames = Object.keys(SHOP_DATA_TABLES) as ShopDataTable[];

type ColumnValue = string | number | null;
type Row = Record<string, ColumnValue>;
/** Tables addressed by name at run time; every column is a string, a number or null in both dialects. */
type UntypedDb = Kysely<Record<string, Row>>;

const exportLineSchema = z.object({
  table: z.enum(tableNames, { message: `expected one of ${tableNames.join(", ")}` }),
  row: z.record(
    z.string(),
    z.union([z.string(), z.number(), z.null()], { message: "expected a string, a number or null" }),
    {
      message: "expected an object of column values",
    },
  ),
});

const EXPORT_PAGE_ROWS = 1000;
const IMPORT_BATCH_ROWS = 200;

/** Every row of the shop's data as export lines (without newline), table by table, in key order. */
export async function* exportShopData(db: Kysely<Database>): AsyncGenerator<string> {
  const untyped = db as unknown as UntypedDb;
  for (const table of tableNames) {
    const key = SHOP_DATA_TABLES[table];
    let after: ColumnValue | undefined;
    // Keyset pages keep memory flat however large a table grows.
    for (;;) {
      let query = untyped.selectFrom(table).selectAll().orderBy(key).limit(EXPORT_PAGE_ROWS);
      if (after !== undefined) query = query.where(key, ">", after);
      const rows = await query.execute();
      for (const row of rows) yield toExportLine(table, row);
      if (rows.length < EXPORT_PAGE_ROWS) break;
      after = rows[rows.length - 1]?.[key] ?? null;
    }
  }
}

/**
 * One row as a line. U+2028/U+2029 are valid raw inside JSON strings, but line readers (Node's readline among them)
 * break lines there, so they are written escaped.
 */
function toExportLine(table: ShopDataTable, row: Row): string {
  return JSON.stringify({ table, row })
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** Lines split on "\n" only (a trailing "\r" dropped), however the stream is chunked. */
export async function* readLines(input: AsyncIterable<string | Buffer>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of input) {
    const parts = (pending + (typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }))).split("\n");
    pending = parts.pop() ?? "";
    for (const part of parts) yield part.replace(/\r$/, "");
  }
  pending += decoder.decode();
  if (pending !== "") yield pending.replace(/\r$/, "");
}

export class DbCommandError extends Error {}

/** Rows held per shop-data table, only those holding any. */
export async function countShopData(db: Kysely<Database>): Promise<Partial<Record<ShopDataTable, number>>> {
  const untyped = db as unknown as UntypedDb;
  const counts: Partial<Record<ShopDataTable, number>> = {};
  for (const table of tableNames) {
    const { count } = await untyped
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<string | number>().as("count"))
      .executeTakeFirstOrThrow();
    if (Number(count) > 0) counts[table] = Number(count);
  }
  return counts;
}

/**
 * Reads export lines into the database in one transaction, ids kept. Refuses a database that holds shop data unless
 * `replace` (which deletes it first). Returns the rows written per table.
 */
export async function importShopData(
  handle: DbHandle,
  lines: AsyncIterable<string> | Iterable<string>,
  { replace = false } = {},
) {
  const columns = new Map((await handle.db.introspection.getTables()).map((table) => [table.name, table.columns]));
  const missing = tableNames.filter((table) => !columns.has(table));
  if (missing.length > 0)
    throw new DbCommandError(`The target database has no ${missing.join(", ")} table: is it migrated?`);

  return handle.db.transaction().execute(async (trx) => {
    const db = trx as unknown as UntypedDb;
    const held = await countShopData(trx);
    if (Object.keys(held).length > 0) {
      const summary = Object.entries(held).map(([table, count]) => `${table}: ${count}`);
      if (!replace)
        throw new DbCommandError(
          `The target database already holds shop data (${summary.join(", ")}); pass --replace to delete it first`,
        );
      for (const table of tableNames) await db.deleteFrom(table).execute();
    }

    const written = Object.fromEntries(tableNames.map((table) => [table, 0])) as Record<ShopDataTable, number>;
    let batch: { table: ShopDataTable; rows: Row[]; firstLine: number } | undefined;
    const flush = async () => {
      if (!batch) return;
      const { table, rows, firstLine } = batch;
      batch = undefined;
      try {
        await db.insertInto(table).values(rows).execute();
      } catch (error) {
        const where = rows.length === 1 ? `line ${firstLine}` : `lines ${firstLine}-${firstLine + rows.length - 1}`;
        throw new DbCommandError(`${where} (${table}): ${error instanceof Error ? error.message : String(error)}`);
      }
      written[table] += rows.length;
    };

    let lineNumber = 0;
    for await (const line of lines) {
      lineNumber++;
      // `npm run` prints its script banner ("> name@version cli") to stdout, so a file made through it starts with one.
      if (line.trim() === "" || line.startsWith("> ")) continue;
      const entry = parseExportLine(line, lineNumber);
      const known = new Set(columns.get(entry.table)?.map((column) => column.name));
      const unknown = Object.keys(entry.row).filter((name) => !known.has(name));
      if (unknown.length > 0)
        throw new DbCommandError(`line ${lineNumber}: ${entry.table} has no column ${unknown.join(", ")}`);
      if (batch && (batch.table !== entry.table || batch.rows.length >= IMPORT_BATCH_ROWS)) await flush();
      batch ??= { table: entry.table, rows: [], firstLine: lineNumber };
      batch.rows.push(entry.row);
    }
    await flush();
    // Nothing read is a wrong redirect far more often than an empty shop; with --replace it would wipe the target.
    if (Object.values(written).every((count) => count === 0))
      throw new DbCommandError("The input held no rows (expected the output of db export)");

    if (handle.dialect === "postgres") {
      // Rows kept their ids, so each SERIAL sequence must continue after the highest one or the next insert collides.
      for (const table of tableNames) {
        for (const column of columns.get(table) ?? []) {
          if (!column.isAutoIncrementing) continue;
          await sql`SELECT setval(pg_get_serial_sequence(${table}, ${column.name}), COALESCE(MAX(${sql.ref(column.name)}), 1), MAX(${sql.ref(column.name)}) IS NOT NULL) FROM ${sql.table(table)}`.execute(
            trx,
          );
        }
      }
    }
    return written;
  });
}

function parseExportLine(line: string, lineNumber: number): z.infer<typeof exportLineSchema> {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    throw new DbCommandError(`line ${lineNumber}: not JSON (expected {"table":"...","row":{...}})`);
  }
  const parsed = exportLineSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join(".")}: ` : "";
    throw new DbCommandError(`line ${lineNumber}: ${where}${issue?.message ?? 'expected {"table":"...","row":{...}}'}`);
  }
  return parsed.data;
}

/** An online copy of the SQLite database in one consistent file (VACUUM INTO), safe while the server writes. */
export async function backupSqlite(handle: DbHandle, file: string): Promise<string> {
  if (handle.dialect !== "sqlite") {
    throw new DbCommandError(
      '"db backup" copies the SQLite database; on PostgreSQL use pg_dump (pg_dump --format=custom --file=shop.dump "$DATABASE_URL") or "db export"',
    );
  }
  const target = path.resolve(file);
  if (fs.existsSync(target)) throw new DbCommandError(`${target} already exists: choose a new file name`);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  await sql`VACUUM INTO ${target}`.execute(handle.db);
  return target;
}

/** The flags of this command, besides COMMON_OPTIONS. */
const DB_OPTIONS = { replace: { type: "boolean", default: false } } as const;

/** Writes one line, waiting when the pipe is full so a large export never piles up in memory. */
async function writeLine(output: NodeJS.WritableStream, line: string) {
  if (!output.write(`${line}\n`)) await once(output, "drain");
}

/** `db export|import|backup` against the database the storefront uses (DATA_DIR, or DATABASE_URL for PostgreSQL). */
export async function runDbCli(argv: string[]): Promise<number> {
  const out = (text: string) => process.stdout.write(`${text}\n`);
  const err = (text: string) => process.stderr.write(`${text}\n`);
  const started = startCommand(argv, DB_OPTIONS, DB_USAGE, { out, err });
  if (typeof started === "number") return started;
  const { values, action, rest, fail } = started;
  if (!["export", "import", "backup"].includes(action)) return fail(`Unknown db action "${action}"\n\n${DB_USAGE}`, 2);
  if (action === "backup" && rest.length !== 1)
    return fail('"db backup" takes one file name, e.g. npm run cli -- db backup backups/shop.db', 2);
  if (action !== "backup" && rest.length > 0)
    return fail(`"db ${action}" takes no arguments (got ${rest.join(" ")})`, 2);
  if (action === "import" && process.stdin.isTTY)
    return fail("db import reads the export from standard input: npm run cli -- db import < shop.jsonl", 2);

  let env: ReturnType<typeof parseEnv>;
  try {
    env = parseEnv(process.env);
  } catch (error) {
    return fail(error instanceof EnvError ? error.message : String(error));
  }
  quietExperimentalWarnings();
  // Loaded after the filter above: importing node:sqlite prints an "experimental" warning operators cannot act on.
  const { migrateAndSeed, openDatabase } = await import("../db/client");
  const handle = openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    // Migrated but not seeded: an import target must stay empty until the import fills it.
    await migrateAndSeed(handle, async () => {});
    if (action === "export") {
      let rows = 0;
      for await (const line of exportShopData(handle.db)) {
        await writeLine(process.stdout, line);
        rows++;
      }
      err(`Exported ${rows} rows from ${handle.dialect === "sqlite" ? "SQLite" : "PostgreSQL"}.`);
    } else if (action === "import") {
      const written = await importShopData(handle, readLines(process.stdin), { replace: values.replace });
      const total = Object.values(written).reduce((sum, count) => sum + count, 0);
      if (values.json) out(JSON.stringify({ imported: written }));
      else
        out(
          `Imported ${total} rows (${Object.entries(written)
            .map(([table, count]) => `${table} ${count}`)
            .join(", ")}).`,
        );
    } else {
      const target = await backupSqlite(handle, rest[0] ?? "");
      if (values.json) out(JSON.stringify({ backup: target, bytes: fs.statSync(target).size }));
      else out(`Backed up ${path.join(env.DATA_DIR, "store.db")} to ${target} (${fs.statSync(target).size} bytes).`);
    }
    return 0;
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  } finally {
    await handle.close();
  }
}
