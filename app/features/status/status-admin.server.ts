import type { Kysely } from "kysely";
import type { Database } from "../../../db/schema";
import { type DisplayStatus, type Incident, KNOWN_STATUSES, type KnownStatus, toDisplayStatus } from "./status";

// Operator-side status changes (the CLI). The /status page and GET /api/status read the same tables (each reuses a read for at most 1 s),
// so a change here shows at the next page load or "Refresh Status" without a restart.

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
  uptime: string;
  updatedAt: string;
}

export function parseKnownStatus(value: string): KnownStatus {
  const normalised = value.trim().toLowerCase();
  if ((KNOWN_STATUSES as readonly string[]).includes(normalised)) return normalised as KnownStatus;
  throw new StatusAdminError(`Unknown status "${value}": expected one of ${KNOWN_STATUSES.join(", ")}`);
}

/** An uptime percentage between 0 and 100 with at most 3 decimals, normalised ("99.90" → "99.9"). */
export function parseUptime(value: string): string {
  const trimmed = value.trim().replace(/%$/, "");
  const number = Number(trimmed);
  if (!/^\d{1,3}(\.\d{1,3})?$/.test(trimmed) || !Number.isFinite(number) || number < 0 || number > 100) {
    throw new StatusAdminError(`Invalid uptime "${value}": expected a percentage from 0 to 100, like 99.9`);
  }
  return String(number);
}

export async function listStatusRows(db: Kysely<Database>): Promise<StatusRow[]> {
  const rows = await db.selectFrom("status_entries").selectAll().orderBy("sort_order").orderBy("id").execute();
  return rows.map((r) => ({ name: r.name, storedStatus: r.status, status: toDisplayStatus(r.status), uptime: r.uptime, updatedAt: r.updated_at }));
}

/**
 * Finds the status entry an operator means: its exact name (any case), or a catalogue product's slug or id whose
 * name is the entry ("vault", "446889" → "Kestrel Vault").
 */
export function findStatusEntryName(names: readonly string[], input: string, products: ReadonlyArray<{ id: number; slug: string; name: string }> = []): string {
  const wanted = input.trim().toLowerCase();
  const byName = names.find((n) => n.toLowerCase() === wanted);
  if (byName) return byName;
  const product = products.find((p) => p.slug === wanted || String(p.id) === wanted);
  const byProduct = product && names.find((n) => n.toLowerCase() === product.name.toLowerCase());
  if (byProduct) return byProduct;
  throw new StatusAdminError(`Unknown product "${input}": expected one of ${names.map((n) => `"${n}"`).join(", ")}`);
}

export async function setProductStatus(
  db: Kysely<Database>,
  change: { product: string; status: string; uptime?: string; now?: Date },
  products: ReadonlyArray<{ id: number; slug: string; name: string }> = [],
): Promise<StatusRow> {
  const status = parseKnownStatus(change.status);
  const uptime = change.uptime === undefined ? undefined : parseUptime(change.uptime);
  const names = (await db.selectFrom("status_entries").select("name").execute()).map((r) => r.name);
  const name = findStatusEntryName(names, change.product, products);
  await db
    .updateTable("status_entries")
    .set({ status, ...(uptime === undefined ? {} : { uptime }), updated_at: (change.now ?? new Date()).toISOString() })
    .where("name", "=", name)
    .execute();
  const row = (await listStatusRows(db)).find((r) => r.name === name);
  if (!row) throw new StatusAdminError(`Status entry "${name}" disappeared while updating it`);
  return row;
}

function toIncident(r: { id: number; title: string; body: string; started_at: string; resolved_at: string | null }): Incident {
  return { id: r.id, title: r.title, body: r.body, startedAt: r.started_at, resolvedAt: r.resolved_at };
}

export async function addIncident(db: Kysely<Database>, input: { title: string; body: string; now?: Date }): Promise<Incident> {
  const title = input.title.trim();
  const body = input.body.trim();
  if (!title) throw new StatusAdminError("An incident needs a title (--title)");
  if (!body) throw new StatusAdminError("An incident needs a body (--body)");
  if (title.length > MAX_INCIDENT_TITLE) throw new StatusAdminError(`The title is ${title.length} characters; at most ${MAX_INCIDENT_TITLE}`);
  if (body.length > MAX_INCIDENT_BODY) throw new StatusAdminError(`The body is ${body.length} characters; at most ${MAX_INCIDENT_BODY}`);
  const row = await db
    .insertInto("incidents")
    .values({ title, body, started_at: (input.now ?? new Date()).toISOString(), resolved_at: null })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toIncident(row);
}

export function parseIncidentId(value: string | undefined): number {
  if (value === undefined || !/^\d{1,9}$/.test(value.trim()) || Number(value) < 1) {
    throw new StatusAdminError(`Invalid incident id ${value === undefined ? "(missing)" : `"${value}"`}: expected a number from "incidents list"`);
  }
  return Number(value);
}

/** Resolves an open incident; resolving one twice keeps the first resolution time. */
export async function resolveIncident(db: Kysely<Database>, id: number, now = new Date()): Promise<{ incident: Incident; alreadyResolved: boolean }> {
  const updated = await db.updateTable("incidents").set({ resolved_at: now.toISOString() }).where("id", "=", id).where("resolved_at", "is", null).returningAll().executeTakeFirst();
  if (updated) return { incident: toIncident(updated), alreadyResolved: false };
  const existing = await db.selectFrom("incidents").selectAll().where("id", "=", id).executeTakeFirst();
  if (!existing) throw new StatusAdminError(`No incident with id ${id}`);
  return { incident: toIncident(existing), alreadyResolved: true };
}

/** Open incidents newest first; with `includeResolved`, resolved ones follow. */
export async function listIncidents(db: Kysely<Database>, options: { includeResolved?: boolean } = {}): Promise<Incident[]> {
  let query = db.selectFrom("incidents").selectAll();
  if (!options.includeResolved) query = query.where("resolved_at", "is", null);
  const rows = await query.orderBy("started_at", "desc").orderBy("id", "desc").execute();
  const incidents = rows.map(toIncident);
  return [...incidents.filter((i) => i.resolvedAt === null), ...incidents.filter((i) => i.resolvedAt !== null)];
}
