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

/** The audit entries whose action starts with `prefix`, oldest first, each as "actor action target". */
export function auditLines(dataDir: string, prefix: string): string[] {
  const db = openStoreDatabase(dataDir);
  try {
    const rows = db
      .prepare("SELECT actor, action, target FROM audit_log WHERE action LIKE ? ORDER BY id")
      .all(`${prefix}%`) as Array<{ actor: string; action: string; target: string }>;
    return rows.map((row) => `${row.actor} ${row.action} ${row.target}`);
  } finally {
    db.close();
  }
}
