import crypto from "node:crypto";
import pg from "pg";
import { type DbHandle, migrateToLatest, openDatabase } from "../../db/client";
import { makeDataDir } from "./app-server";

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

let postgresReachable: boolean | undefined;

/** True when PostgreSQL answers on 127.0.0.1:5432; the suite then runs every integration test on both dialects. */
export async function isPostgresReachable(): Promise<boolean> {
  if (postgresReachable !== undefined) return postgresReachable;
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("select 1");
    postgresReachable = true;
  } catch {
    postgresReachable = false;
    console.warn("PostgreSQL is not reachable on 127.0.0.1:5432: integration tests run on SQLite only.");
  } finally {
    await client.end().catch(() => {});
  }
  return postgresReachable;
}

export interface TestDatabase {
  handle: DbHandle;
  /** Connection URL (PostgreSQL only), so a second handle or an app server can share the same database. */
  url?: string;
  dataDir: string;
  open(): DbHandle;
  drop(): Promise<void>;
}

/** A fresh, migrated database of the given dialect (`migrated: false`: empty); PostgreSQL ones get a unique database dropped afterwards. */
export async function createTestDatabase(
  dialect: "sqlite" | "postgres",
  { migrated = true } = {},
): Promise<TestDatabase> {
  const dataDir = makeDataDir("kestrel-db-");
  if (dialect === "sqlite") {
    const open = () => openDatabase({ dataDir });
    const handle = open();
    if (migrated) await migrateToLatest(handle);
    return { handle, dataDir, open, drop: () => handle.close() };
  }
  const name = `kestrel_test_${crypto.randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = POSTGRES_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`);
  const opened: DbHandle[] = [];
  const open = () => {
    const h = openDatabase({ databaseUrl: url, dataDir });
    opened.push(h);
    return h;
  };
  const handle = open();
  if (migrated) await migrateToLatest(handle);
  return {
    handle,
    url,
    dataDir,
    open,
    async drop() {
      for (const h of opened) await h.close().catch(() => {});
      const cleanup = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/** The dialects to run integration tests on: always SQLite, PostgreSQL when reachable. */
export async function testDialects(): Promise<Array<"sqlite" | "postgres">> {
  return (await isPostgresReachable()) ? ["sqlite", "postgres"] : ["sqlite"];
}
