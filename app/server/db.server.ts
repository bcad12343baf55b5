import { type DbHandle, migrateToLatest, openDatabase } from "../../db/client";
import { getEnv } from "./env.server";
import { logger } from "./logger.server";

let handle: DbHandle | undefined;

/** The process-wide database (SQLite under DATA_DIR, or PostgreSQL when DATABASE_URL is set). */
export function getDb(): DbHandle {
  if (!handle) {
    const env = getEnv();
    handle = openDatabase({
      databaseUrl: env.DATABASE_URL,
      dataDir: env.DATA_DIR,
      // The message only: pg attaches the client (and its connection parameters, password included) to the error.
      onIdleError: (error) => logger.warn({ err: { message: error.message } }, "PostgreSQL closed an idle connection; the next query reconnects"),
    });
  }
  return handle;
}

export async function initDatabase() {
  await migrateToLatest(getDb());
}

export async function isDatabaseReachable(): Promise<boolean> {
  try {
    await getDb().db.selectFrom("status_entries").select("id").limit(1).execute();
    return true;
  } catch {
    return false;
  }
}

export async function closeDatabase() {
  const current = handle;
  handle = undefined;
  await current?.close();
}
