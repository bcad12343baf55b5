import type { Kysely } from "kysely";
import type { Database } from "../../../db/schema";
import { inTransaction } from "~/platform/db.server";
import {
  type DisplayStatus,
  type Incident,
  INCIDENT_STATUSES,
  type IncidentStatus,
  KNOWN_STATUSES,
  type KnownStatus,
  toDisplayStatus,
} from "./status";
import {
  listLatestIncidents,
  listOpenIncidents,
  listStatusEntries,
  loadIncident,
  recordStatusChange,
} from "./status.server";

// Operator-side status changes (the CLI and the console). The /status page and GET /api/status read the same tables
// (each reuses a read for at most 1 s, or until status-news.server.ts announces a change), so a change here shows at
// the next page load or "Refresh Status" without a restart.

export const MAX_INCIDENT_TITLE = 200;
export const MAX_INCIDENT_BODY = 2000;

/** A refused operator command; the message says what was wrong and what is accepted. */
export class StatusAdminError extends Error {}

export interface StatusRow {
  name: string;
  /** What the database holds (an operator may have typed anything). */
  storedStatus: string;
  /** What visitors see: unknown values show as "unknown". */
  status: DisplayStatus;
  /** Computed over the last 90 days; null when nothing was measured. */
  uptime: string | null;
  updatedAt: string;
}

export function parseKnownStatus(value: string): KnownStatus {
  const normalised = value.trim().toLowerCase();
  if ((KNOWN_STATUSES as readonly string[]).includes(normalised)) return normalised as KnownStatus;
  throw new StatusAdminError(`Unknown status "${value}": expected one of ${KNOWN_STATUSES.join(", ")}`);
}

/** Uptime is computed from the recorded history now; a typed one would contradict it. */
export const UPTIME_IS_COMPUTED =
  "Uptime is computed from the recorded status history; it can no longer be set (drop --uptime)";

export async function listStatusRows(db: Kysely<Database>): Promise<StatusRow[]> {
  const [rows, entries] = await Promise.all([
    db.selectFrom("status_entries").selectAll().orderBy("sort_order").orderBy("id").execute(),
    listStatusEntries(db),
  ]);
  const uptimes = new Map(entries.map((e) => [e.name, e.uptime]));
  return rows.map((r) => ({
    name: r.name,
    storedStatus: r.status,
    status: toDisplayStatus(r.status),
    uptime: uptimes.get(r.name) ?? null,
    updatedAt: r.updated_at,
  }));
}

/**
 * Finds the status entry an operator means: its exact name (any case), or a catalogue product's slug or id whose
 * name is the entry ("vault", "446889" → "Kestrel Vault").
 */
export function findStatusEntryName(
  names: readonly string[],
  input: string,
  products: ReadonlyArray<{ id: number; slug: string; name: string }> = [],
): string {
  const wanted = input.trim().toLowerCase();
  const byName = names.find((n) => n.toLowerCase() === wanted);
  if (byName) return byName;
  const product = products.find((p) => p.slug === wanted || String(p.id) === wanted);
  const byProduct = product && names.find((n) => n.toLowerCase() === product.name.toLowerCase());
  if (byProduct) return byProduct;
  throw new StatusAdminError(`Unknown product "${input}": expected one of ${names.map((n) => `"${n}"`).join(", ")}`);
}

/** Sets a product's status and records the change (a status set again to what it is records nothing). */
export async function setProductStatus(
  db: Kysely<Database>,
  change: { product: string; status: string; uptime?: string; now?: Date },
  products: ReadonlyArray<{ id: number; slug: string; name: string }> = [],
): Promise<StatusRow> {
  if (change.uptime !== undefined) throw new StatusAdminError(UPTIME_IS_COMPUTED);
  const status = parseKnownStatus(change.status);
  const now = change.now ?? new Date();
  const names = (await db.selectFrom("status_entries").select("name").execute()).map((r) => r.name);
  const name = findStatusEntryName(names, change.product, products);
  await inTransaction(db, async (trx) => {
    const before = await trx.selectFrom("status_entries").select("status").where("name", "=", name).executeTakeFirst();
    await trx
      .updateTable("status_entries")
      .set({ status, updated_at: now.toISOString() })
      .where("name", "=", name)
      .execute();
    if (before?.status !== status) await recordStatusChange(trx, { name, status, at: now, source: "operator" });
  });
  const row = (await listStatusRows(db)).find((r) => r.name === name);
  if (!row) throw new StatusAdminError(`Status entry "${name}" disappeared while updating it`);
  return row;
}

