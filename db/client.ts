import fs from "node:fs";
import path from "node:path";
import { Kysely, PostgresDialect, sql } from "kysely";
import { type Migration, type MigrationProvider, Migrator } from "kysely/migration";
import pg from "pg";
import { postgresMigrations, sqliteMigrations } from "./migrations/index";
import type { Database } from "./schema";
import { createNodeSqliteDialect } from "./sqlite-dialect";

export type DbDialect = "sqlite" | "postgres";

export interface DbHandle {
  db: Kysely<Database>;
  dialect: DbDialect;
  close(): Promise<void>;
}

export interface DbOptions {
  databaseUrl?: string;
  dataDir: string;
  /** PostgreSQL schema to use (tests isolate themselves in one). */
  pgSchema?: string;
  /** Told when the server ends an idle pooled connection; the pool has already dropped it and reconnects on demand. */
  onIdleError?: (error: Error) => void;
}

/** How long a request waits for a new PostgreSQL connection before it fails as "database unavailable". */
export const CONNECT_TIMEOUT_MS = 3_000;

/** Connection-level failures (server down, restarting, unreachable, out of connections): retrying later can succeed. */
const UNAVAILABLE_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "57P01",
  "57P02",
  "57P03",
  "53300",
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Client was closed/i;

/** True when an error says the database cannot be reached now, as opposed to a query that is wrong. */
export function isDatabaseUnavailableError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === "string" && (UNAVAILABLE_CODES.has(code) || code.startsWith("08"))) return true;
  if (typeof message === "string" && UNAVAILABLE_MESSAGES.test(message)) return true;
  // Node reports a refused connection to every address of a host as one AggregateError.
  return Array.isArray(errors) && errors.length > 0 && errors.every(isDatabaseUnavailableError);
}

export function openDatabase(options: DbOptions): DbHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      // A server that cannot be reached fails the request within seconds instead of holding it until the client gives up.
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    // pg emits 'error' when the server ends an idle client (restart, failover, DROP DATABASE ... WITH (FORCE)); unheard, it crashes the process.
    pool.on("error", (error) => options.onIdleError?.(error));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: "postgres", close: () => db.destroy() };
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  const { dialect } = createNodeSqliteDialect(path.join(options.dataDir, "store.db"));
  const db = new Kysely<Database>({ dialect });
  return { db, dialect: "sqlite", close: () => db.destroy() };
}

class StaticMigrationProvider implements MigrationProvider {
  constructor(private readonly migrations: Record<string, Migration>) {}
  async getMigrations() {
    return this.migrations;
  }
}

export async function migrateToLatest(handle: DbHandle) {
  const migrator = new Migrator({
    db: handle.db,
    provider: new StaticMigrationProvider(handle.dialect === "sqlite" ? sqliteMigrations : postgresMigrations),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName ?? "unknown";
    throw new Error(`Database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return results ?? [];
}

/** Any fixed key works; it only has to differ from Kysely's own migration lock and be the same for every instance. */
const BOOT_LOCK_KEY = 7_406_215_118_302n;

/**
 * What boot does to a database before serving: migrate, then seed what the shop needs on first start. On PostgreSQL
 * it holds an advisory lock meanwhile, so instances booting together do it one after another and the later ones find
 * nothing left to do.
 */
export async function migrateAndSeed(handle: DbHandle, seed: (db: Kysely<Database>) => Promise<void>) {
  if (handle.dialect === "sqlite") {
    await migrateToLatest(handle);
    await seed(handle.db);
    return;
  }
  // A session lock on one reserved connection; the server releases it by itself if this process dies holding it.
  await handle.db.connection().execute(async (connection) => {
    await sql`SELECT pg_advisory_lock(${sql.lit(BOOT_LOCK_KEY)})`.execute(connection);
    try {
      await migrateToLatest(handle);
      await seed(handle.db);
    } finally {
      await sql`SELECT pg_advisory_unlock(${sql.lit(BOOT_LOCK_KEY)})`.execute(connection);
    }
  });
}
