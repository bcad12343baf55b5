import type { Kysely, Selectable, Transaction } from "kysely";
import type { Database, IncidentsTable } from "../../../db/schema";
import {
  DAY_CODES,
  type DayNote,
  type Incident,
  type IncidentSummary,
  type IncidentUpdate,
  type StatusEntry,
  KNOWN_STATUSES,
  type StatusSnapshot,
  toDisplayStatus,
  toIncidentStatus,
} from "./status";
import { statusProductStatus } from "~/platform/metrics.server";
import { renderIncidentMarkdown } from "./incident-markdown.server";
import type { DemoHistory } from "./status.content";
import { averageFraction, dailyRecords, formatUptime, HISTORY_DAYS, type StatusChange, uptimeFraction } from "./uptime";

const DAY_MS = 86_400_000;
/** Resolved incidents stay listed on /status this long. */
export const RECENT_INCIDENT_DAYS = 14;

type Db = Kysely<Database> | Transaction<Database>;

export type StatusChangeSource = "operator" | "probe" | "seed" | "import";

/** Records a status as it is from `at` on: the uptime history every figure on /status is computed from. */
export async function recordStatusChange(
  db: Db,
  change: { name: string; status: string; at: Date; source: StatusChangeSource },
) {
  await db
    .insertInto("status_changes")
    .values({ name: change.name, status: change.status, changed_at: change.at.toISOString(), source: change.source })
    .execute();
}

export async function seedStatusEntries(
  db: Kysely<Database>,
  seed: ReadonlyArray<{ name: string; status: string }>,
  options: { history?: DemoHistory | null; now?: Date } = {},
) {
  await db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom("status_entries").select("id").limit(1).executeTakeFirst();
    // Seeded once: after that the database is the source of truth and operators own it.
    if (existing) return;
    const now = options.now ?? new Date();
    const inserted = await trx
      .insertInto("status_entries")
      .values(
        seed.map((s, i) => ({
          name: s.name,
          status: s.status,
          uptime: "",
          sort_order: i,
          updated_at: now.toISOString(),
        })),
      )
      // Another instance seeding at the same moment has already written these names: theirs stand, and their history.
      .onConflict((oc) => oc.column("name").doNothing())
      .returning("name")
      .execute();
    const ours = new Set(inserted.map((row) => row.name));
    const history = options.history;
    if (history && ours.size > 0) await importDemoHistory(trx, history, seed, ours, now);
    else
      for (const s of seed)
        if (ours.has(s.name))
          await recordStatusChange(trx, { name: s.name, status: s.status, at: now, source: "seed" });
  });
}

/** The clock time `at` (UTC) `daysAgo` days before `now`'s day. */
function demoTime(now: Date, daysAgo: number, at: string): Date {
  const [hours = 0, minutes = 0, seconds = 0] = at.split(":").map(Number);
  const day = Math.floor(now.getTime() / DAY_MS) * DAY_MS - daysAgo * DAY_MS;
  return new Date(day + ((hours * 60 + minutes) * 60 + seconds) * 1000);
}

/**
 * Writes the demo history relative to `now`: every product operational from `trackedDays` ago, each event's status
 * for its duration, its incident with its updates, and the seeded status from now on.
 */
