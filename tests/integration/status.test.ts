import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoHistorySchema } from "~/features/status/status.content";
import { addIncident, setProductStatus, updateIncident } from "~/features/status/status-admin.server";
import {
  listOpenIncidents,
  listStatusEntries,
  loadIncident,
  loadStatusSnapshot,
  seedStatusEntries,
} from "~/features/status/status.server";
import { createTestDatabase, type TestDatabase, testDialects } from "../support/databases";

const dialects = await testDialects();
const seed = [
  { name: "Kestrel Vault", status: "operational" },
  { name: "Kestrel Sandbox", status: "operational" },
];
const root = path.resolve(import.meta.dirname, "../..");
const demoStatus = JSON.parse(fs.readFileSync(path.join(root, "content/status.json"), "utf8")) as Array<{
  name: string;
  status: string;
}>;
const demoHistory = demoHistorySchema.parse(
  JSON.parse(fs.readFileSync(path.join(root, "content/status-history.demo.json"), "utf8")),
);
const stats = { activeUsers: "2700+", licenseServers: "ONLINE" };
const HOUR = 3_600_000;

describe.each(dialects)("status queries on %s", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database.drop();
  });

  it("seeds entries on first boot in content order, and tracking starts then", async () => {
    const now = new Date("2026-11-24T12:00:00.000Z");
    await seedStatusEntries(database.handle.db, seed, { now });
    const entries = await listStatusEntries(database.handle.db, new Date(now.getTime() + HOUR));
    expect(entries.map((e) => [e.name, e.status, e.uptime])).toEqual([
      ["Kestrel Vault", "operational", "100.00"],
      ["Kestrel Sandbox", "operational", "100.00"],
    ]);
    // Before the first boot there is no data: 89 grey days, then today.
    expect(entries[0]?.days).toBe(`${"-".repeat(89)}o`);
  });

  it("never overwrites entries an operator changed", async () => {
    await database.handle.db
      .updateTable("status_entries")
      .set({ status: "outage" })
      .where("name", "=", "Kestrel Vault")
      .execute();
    await seedStatusEntries(database.handle.db, seed);
    const vault = (await listStatusEntries(database.handle.db)).find((e) => e.name === "Kestrel Vault");
    expect(vault?.status).toBe("outage");
  });

  it("shows unknown for a status value it does not know", async () => {
    await database.handle.db
      .updateTable("status_entries")
      .set({ status: "exploded" })
      .where("name", "=", "Kestrel Sandbox")
      .execute();
    const sandbox = (await listStatusEntries(database.handle.db)).find((e) => e.name === "Kestrel Sandbox");
    expect(sandbox?.status).toBe("unknown");
  });

  it("lists only open incidents, newest first; one written straight into the table shows its body as its update", async () => {
    await database.handle.db
      .insertInto("incidents")
      .values([
        {
          title: "Old",
          body: "fixed",
          started_at: "2026-01-01T00:00:00.000Z",
          resolved_at: "2026-01-02T00:00:00.000Z",
        },
        {
          title: "Licence server slow",
          body: "Investigating",
          started_at: "2026-11-20T10:00:00.000Z",
          resolved_at: null,
        },
      ])
      .execute();
    const open = await listOpenIncidents(database.handle.db);
    expect(open.map((i) => i.title)).toEqual(["Licence server slow"]);
    expect(open[0]?.updates).toEqual([
      { status: "investigating", body: "Investigating", html: "<p>Investigating</p>", at: "2026-11-20T10:00:00.000Z" },
    ]);
  });

  it("records operator changes and computes the day's uptime from them", async () => {
    const db = database.handle.db;
    await setProductStatus(db, {
      product: "Kestrel Sandbox",
      status: "operational",
      now: new Date("2026-11-24T13:00:00.000Z"),
    });
    await setProductStatus(db, {
      product: "Kestrel Sandbox",
      status: "outage",
      now: new Date("2026-11-24T14:00:00.000Z"),
    });
    await setProductStatus(db, {
      product: "Kestrel Sandbox",
      status: "operational",
      now: new Date("2026-11-24T15:00:00.000Z"),
    });
    const snapshot = await loadStatusSnapshot(db, stats, new Date("2026-11-24T17:00:00.000Z"));
    const sandbox = snapshot.entries.find((e) => e.name === "Kestrel Sandbox");
    // Tracked from 12:00 (the hand-edited "exploded" recorded nothing): 2 h up, 14:00–15:00 down, 2 h up: 4 of 5 hours.
    expect(sandbox?.uptime).toBe("80.00");
    expect(sandbox?.days.at(-1)).toBe("x");
    expect(sandbox?.notes["89"]).toEqual({ uptime: "80.00" });
  });

  it("keeps an incident's updates newest first and ties it to its products' days", async () => {
    const db = database.handle.db;
    const incident = await addIncident(db, {
      title: "Vault slow",
      body: "Looking.",
      products: ["Kestrel Vault"],
      now: new Date("2026-11-24T16:00:00.000Z"),
    });
    await updateIncident(db, incident.id, {
      status: "identified",
      body: "Found it.",
      now: new Date("2026-11-24T16:30:00.000Z"),
    });
    await updateIncident(db, incident.id, {
      status: "resolved",
      body: "Fixed.",
      now: new Date("2026-11-24T17:00:00.000Z"),
    });
    const loaded = await loadIncident(db, incident.id);
    expect(loaded).toMatchObject({
      status: "resolved",
      body: "Fixed.",
      products: ["Kestrel Vault"],
      resolvedAt: "2026-11-24T17:00:00.000Z",
    });
    expect(loaded?.updates.map((u) => u.status)).toEqual(["resolved", "identified", "investigating"]);
    const snapshot = await loadStatusSnapshot(db, stats, new Date("2026-11-24T18:00:00.000Z"));
    expect(snapshot.recentIncidents.map((i) => i.title)).toContain("Vault slow");
    expect(snapshot.entries[0]?.notes["89"]?.incidents).toEqual([incident.id]);
    expect(snapshot.incidentTitles[incident.id]).toBe("Vault slow");
  });
});