export function parseIncidentStatus(value: string): IncidentStatus {
  const normalised = value.trim().toLowerCase();
  if ((INCIDENT_STATUSES as readonly string[]).includes(normalised)) return normalised as IncidentStatus;
  throw new StatusAdminError(`Unknown incident status "${value}": expected one of ${INCIDENT_STATUSES.join(", ")}`);
}

function checkText(value: string, what: string, flag: string, max: number): string {
  const text = value.trim();
  if (!text) throw new StatusAdminError(`An incident needs ${what} (${flag})`);
  if (text.length > max)
    throw new StatusAdminError(`The ${what.replace(/^an? /, "")} is ${text.length} characters; at most ${max}`);
  return text;
}

/** Opens an incident with its first update; `products` are status names, slugs or ids, as `status set` takes them. */
export async function addIncident(
  db: Kysely<Database>,
  input: {
    title: string;
    body: string;
    status?: string;
    products?: readonly string[];
    openedBy?: "operator" | "probe";
    /** Records an incident that is already over (the console's New incident as Resolved): one resolved update. */
    allowResolved?: boolean;
    now?: Date;
  },
  catalogue: ReadonlyArray<{ id: number; slug: string; name: string }> = [],
): Promise<Incident> {
  const title = checkText(input.title, "a title", "--title", MAX_INCIDENT_TITLE);
  const body = checkText(input.body, "a body", "--body", MAX_INCIDENT_BODY);
  const status = input.status === undefined ? "investigating" : parseIncidentStatus(input.status);
  if (status === "resolved" && !input.allowResolved)
    throw new StatusAdminError('A new incident cannot start resolved: open it, then "incidents resolve"');
  const names = (await db.selectFrom("status_entries").select("name").execute()).map((r) => r.name);
  const products = [...new Set((input.products ?? []).map((p) => findStatusEntryName(names, p, catalogue)))];
  const at = (input.now ?? new Date()).toISOString();
  const id = await inTransaction(db, async (trx) => {
    const row = await trx
      .insertInto("incidents")
      .values({
        title,
        body,
        started_at: at,
        resolved_at: status === "resolved" ? at : null,
        status,
        products: JSON.stringify(products),
        opened_by: input.openedBy ?? "operator",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx.insertInto("incident_updates").values({ incident_id: row.id, status, body, created_at: at }).execute();
    return row.id;
  });
  return requireIncident(db, id);
}

async function requireIncident(db: Kysely<Database>, id: number): Promise<Incident> {
  const incident = await loadIncident(db, id);
  if (!incident) throw new StatusAdminError(`No incident with id ${id}`);
  return incident;
}

/** Posts an update; `resolved` resolves the incident, any other status on a resolved one reopens it. */
export async function updateIncident(
  db: Kysely<Database>,
  id: number,
  input: { status: string; body: string; now?: Date },
): Promise<Incident> {
  const status = parseIncidentStatus(input.status);
  const body = checkText(input.body, "a body", "--body", MAX_INCIDENT_BODY);
  const at = (input.now ?? new Date()).toISOString();
  await requireIncident(db, id);
  await inTransaction(db, async (trx) => {
    await trx
      .updateTable("incidents")
      .set({ status, body, resolved_at: status === "resolved" ? at : null })
      .where("id", "=", id)
      .execute();
    await trx.insertInto("incident_updates").values({ incident_id: id, status, body, created_at: at }).execute();
  });
  return requireIncident(db, id);
}

export function parseIncidentId(value: string | undefined): number {
  if (value === undefined || !/^\d{1,9}$/.test(value.trim()) || Number(value) < 1) {
    throw new StatusAdminError(
      `Invalid incident id ${value === undefined ? "(missing)" : `"${value}"`}: expected a number from "incidents list"`,
    );
  }
  return Number(value);
}

export const RESOLVED_MESSAGE = "This incident has been resolved.";

/** Resolves an open incident with a last update; resolving one twice keeps the first resolution. */
export async function resolveIncident(
  db: Kysely<Database>,
  id: number,
  now = new Date(),
  body = RESOLVED_MESSAGE,
): Promise<{ incident: Incident; alreadyResolved: boolean }> {
  const existing = await requireIncident(db, id);
  if (existing.resolvedAt !== null) return { incident: existing, alreadyResolved: true };
  return { incident: await updateIncident(db, id, { status: "resolved", body, now }), alreadyResolved: false };
}

/** Open incidents newest first; with `includeResolved`, the 50 newest resolved ones follow. */
export async function listIncidents(
  db: Kysely<Database>,
  options: { includeResolved?: boolean } = {},
): Promise<Incident[]> {
  if (!options.includeResolved) return listOpenIncidents(db);
  const incidents = await listLatestIncidents(db);
  return [...incidents.filter((i) => i.resolvedAt === null), ...incidents.filter((i) => i.resolvedAt !== null)];
}
