// Scenario f: three instances with a probe on one product. One instance checks at a time (the lease holder), so the
// target never sees two checks at once; when that instance is killed, another takes the probing over within two
// intervals.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type pg from "pg";
import { type Checks, type Cluster, waitFor } from "./cluster";

export const PROBE_INTERVAL_SECONDS = 2;
/** The target answers this slowly, so that two instances checking at once would overlap. */
const ANSWER_DELAY_MS = 300;

export interface ProbeTargetRecorder {
  url: string;
  checks: Array<{ start: number; end: number }>;
  close(): Promise<unknown>;
}

export async function startProbeTargetRecorder(): Promise<ProbeTargetRecorder> {
  const checks: ProbeTargetRecorder["checks"] = [];
  const server = http.createServer((_req, res) => {
    const start = Date.now();
    setTimeout(() => {
      checks.push({ start, end: Date.now() });
      res.writeHead(200).end("ok");
    }, ANSWER_DELAY_MS);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`,
    checks,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function leaseHolderPid(db: pg.Client): Promise<number | undefined> {
  const result = await db.query<{ holder: string }>(
    "SELECT holder FROM leases WHERE name = 'status-probes' AND expires_at > $1",
    [new Date().toISOString()],
  );
  const pid = Number(result.rows[0]?.holder.split(":").at(-1));
  return Number.isInteger(pid) ? pid : undefined;
}

export async function statusProbes(opts: {
  cluster: Cluster;
  target: ProbeTargetRecorder;
  db: pg.Client;
  checks: Checks;
}) {
  const { cluster, target, db, checks } = opts;
  const intervalMs = PROBE_INTERVAL_SECONDS * 1000;
  await waitFor(() => (target.checks.length >= 3 ? true : undefined), 20_000, "three checks of the probe target");
  const leaderPid = await waitFor(() => leaseHolderPid(db), 10_000, "a probe lease holder");
  const leader = cluster.ports.findIndex((_p, i) => cluster.pid(i) === leaderPid);
  checks.that(leader >= 0, `the probe lease is held by one of the instances (pid ${leaderPid})`);

  const killedAt = Date.now();
  await cluster.kill(leader);
  const next = await waitFor(
    () => target.checks.find((c) => c.start > killedAt + 50),
    6 * intervalMs,
    "a check after the leader was killed",
    20,
  );
  const takeover = next.start - killedAt;
  const newLeaderPid = await waitFor(() => leaseHolderPid(db), 10_000, "a new probe lease holder");
  checks.that(
    newLeaderPid !== leaderPid && cluster.ports.some((_p, i) => i !== leader && cluster.pid(i) === newLeaderPid),
    "another instance holds the probe lease",
  );
  checks.that(
    takeover <= 2 * intervalMs,
    `the killed leader's probing was taken over within 2 intervals (${takeover} ms, interval ${intervalMs} ms)`,
  );
  await waitFor(
    () => (target.checks.filter((c) => c.start > killedAt).length >= 3 ? true : undefined),
    6 * intervalMs,
    "three checks after the takeover",
  );

  const sorted = [...target.checks].sort((a, b) => a.start - b.start);
  const overlaps = sorted.filter((c, i) => i > 0 && c.start < (sorted[i - 1]?.end ?? 0)).length;
  checks.that(overlaps === 0, `no two checks of the target overlapped (${overlaps} of ${sorted.length})`);
  const gaps = sorted.slice(1).map((c, i) => c.start - (sorted[i]?.start ?? 0));
  const medianGap = gaps.sort((a, b) => a - b)[Math.floor(gaps.length / 2)] ?? 0;
  console.log(
    `f: checks=${sorted.length} overlaps=${overlaps} takeover_ms=${takeover} interval_ms=${intervalMs} median_gap_ms=${medianGap}`,
  );
  await cluster.startInstance(leader);
}
