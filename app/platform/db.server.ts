import type { Kysely, Transaction } from "kysely";
import { data } from "react-router";
import { type DbHandle, isDatabaseUnavailableError, migrateAndSeed, openDatabase } from "../../db/client";
import type { Database } from "../../db/schema";
import { CHANGE_UNDONE, DATABASE_UNAVAILABLE_MESSAGE } from "./api-errors";
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
      onIdleError: (error) =>
        logger.warn(
          { err: { message: error.message } },
          "PostgreSQL closed an idle connection; the next query reconnects",
        ),
    });
  }
  return handle;
}

/** Migrates and seeds the process-wide database (see migrateAndSeed). */
export async function initDatabase(seed: (db: Kysely<Database>) => Promise<void>) {
  await migrateAndSeed(getDb(), seed);
}

export { isDatabaseUnavailableError };

/** Work that opens a transaction of its own, or joins the one it is given (so a caller can add to it). */
export function inTransaction<T>(
  db: Kysely<Database> | Transaction<Database>,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return db.isTransaction ? work(db as Transaction<Database>) : db.transaction().execute(work);
}

/** A change that was undone because what had to be written with it could not be (its audit entry, issue 42). */
export class ChangeUndoneError extends Error {}

/**
 * A page loader's or action's database work: an unreachable database becomes a 503 that the error page explains
 * (the shop is briefly away) instead of a 500, and so does a change undone (nothing was changed); any other error is
 * passed on as it is.
 */
export async function pageDatabaseWork<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isDatabaseUnavailableError(error))
      throw data(DATABASE_UNAVAILABLE_MESSAGE, { status: 503, statusText: "Service Unavailable" });
    if (error instanceof ChangeUndoneError) {
      logger.error({ err: error }, "a change was undone: what had to be written with it failed");
      throw data(CHANGE_UNDONE, { status: 503, statusText: "Service Unavailable" });
    }
    throw error;
  }
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
