// Probes (docs/status.md): one instance at a time (the lease holder) checks each product's probe URL every interval.
// Three failures in a row set the product to outage and open an incident; two successes set it back and resolve that
// incident. A product an operator set to maintenance is left alone. Every transition is told to the support channel,
// at most once per STATUS_ALERT_GAP_SECONDS per product; what the gap held back is told when it is over.
import crypto from "node:crypto";
import type { Kysely } from "kysely";
import { startLeasedJob } from "~/platform/leases.server";
import { statusProbeChecks, statusProbeSeconds } from "~/platform/metrics.server";
import type { Database } from "../../../db/schema";
import { incidentPath } from "./status";
import { addIncident, resolveIncident, updateIncident } from "./status-admin.server";
import type { ProbeConfig } from "./status.content";
import { recordStatusChange } from "./status.server";

export const PROBE_LEASE = "status-probes";
export const FAILURES_FOR_OUTAGE = 3;
export const SUCCESSES_FOR_RECOVERY = 2;

export interface ProbeTarget {
  name: string;
  probe: ProbeConfig;
}

export interface ProbeResult {
  ok: boolean;
  latencyMs: number;
  /** What was seen, without the URL (it may carry a token): "HTTP 503", "timed out after 10 s". */
  detail: string;
}

/** A transition to tell the support channel: the headline, what the probe saw, and the incident's address. */
export type StatusAlert = [headline: string, seen: string, incident: string];

export interface ProbeOptions {
  db: Kysely<Database>;
  targets: readonly ProbeTarget[];
  publicUrl: string;
  /** Queues an alert for the support channel (the outbox). */
  alert(alert: StatusAlert): Promise<unknown>;
  alertGapMs: number;
  instanceId?: string;
  now?: () => Date;
  check?: (target: ProbeTarget, signal: AbortSignal) => Promise<ProbeResult>;
  onError?: (error: unknown) => void;
  onResult?: (target: ProbeTarget, result: ProbeResult) => void;
}

function describeFailure(error: unknown, timeoutSeconds: number): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))
    return `timed out after ${timeoutSeconds} s`;
  const code = (error as { cause?: { code?: string } })?.cause?.code;
  return `could not connect${code ? ` (${code})` : ""}`;
}

/** One check: the URL must answer the expected status within the timeout (redirects are answers, not followed). */
export async function checkProbe(target: ProbeTarget, signal: AbortSignal): Promise<ProbeResult> {
  const { url, expectStatus, timeoutSeconds } = target.probe;
  const started = performance.now();
  try {
    const response = await fetch(url, {
      redirect: "manual",
      headers: { "User-Agent": "KestrelStorefront (status probe)", Accept: "*/*" },
      signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutSeconds * 1000)]),
    });
    await response.body?.cancel();
    const latencyMs = Math.round(performance.now() - started);
    const ok = response.status === expectStatus;
    return {
      ok,
      latencyMs,
      detail: ok ? `HTTP ${response.status}` : `HTTP ${response.status}, expected ${expectStatus}`,
    };
  } catch (error) {
    return {
      ok: false,
      latencyMs: Math.round(performance.now() - started),
      detail: describeFailure(error, timeoutSeconds),
    };
  }
}

/** How often the loop looks at the lease and the due probes: a quarter of the shortest interval, 250 ms to 5 s. */
export function probeTickMs(targets: readonly ProbeTarget[]): number {
  const shortest = Math.min(...targets.map((t) => t.probe.intervalSeconds * 1000));
  return Math.min(5_000, Math.max(250, Math.round(shortest / 4)));
}

/**
 * How long the probing lease lasts unrenewed: long enough for a check in flight to finish under it (so two instances
 * never check at once), short enough that a killed leader's probing is taken over within two intervals.
 */
export function probeLeaseMs(targets: readonly ProbeTarget[]): number {
  const shortest = Math.min(...targets.map((t) => t.probe.intervalSeconds * 1000));
  const longestTimeout = Math.max(...targets.map((t) => t.probe.timeoutSeconds * 1000));
  return Math.max(Math.round(shortest * 1.25), longestTimeout + 2 * probeTickMs(targets));
}

async function probeState(db: Kysely<Database>, name: string) {
  await db
    .insertInto("status_probes")
    .values({ name })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute();
  return db.selectFrom("status_probes").selectAll().where("name", "=", name).executeTakeFirstOrThrow();
}

