import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listOpenIncidents, listStatusEntries, seedStatusEntries } from "~/features/status/status.server";
import { createTestDatabase, type TestDatabase, testDialects } from "../support/databases";

const dialects = await testDialects();
const seed = [
  { name: "Kestrel Vault", status: "operational", uptime: "99.9" },
  { name: "Kestrel Sandbox", status: "operational", uptime: "99.4" },
];

describe.each(dialects)("status queries on %s", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database.drop();
  });

  it("seeds entries on first boot in content order", async () => {
    await seedStatusEntries(database.handle.db, seed);
    const entries = await listStatusEntries(database.handle.db);
    expect(entries.map((e) => [e.name, e.status, e.uptime])).toEqual([
      ["Kestrel Vault", "operational", "99.9"],
      ["Kestrel Sandbox", "operational", "99.4"],
    ]);
  });

  it("never overwrites entries an operator changed", async () => {
    await database.handle.db.updateTable("status_entries").set({ status: "outage" }).where("name", "=", "Kestrel Vault").execute();
    await seedStatusEntries(database.handle.db, seed);
    const vault = (await listStatusEntries(database.handle.db)).find((e) => e.name === "Kestrel Vault");
    expect(vault?.status).toBe("outage");
  });

  it("shows unknown for a status value it does not know", async () => {
    await database.handle.db.updateTable("status_entries").set({ status: "exploded" }).where("name", "=", "Kestrel Sandbox").execute();
    const sandbox = (await listStatusEntries(database.handle.db)).find((e) => e.name === "Kestrel Sandbox");
    expect(sandbox?.status).toBe("unknown");
  });

  it("lists only open incidents, newest first", async () => {
    await database.handle.db
      .insertInto("incidents")
      .values([
        { title: "Old", body: "fixed", started_at: "2026-01-01T00:00:00.000Z", resolved_at: "2026-01-02T00:00:00.000Z" },
        { title: "Licence server slow", body: "Investigating", started_at: "2026-11-20T10:00:00.000Z", resolved_at: null },
      ])
      .execute();
    const open = await listOpenIncidents(database.handle.db);
    expect(open.map((i) => i.title)).toEqual(["Licence server slow"]);
  });
});