async function importDemoHistory(
  trx: Transaction<Database>,
  history: DemoHistory,
  seed: ReadonlyArray<{ name: string; status: string }>,
  names: Set<string>,
  now: Date,
) {
  const trackedFrom = new Date(now.getTime() - history.trackedDays * DAY_MS);
  for (const s of seed)
    if (names.has(s.name))
      await recordStatusChange(trx, { name: s.name, status: "operational", at: trackedFrom, source: "import" });
  const events = history.events
    .filter((event) => names.has(event.product))
    .map((event) => ({ ...event, start: demoTime(now, event.daysAgo, event.at) }))
    .filter((event) => event.start < now && event.start > trackedFrom)
    .sort((a, b) => a.start.getTime() - b.start.getTime());
  for (const event of events) {
    const end = new Date(Math.min(event.start.getTime() + event.durationSeconds * 1000, now.getTime()));
    await recordStatusChange(trx, { name: event.product, status: event.status, at: event.start, source: "import" });
    await recordStatusChange(trx, { name: event.product, status: "operational", at: end, source: "import" });
    if (!event.incident) continue;
    const updates = event.incident.updates.map((u) => ({
      ...u,
      at: new Date(Math.min(event.start.getTime() + u.afterSeconds * 1000, now.getTime())),
    }));
    const last = updates.at(-1);
    const resolved = last?.status === "resolved" ? last.at.toISOString() : null;
    const incident = await trx
      .insertInto("incidents")
      .values({
        title: event.incident.title,
        body: last?.body ?? "",
        started_at: event.start.toISOString(),
        resolved_at: resolved,
        status: last?.status ?? "investigating",
        products: JSON.stringify([event.product]),
        opened_by: "operator",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("incident_updates")
      .values(
        updates.map((u) => ({
          incident_id: incident.id,
          status: u.status,
          body: u.body,
          created_at: u.at.toISOString(),
        })),
      )
      .execute();
  }
  for (const s of seed)
    if (names.has(s.name) && s.status !== "operational")
      await recordStatusChange(trx, { name: s.name, status: s.status, at: now, source: "seed" });
}

/** Each product's changes from `since` on, led by the last one before it (the state the window opens in). */
export async function loadStatusChanges(db: Db, since: Date): Promise<Map<string, StatusChange[]>> {
  const sinceIso = since.toISOString();
  const [before, within] = await Promise.all([
    db
      .selectFrom("status_changes as c")
      .select(["c.name", "c.status", "c.changed_at", "c.id"])
      .where("c.changed_at", "<", sinceIso)
      .where(({ eb, selectFrom }) =>
        eb(
          "c.id",
          "=",
          selectFrom("status_changes as p")
            .select((e) => e.fn.max("p.id").as("id"))
            .whereRef("p.name", "=", "c.name")
            .where("p.changed_at", "<", sinceIso),
        ),
      )
      .execute(),
    db
      .selectFrom("status_changes")
      .select(["name", "status", "changed_at", "id"])
      .where("changed_at", ">=", sinceIso)
      .orderBy("changed_at")
      .orderBy("id")
      .execute(),
  ]);
  const changes = new Map<string, StatusChange[]>();
  for (const row of [...before, ...within]) {
    const list = changes.get(row.name) ?? [];
    list.push({ at: Date.parse(row.changed_at), status: toDisplayStatus(row.status) });
    changes.set(row.name, list);
  }
  return changes;
}

function parseProducts(json: string): string[] {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}

type IncidentRow = Selectable<IncidentsTable>;

function toIncidentSummary(row: {
  id: number;
  title: string;
  status: string;
  products: string;
  started_at: string;
  resolved_at: string | null;
}): IncidentSummary {
  return {
    id: row.id,
    title: row.title,
    status: row.resolved_at ? "resolved" : toIncidentStatus(row.status),
    products: parseProducts(row.products),
    startedAt: row.started_at,
    resolvedAt: row.resolved_at,
  };
}

/** Incidents with their updates, newest update first; one written straight into the table gets its body as its update. */
async function withUpdates(db: Db, rows: IncidentRow[]): Promise<Incident[]> {
  if (rows.length === 0) return [];
  const updates = await db
    .selectFrom("incident_updates")
    .selectAll()
    .where(
      "incident_id",
      "in",
      rows.map((r) => r.id),
    )
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map((row) => {
    const own: IncidentUpdate[] = updates
      .filter((u) => u.incident_id === row.id)
      .map((u) => ({
        status: toIncidentStatus(u.status),
        body: u.body,
        html: renderIncidentMarkdown(u.body),
        at: u.created_at,
      }));
    const list =
      own.length > 0
        ? own
        : [
            {
              status: toIncidentStatus(row.status),
              body: row.body,
              html: renderIncidentMarkdown(row.body),
              at: row.started_at,
            },
          ];
    const newest = list[0];
    return {
      ...toIncidentSummary(row),
      body: newest?.body ?? row.body,
      html: newest?.html ?? renderIncidentMarkdown(row.body),
      updates: list,
    };
  });
}

export async function listOpenIncidents(db: Db): Promise<Incident[]> {
  const rows = await db
    .selectFrom("incidents")
    .selectAll()
    .where("resolved_at", "is", null)
    .orderBy("started_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return withUpdates(db, rows);
}

/** One incident with every update, or undefined. */
export async function loadIncident(db: Db, id: number): Promise<Incident | undefined> {
  const row = await db.selectFrom("incidents").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? (await withUpdates(db, [row]))[0] : undefined;
}

/** The newest incidents with their updates (the Atom feed). */
export async function listLatestIncidents(db: Db, limit = 50): Promise<Incident[]> {
  const rows = await db
    .selectFrom("incidents")
    .selectAll()
    .orderBy("started_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return withUpdates(db, rows);
}

/** Incidents that overlap [since, now], for the days' notes. */
async function listIncidentsSince(db: Db, since: Date) {
  const rows = await db
    .selectFrom("incidents")
    .select(["id", "title", "status", "products", "started_at", "resolved_at"])
    .where((eb) => eb.or([eb("resolved_at", "is", null), eb("resolved_at", ">=", since.toISOString())]))
    .orderBy("started_at", "desc")
    .orderBy("id", "desc")
    .execute();
  return rows.map(toIncidentSummary);
}

export async function listStatusEntries(db: Db, now = new Date()): Promise<StatusEntry[]> {
  return (await loadStatusSnapshot(db, { activeUsers: "", licenseServers: "" }, now)).entries;
}

/** One consistent read of everything the status page shows, its history computed up to `now`. */
export async function loadStatusSnapshot(
  db: Db,
  stats: { activeUsers: string; licenseServers: string },
  now = new Date(),
): Promise<StatusSnapshot> {
  const firstDay = Math.floor(now.getTime() / DAY_MS) * DAY_MS - (HISTORY_DAYS - 1) * DAY_MS;
  const [rows, changes, incidents, open] = await Promise.all([
    db.selectFrom("status_entries").selectAll().orderBy("sort_order").orderBy("id").execute(),
    loadStatusChanges(db, new Date(firstDay)),
    listIncidentsSince(db, new Date(firstDay)),
    listOpenIncidents(db),
  ]);
  const incidentTitles: Record<string, string> = {};
  const fractions: Array<number | null> = [];
  const entries = rows.map((row): StatusEntry => {
    const records = dailyRecords(changes.get(row.name) ?? [], now.getTime());
    const fraction = uptimeFraction(records);
    fractions.push(fraction);
    const notes: Record<string, DayNote> = {};
    records.forEach((record, index) => {
      const dayStart = firstDay + index * DAY_MS;
      const ids = incidents
        .filter(
          (i) =>
            i.products.includes(row.name) &&
            Date.parse(i.startedAt) < dayStart + DAY_MS &&
            (i.resolvedAt === null || Date.parse(i.resolvedAt) >= dayStart),
        )
        .map((i) => i.id);
      const dayUptime = record.downMs > 0 ? formatUptime(uptimeFraction([record])) : null;
      if (dayUptime === null && ids.length === 0) return;
      notes[index] = {
        ...(dayUptime === null ? {} : { uptime: dayUptime }),
        ...(ids.length > 0 ? { incidents: ids } : {}),
      };
      for (const id of ids) incidentTitles[id] = incidents.find((i) => i.id === id)?.title ?? "";
    });
    return {
      name: row.name,
      status: toDisplayStatus(row.status),
      uptime: formatUptime(fraction),
      updatedAt: row.updated_at,
      days: records.map((r) => DAY_CODES[r.worst]).join(""),
      notes,
    };
  });
  for (const entry of entries)
    for (const status of [...KNOWN_STATUSES, "unknown"] as const)
      statusProductStatus.set({ product: entry.name, status }, entry.status === status ? 1 : 0);
  const recentSince = now.getTime() - RECENT_INCIDENT_DAYS * DAY_MS;
  return {
    entries,
    summary: {
      products: entries.length,
      averageUptime: formatUptime(averageFraction(fractions)),
      activeUsers: stats.activeUsers,
      licenseServers: stats.licenseServers,
    },
    incidents: open,
    recentIncidents: incidents.filter((i) => i.resolvedAt !== null && Date.parse(i.resolvedAt) >= recentSince),
    historyStart: new Date(firstDay).toISOString().slice(0, 10),
    incidentTitles,
  };
}
