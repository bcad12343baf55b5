import type { Kysely } from "kysely";
import type { Database } from "../../../db/schema";
import { type Incident, type StatusEntry, type StatusSnapshot, summarizeStatus, toDisplayStatus } from "./status";

export async function seedStatusEntries(db: Kysely<Database>, seed: ReadonlyArray<{ name: string; status: string; uptime: string }>) {
  await db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom("status_entries").select("id").limit(1).executeTakeFirst();
    // Seeded once: after that the database is the source of truth and operators own it.
    if (existing) return;
    const now = new Date().toISOString();
    await trx
      .insertInto("status_entries")
      .values(seed.map((s, i) => ({ name: s.name, status: s.status, uptime: s.uptime, sort_order: i, updated_at: now })))
      // Another instance seeding at the same moment has already written these names: theirs stand.
      .onConflict((oc) => oc.column("name").doNothing())
      .execute();
  });
}

export async function listStatusEntries(db: Kysely<Database>): Promise<StatusEntry[]> {
  const rows = await db.selectFrom("status_entries").selectAll().orderBy("sort_order").orderBy("id").execute();
  return rows.map((r) => ({ name: r.name, status: toDisplayStatus(r.status), uptime: r.uptime, updatedAt: r.updated_at }));
}

export async function listOpenIncidents(db: Kysely<Database>): Promise<Incident[]> {
  const rows = await db.selectFrom("incidents").selectAll().where("resolved_at", "is", null).orderBy("started_at", "desc").execute();
  return rows.map((r) => ({ id: r.id, title: r.title, body: r.body, startedAt: r.started_at, resolvedAt: r.resolved_at }));
}

/** One consistent read of everything the status page shows. */
export async function loadStatusSnapshot(db: Kysely<Database>, stats: { activeUsers: string; licenseServers: string }): Promise<StatusSnapshot> {
  const [entries, incidents] = await Promise.all([listStatusEntries(db), listOpenIncidents(db)]);
  return { entries, summary: summarizeStatus(entries, stats), incidents };
}