async function currentStatus(db: Kysely<Database>, name: string): Promise<string | undefined> {
  return (await db.selectFrom("status_entries").select("status").where("name", "=", name).executeTakeFirst())?.status;
}

/** Tells the channel now, or holds the news back when this product's last alert is younger than the gap. */
async function tell(options: ProbeOptions, name: string, status: string, alert: StatusAlert, at: Date) {
  const state = await probeState(options.db, name);
  if (state.notified_at && at.getTime() - Date.parse(state.notified_at) < options.alertGapMs) {
    await options.db
      .updateTable("status_probes")
      .set({ held_changes: Number(state.held_changes) + 1 })
      .where("name", "=", name)
      .execute();
    return;
  }
  await options.alert(alert);
  await options.db
    .updateTable("status_probes")
    .set({ notified_at: at.toISOString(), notified_status: status, held_changes: 0 })
    .where("name", "=", name)
    .execute();
}

/** Once the gap is over, one alert with where a product ended up if the held-back changes moved it. */
async function tellHeldChanges(options: ProbeOptions, at: Date) {
  const gapStart = new Date(at.getTime() - options.alertGapMs).toISOString();
  const held = await options.db
    .selectFrom("status_probes")
    .selectAll()
    .where("held_changes", ">", 0)
    .where("notified_at", "<=", gapStart)
    .execute();
  for (const state of held) {
    const status = await currentStatus(options.db, state.name);
    const changes = Number(state.held_changes);
    if (status === undefined || status === state.notified_status) {
      await options.db.updateTable("status_probes").set({ held_changes: 0 }).where("name", "=", state.name).execute();
      continue;
    }
    const incident = state.incident_id === null ? "" : `${options.publicUrl}${incidentPath(state.incident_id)}`;
    const headline = status === "outage" ? `${state.name} is down` : `${state.name} is back up`;
    const seen = `It changed status ${changes} ${changes === 1 ? "time" : "times"} since the last alert (the probe is flapping); last check: ${state.detail ?? "none"}.`;
    await tell(options, state.name, status, [headline, seen, incident], at);
  }
}

/** Sets the product to outage and opens its incident (or reopens the one it resolved within the gap). */
async function goDown(options: ProbeOptions, target: ProbeTarget, result: ProbeResult, at: Date) {
  const { db } = options;
  const state = await probeState(db, target.name);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("status_entries")
      .set({ status: "outage", updated_at: at.toISOString() })
      .where("name", "=", target.name)
      .execute();
    await recordStatusChange(trx, { name: target.name, status: "outage", at, source: "probe" });
  });
  const body = `Our monitor cannot reach ${target.name}: ${FAILURES_FOR_OUTAGE} checks in a row failed (${result.detail}). We are investigating.`;
  const previous =
    state.incident_id === null
      ? undefined
      : await db
          .selectFrom("incidents")
          .select(["id", "resolved_at"])
          .where("id", "=", state.incident_id)
          .executeTakeFirst();
  const reopen = previous?.resolved_at && at.getTime() - Date.parse(previous.resolved_at) < options.alertGapMs;
  const incident = reopen
    ? await updateIncident(db, previous.id, { status: "investigating", body: `The problem is back. ${body}`, now: at })
    : await addIncident(db, {
        title: `${target.name} is not responding`,
        body,
        products: [target.name],
        openedBy: "probe",
        now: at,
      });
  await db.updateTable("status_probes").set({ incident_id: incident.id }).where("name", "=", target.name).execute();
  await tell(
    options,
    target.name,
    "outage",
    [
      `${target.name} is down`,
      `${FAILURES_FOR_OUTAGE} checks in a row failed; last: ${result.detail}.`,
      `${options.publicUrl}${incidentPath(incident.id)}`,
    ],
    at,
  );
}

