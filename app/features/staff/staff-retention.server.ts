import { getDb } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { logger } from "~/platform/logger.server";
import { pruneAuditLog } from "~/features/audit/audit-log.server";
import { pruneExpired } from "./people.server";

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
