import path from "node:path";
import { DatabaseSync } from "node:sqlite";

/**
 * A test's own connection to an app server's SQLite file: it waits up to 5 s for the server's write lock (the server's
 * transactions take it when they begin) instead of failing at once with "database is locked".
 */
export function openStoreDatabase(dataDir: string): DatabaseSync {
  const db = new DatabaseSync(path.join(dataDir, "store.db"));
  db.exec("PRAGMA busy_timeout = 5000");
  return db;
}
