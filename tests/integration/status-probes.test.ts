import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { setProductStatus } from "~/features/status/status-admin.server";
import {
  type ProbeOptions,
  type ProbeResult,
  type ProbeTarget,
  type StatusAlert,
  recordProbeResult,
  startStatusProbes,
} from "~/features/status/status-probes.server";
import { loadIncident, seedStatusEntries } from "~/features/status/status.server";
import { createTestDatabase, type TestDatabase, testDialects } from "../support/databases";

const dialects = await testDialects();
const VAULT: ProbeTarget = {
  name: "Kestrel Vault",
  probe: { url: "http://127.0.0.1:9/health", expectStatus: 200, intervalSeconds: 60, timeoutSeconds: 5 },
};
const GAP_MS = 10 * 60_000;
const ok: ProbeResult = { ok: true, latencyMs: 12, detail: "HTTP 200" };
const down: ProbeResult = { ok: false, latencyMs: 40, detail: "HTTP 503, expected 200" };

describe.each(dialects)("probe transitions on %s", (dialect) => {
  let database: TestDatabase;
  let alerts: StatusAlert[];
  let clock: number;
  let options: ProbeOptions;
  const at = () => new Date(clock);
  /** One check a minute, as the schedule would make them. */
  const record = async (result: ProbeResult) => {
    clock += 60_000;
    await recordProbeResult(options, VAULT, result, at());
  };
  const status = async () =>
    (
      await database.handle.db
        .selectFrom("status_entries")
        .select("status")
        .where("name", "=", VAULT.name)
        .executeTakeFirstOrThrow()
    ).status;
  const probeIncident = async () => {
    const row = await database.handle.db
      .selectFrom("status_probes")
      .select("incident_id")
      .where("name", "=", VAULT.name)
      .executeTakeFirst();
    return row?.incident_id ? loadIncident(database.handle.db, row.incident_id) : undefined;
  };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database.drop();
  });
  beforeEach(async () => {
    const { db } = database.handle;
    for (const table of ["status_probes", "incident_updates", "incidents", "status_changes", "status_entries"] as const)
      await db.deleteFrom(table).execute();
    clock = Date.parse("2026-11-24T10:00:00.000Z");
    await seedStatusEntries(db, [{ name: VAULT.name, status: "operational" }], { now: at() });
    alerts = [];
    options = {
      db,
      targets: [VAULT],
      publicUrl: "https://shop.example",
      alertGapMs: GAP_MS,
      alert: async (alert) => alerts.push(alert),
    };
  });

  it("3 failures in a row set outage and open an incident; 2 successes set it back and resolve it; one alert each", async () => {
    await record(down);
    await record(down);
    expect(await status()).toBe("operational");
    await record(down);
    expect(await status()).toBe("outage");
    const opened = await probeIncident();
    expect(opened).toMatchObject({
      title: "Kestrel Vault is not responding",
      status: "investigating",
      products: ["Kestrel Vault"],
    });
    expect(alerts).toEqual([
      [
        "Kestrel Vault is down",
        "3 checks in a row failed; last: HTTP 503, expected 200.",
        `https://shop.example/status/incidents/${opened?.id}`,
      ],
    ]);

    await record(ok);
    expect(await status()).toBe("outage");
    clock += GAP_MS;
    await record(ok);
    expect(await status()).toBe("operational");
    expect(await probeIncident()).toMatchObject({ status: "resolved", resolvedAt: at().toISOString() });
    expect(alerts.map((a) => a[0])).toEqual(["Kestrel Vault is down", "Kestrel Vault is back up"]);
    const changes = await database.handle.db
      .selectFrom("status_changes")
      .select(["status", "source"])
      .orderBy("id")
      .execute();
    expect(changes).toEqual([
      { status: "operational", source: "seed" },
      { status: "outage", source: "probe" },
      { status: "operational", source: "probe" },
    ]);
  });

  it("a failure between successes starts the count again", async () => {
    for (const result of [down, down, ok, down, down, ok]) await record(result);
    expect(await status()).toBe("operational");
    expect(alerts).toEqual([]);
  });

  it("never touches a product in maintenance, and counts afresh once it ends", async () => {
    await setProductStatus(database.handle.db, { product: VAULT.name, status: "maintenance", now: at() });
    for (let i = 0; i < 5; i++) await record(down);
    expect(await status()).toBe("maintenance");
    await setProductStatus(database.handle.db, { product: VAULT.name, status: "operational", now: at() });
    await record(down);
    await record(down);
    expect(await status()).toBe("operational");
    expect(alerts).toEqual([]);
  });

  it("leaves an outage an operator set for the operator to end", async () => {
    await record(down);
    await record(down);
    await record(down);
    await setProductStatus(database.handle.db, { product: VAULT.name, status: "operational", now: at() });
    await setProductStatus(database.handle.db, { product: VAULT.name, status: "outage", now: at() });
    await record(ok);
    await record(ok);
    expect(await status()).toBe("outage");
  });

  it("a flapping probe alerts at most once per 10 minutes, then tells where the product ended up", async () => {
    // Down, up, down, up within minutes: the incident reopens instead of a new one each time.
    for (const result of [down, down, down, ok, ok, down, down, down, ok, ok]) await record(result);
    expect(await status()).toBe("operational");
    expect(alerts.map((a) => a[0])).toEqual(["Kestrel Vault is down"]);
    const incidents = await database.handle.db.selectFrom("incidents").select("id").execute();
    expect(incidents).toHaveLength(1);
    // The gap is over: the next pass tells the product is back up, once.
    clock += GAP_MS;
    const runner = startStatusProbes({ ...options, now: at, check: async () => ok });
    onTestFinished(runner);
    await expect.poll(() => alerts.length, { timeout: 5_000 }).toBe(2);
    expect(alerts[1]?.[0]).toBe("Kestrel Vault is back up");
    expect(alerts[1]?.[1]).toMatch(/changed status 3 times since the last alert \(the probe is flapping\)/);
  });
});