/** Sets the product back to operational and resolves the incident the probe opened. */
async function recover(options: ProbeOptions, target: ProbeTarget, result: ProbeResult, incidentId: number, at: Date) {
  const { db } = options;
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("status_entries")
      .set({ status: "operational", updated_at: at.toISOString() })
      .where("name", "=", target.name)
      .execute();
    await recordStatusChange(trx, { name: target.name, status: "operational", at, source: "probe" });
  });
  const body = `${target.name} answers again: ${SUCCESSES_FOR_RECOVERY} checks in a row passed (${result.detail}). This incident has been resolved.`;
  await resolveIncident(db, incidentId, at, body);
  await tell(
    options,
    target.name,
    "operational",
    [
      `${target.name} is back up`,
      `${SUCCESSES_FOR_RECOVERY} checks in a row passed; last: ${result.detail}.`,
      `${options.publicUrl}${incidentPath(incidentId)}`,
    ],
    at,
  );
}

/** Records one check and makes the transition it completes, if any. */
export async function recordProbeResult(options: ProbeOptions, target: ProbeTarget, result: ProbeResult, at: Date) {
  const { db } = options;
  const status = await currentStatus(db, target.name);
  const state = await probeState(db, target.name);
  // An operator's maintenance is theirs: the counts start over once it ends.
  const counting = status !== "maintenance";
  const failures = counting && !result.ok ? Number(state.failures) + 1 : 0;
  const successes = counting && result.ok ? Number(state.successes) + 1 : 0;
  await db
    .updateTable("status_probes")
    .set({
      failures,
      successes,
      checked_at: at.toISOString(),
      ok: result.ok ? 1 : 0,
      latency_ms: result.latencyMs,
      detail: result.detail,
    })
    .where("name", "=", target.name)
    .execute();
  if (!counting || status === undefined) return;
  if (!result.ok && failures >= FAILURES_FOR_OUTAGE && status !== "outage") return goDown(options, target, result, at);
  if (result.ok && successes >= SUCCESSES_FOR_RECOVERY && status === "outage" && state.incident_id !== null) {
    // Only an outage the probe set is the probe's to end; an operator's stays until they change it.
    const last = await db
      .selectFrom("status_changes")
      .select("source")
      .where("name", "=", target.name)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
    if (last?.source === "probe") return recover(options, target, result, state.incident_id, at);
  }
}

/** Starts probing; returns the stop function (checks in flight are abandoned unrecorded, the lease is handed back). */
export function startStatusProbes(options: ProbeOptions): () => Promise<void> {
  const { db, targets } = options;
  const instanceId = options.instanceId ?? `probe-${crypto.randomUUID()}`;
  const now = options.now ?? (() => new Date());
  const check = options.check ?? checkProbe;
  const tickMs = probeTickMs(targets);
  const leaseMs = probeLeaseMs(targets);
  const stopping = new AbortController();
  const inFlight = new Map<string, Promise<void>>();

  async function runCheck(target: ProbeTarget) {
    // A check counts from when it started, so checks are an interval apart however long each one takes.
    const startedAt = now();
    const result = await check(target, stopping.signal);
    if (stopping.signal.aborted) return;
    statusProbeChecks.inc({ product: target.name, outcome: result.ok ? "ok" : "failed" });
    statusProbeSeconds.observe({ product: target.name }, result.latencyMs / 1000);
    options.onResult?.(target, result);
    await recordProbeResult(options, target, result, startedAt);
  }

  async function startDueChecks(at: Date) {
    const checked = new Map(
      (await db.selectFrom("status_probes").select(["name", "checked_at"]).execute()).map((row) => [
        row.name,
        row.checked_at,
      ]),
    );
    for (const target of targets) {
      if (inFlight.has(target.name)) continue;
      const last = checked.get(target.name);
      // Due an interval after the last check, whichever instance made it (a new leader carries on the schedule).
      if (last && at.getTime() - Date.parse(last) < target.probe.intervalSeconds * 1000 - tickMs / 2) continue;
      const running = runCheck(target)
        .catch((error: unknown) => options.onError?.(error))
        .finally(() => inFlight.delete(target.name));
      inFlight.set(target.name, running);
    }
    await tellHeldChanges(options, at);
  }

  const job = startLeasedJob({
    db,
    lease: PROBE_LEASE,
    holder: instanceId,
    leaseMs,
    everyMs: tickMs,
    now,
    work: (_signal, at) => startDueChecks(at),
    onStop: async () => {
      await Promise.allSettled(inFlight.values());
    },
    onError: (error) => options.onError?.(error),
  });

  return async () => {
    stopping.abort();
    await job.stop();
  };
}
