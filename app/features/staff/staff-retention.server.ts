import { getDb } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { logger } from "~/platform/logger.server";
import { pruneAuditLog } from "~/features/audit/audit-log.server";
import type { Db } from "./people.server";
import { SESSION_IDLE_MS } from "./roles";

/**
 * A minute after boot and every hour: expired challenges, setup links and sessions go, and audit entries older than
 * AUDIT_RETENTION_DAYS. Plain deletes, safe on every instance at once. Returns the stop for shutdown.
 */
export function startConsoleRetention(): () => void {
  const pass = async () => {
    try {
      const { db } = getDb();
      await pruneExpired(db);
      const pruned = await pruneAuditLog(db, getEnv().AUDIT_RETENTION_DAYS);
      if (pruned > 0) logger.info({ pruned }, "console: audit entries past their retention deleted");
    } catch (err) {
      logger.warn({ err }, "console: the retention pass failed; it runs again within the hour");
    }
  };
  const first = setTimeout(() => void pass(), 60_000);
  const hourly = setInterval(() => void pass(), 60 * 60 * 1000);
  first.unref();
  hourly.unref();
  return () => {
    clearTimeout(first);
    clearInterval(hourly);
  };
}

/** Drops what has expired: challenges, setup links, sessions. */
export async function pruneExpired(db: Db, now = new Date()): Promise<void> {
  const at = now.toISOString();
  const idleSince = new Date(now.getTime() - SESSION_IDLE_MS).toISOString();
  await db.deleteFrom("staff_challenges").where("expires_at", "<=", at).execute();
  await db.deleteFrom("staff_setup_links").where("expires_at", "<=", at).execute();
  await db
    .deleteFrom("staff_sessions")
    .where((eb) => eb.or([eb("expires_at", "<=", at), eb("last_seen_at", "<=", idleSince)]))
    .execute();
}