describe.each(dialects)("probing instances on %s", (dialect) => {
  let database: TestDatabase;
  let target: http.Server;
  let url: string;
  const requests: Array<{ instance: string; start: number; end: number }> = [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await seedStatusEntries(database.handle.db, [{ name: "Kestrel Vault", status: "operational" }]);
    target = http.createServer((req, res) => {
      const start = Date.now();
      // Slow answers make overlapping checks likely if two instances ever probed at once.
      setTimeout(() => {
        requests.push({ instance: String(req.headers["x-instance"] ?? ""), start, end: Date.now() });
        res.writeHead(200).end("ok");
      }, 80);
    });
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/health`;
  });
  afterAll(async () => {
    await new Promise((resolve) => target.close(resolve));
    await database.drop();
  });

  it("two instances never check at the same time, and a stopped leader's probing is taken over", async () => {
    const probe = { url, expectStatus: 200, intervalSeconds: 0.5, timeoutSeconds: 0.3 };
    const targets = [{ name: "Kestrel Vault", probe }];
    const check = (instance: string) => async (t: ProbeTarget, signal: AbortSignal) => {
      const started = performance.now();
      const response = await fetch(t.probe.url, { headers: { "x-instance": instance }, signal });
      await response.text();
      return { ok: response.ok, latencyMs: Math.round(performance.now() - started), detail: `HTTP ${response.status}` };
    };
    const base = {
      db: database.handle.db,
      targets,
      publicUrl: "http://localhost",
      alertGapMs: 0,
      alert: async () => {},
    };
    const stopA = startStatusProbes({ ...base, instanceId: "a", check: check("a") });
    const stopB = startStatusProbes({ ...base, instanceId: "b", check: check("b") });
    // Stopping twice is harmless: whatever the test reaches, no probing outlives it.
    onTestFinished(async () => {
      await Promise.all([stopA(), stopB()]);
    });
    await expect.poll(() => requests.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
    const leader = requests[0]?.instance;
    expect(new Set(requests.map((r) => r.instance))).toEqual(new Set([leader]));
    // The leader stops (its lease is handed back); the other instance carries on within two intervals.
    const stoppedAt = Date.now();
    await (leader === "a" ? stopA : stopB)();
    const follower = leader === "a" ? "b" : "a";
    await expect
      .poll(() => requests.find((r) => r.instance === follower && r.start >= stoppedAt)?.start, { timeout: 10_000 })
      .toBeDefined();
    const takenOver = requests.find((r) => r.instance === follower && r.start >= stoppedAt)?.start ?? 0;
    expect(takenOver - stoppedAt).toBeLessThan(2 * 500 + 250);
    await (leader === "a" ? stopB : stopA)();
    const sorted = [...requests].sort((x, y) => x.start - y.start);
    for (let i = 1; i < sorted.length; i++)
      expect(sorted[i]?.start ?? 0, "checks overlapped").toBeGreaterThanOrEqual(sorted[i - 1]?.end ?? 0);
  });
});