describe.each(dialects)("the demo history on %s", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database.drop();
  });

  // The demo's figures hold at any time of day and for the first day after the first boot.
  it.each(["2026-11-24T00:00:05.000Z", "2026-11-24T23:59:00.000Z"])(
    "gives the demo products their documented uptimes (first boot at %s)",
    async (bootIso) => {
      await database.handle.db.deleteFrom("status_entries").execute();
      await database.handle.db.deleteFrom("status_changes").execute();
      await database.handle.db.deleteFrom("incident_updates").execute();
      await database.handle.db.deleteFrom("incidents").execute();
      const boot = new Date(bootIso);
      await seedStatusEntries(database.handle.db, demoStatus, { history: demoHistory, now: boot });
      for (const later of [0, 60_000, 20 * HOUR]) {
        const snapshot = await loadStatusSnapshot(database.handle.db, stats, new Date(boot.getTime() + later));
        expect(snapshot.entries.map((e) => [e.name, e.uptime])).toEqual([
          ["Kestrel Vault", "99.90"],
          ["Kestrel Sandbox", "99.40"],
          ["Kestrel Capture", "99.80"],
          ["Kestrel Studio", "99.50"],
          ["Kestrel Capture Ultimate", "99.70"],
        ]);
        expect(snapshot.summary.averageUptime).toBe("99.66");
        expect(snapshot.incidents).toEqual([]);
      }
      const snapshot = await loadStatusSnapshot(database.handle.db, stats, boot);
      expect(snapshot.entries.every((e) => e.days.length === 90 && !e.days.includes("-"))).toBe(true);
      expect(snapshot.entries.find((e) => e.name === "Kestrel Studio")?.days).toContain("m");
      expect(snapshot.recentIncidents.map((i) => i.title)).toEqual([
        "Kestrel Capture downloads unavailable",
        "Kestrel Sandbox sessions dropping",
        "Kestrel Vault sync delays",
      ]);
    },
  );
});
