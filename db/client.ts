import fs from "node:fs";
import path from "node:path";
import { Kysely, PostgresDialect } from "kysely";
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

export function openDatabase(options: DbOptions): DbHandle {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
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
