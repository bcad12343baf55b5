// The running app's probes: started at boot when content/status.json names any, alerts queued in the support outbox.
import os from "node:os";
import { ContentError } from "~/features/content/content";
import { getContent } from "~/features/content/content.server";
import { queueStatusAlert } from "~/features/support-relay/support-relay.server";
import { getDb } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { logger } from "~/platform/logger.server";
import { type ProbeTarget, startStatusProbes } from "./status-probes.server";

/** The products with a probe; a probe asking for a shorter interval than allowed stops the boot with a clear message. */
export function probeTargets(
  rows: ReadonlyArray<{ name: string; probe?: ProbeTarget["probe"] }>,
  minIntervalSeconds: number,
): ProbeTarget[] {
  const targets = rows.flatMap((row) => (row.probe ? [{ name: row.name, probe: row.probe }] : []));
  const errors = targets
    .filter((t) => t.probe.intervalSeconds < minIntervalSeconds)
    .map(
      (t) =>
        `content/status.json: "${t.name}".probe.intervalSeconds: at least ${minIntervalSeconds} seconds (got ${t.probe.intervalSeconds})`,
    );
  if (errors.length > 0) throw new ContentError(errors.join("\n"));
  return targets;
}

/** Starts the probes; returns their stop function, or undefined when no product has a probe. */
export function startStatusMonitor(): (() => Promise<void>) | undefined {
  const env = getEnv();
  const targets = probeTargets(getContent().status, env.STATUS_PROBE_MIN_INTERVAL_SECONDS);
  if (targets.length === 0) return undefined;
  const { db } = getDb();
  logger.info(
    { products: targets.map((t) => t.name) },
    "status probes: this instance takes part in probing (one lease holder at a time)",
  );
  return startStatusProbes({
    db,
    // Host and process: an operator (or the cluster test) reading the lease sees which instance probes.
    instanceId: `${os.hostname()}:${process.pid}`,
    targets,
    publicUrl: env.PUBLIC_URL.replace(/\/$/, ""),
    alertGapMs: env.STATUS_ALERT_GAP_SECONDS * 1000,
    alert: (alert) => queueStatusAlert(db, alert),
    onError: (err) => logger.error({ err }, "status probe pass failed"),
    onResult: (target, result) => {
      if (!result.ok)
        logger.warn(
          { product: target.name, detail: result.detail, latencyMs: result.latencyMs },
          "status probe failed",
        );
    },
  });
}
