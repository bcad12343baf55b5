// The audit log (issue 34): who did what, when, from where. A change's entry is written in the change's own
// transaction (issue 42, auditedChange); nothing edits or deletes an entry except the retention prune
// (AUDIT_RETENTION_DAYS) and a refusal's count (recordRefusal).
import { type Kysely, PostgresAdapter, type Selectable, type SelectQueryBuilder, type Transaction } from "kysely";
import crypto from "node:crypto";
import { ChangeUndoneError } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { loadOrCreateLocalSecret } from "~/platform/local-secret.server";
import type { AuditLogTable, Database } from "../../../db/schema";

/** Every kind of entry. */
export const AUDIT_ACTIONS = [
  "sign-in",
  "sign-in-refused",
  "setup-link-used",
  "setup-link-refused",
  "passkey-added",
  "passkey-renamed",
  "passkey-removed",
  "staff-invited",
  "staff-role-changed",
  "staff-removed",
  "sessions-revoked",
  "sign-out",
  "sign-out-everywhere",
  "audit-exported",
  "orders-looked-up",
  "delivery-retried",
  // The support inbox (and the CLI's support commands).
  "support-note-added",
  "support-assigned",
  "support-reopened",
  // Saved replies (the console's Saved replies page).
  "saved-reply-created",
  "saved-reply-updated",
  "saved-reply-deleted",
  // The shop's content (the console's Content room, the CLI's content commands).
  "content-draft-saved",
  "content-published",
  "content-restored",
  "content-returned-to-file",
  // The CLI's other writing commands (actor `cli`).
  "status-changed",
  "incident-opened",
  "incident-updated",
  "incident-resolved",
  "support-replied",
  "support-resolved",
  "support-retried",
  "buyer-sessions-revoked",
  "data-imported",
  // Releases (issue 45): from the CLI and the console.
  "release-added",
  "release-published",
  "release-yanked",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEntryInput {
  actor: string;
  action: AuditAction;
  target?: string | null;
  detail?: Record<string, unknown> | null;
  clientAddress?: string | null;
  userAgent?: string | null;
  sessionBeganWith?: AuditLogTable["session_began_with"];
  now?: Date;
}

/** What a look-up's text was: an email address, or anything else (an order number, an invoice id, a delivered key). */
export type LookupKind = "email" | "key";

export function lookupKind(text: string): LookupKind {
  return text.includes("@") ? "email" : "key";
}

/**
 * What the log keeps of a look-up's text (issue 42): its kind and an HMAC-SHA256 of it under AUDIT_HASH_KEY (else a
 * key generated in DATA_DIR), `email:1f3a…` — the same text hashes the same, so one buyer's look-ups can be followed,
 * but neither the text nor anything that reveals it without the key is ever written. Emails are compared in any case.
 */
export function lookupTarget(text: string): string {
  const kind = lookupKind(text.trim());
  const normal = kind === "email" ? text.trim().toLowerCase() : text.trim();
  const key = getEnv().AUDIT_HASH_KEY ?? loadOrCreateLocalSecret("audit-hash-key");
  const digest = crypto.createHmac("sha256", key).update(`kestrel-audit-${kind}:${normal}`).digest("hex");
  return `${kind}:${digest.slice(0, 32)}`;
}

/** An entry but for what was done: who, from where, and on what. */
export type AuditBase = Omit<AuditEntryInput, "action">;

/** Who made a request, for its audit entry. */
export interface AuditRequestInfo {
  clientAddress: string | null;
  userAgent: string | null;
}

/** Why a change was not made: its audit entry could not be written, so the transaction holding both was undone. */
export class AuditWriteError extends ChangeUndoneError {
  constructor(cause: unknown) {
    super("Nothing was changed: the audit log could not be written.", { cause });
    this.name = "AuditWriteError";
  }
}

/**
 * A change and its audit entry in one transaction (both dialects): `entryFor` says from the change's result what to
 * record (null: nothing happened, nothing to record). A failing audit write undoes the change and throws
 * AuditWriteError. Whatever the change announces (the doorbell, status news, the thread relay) is for the caller to
 * do after this returns, once both are committed.
 */
export async function auditedChange<T>(
  db: Kysely<Database>,
  change: (trx: Transaction<Database>) => Promise<T>,
  entryFor: (result: T) => AuditEntryInput | AuditEntryInput[] | null | undefined | false,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const result = await change(trx);
    const entries = entryFor(result);
    for (const entry of Array.isArray(entries) ? entries : entries ? [entries] : [])
      await recordChangeAudit(trx, entry);
    return result;
  });
}

/** A change's entry, written in the change's transaction `trx`: a failure is an AuditWriteError, which undoes it. */
export async function recordChangeAudit(trx: Transaction<Database>, entry: AuditEntryInput): Promise<void> {
  try {
    await recordAudit(trx, entry);
  } catch (error) {
    throw new AuditWriteError(error);
  }
}

export async function recordAudit(db: Kysely<Database>, entry: AuditEntryInput): Promise<void> {
  await db
    .insertInto("audit_log")
    .values({
      at: (entry.now ?? new Date()).toISOString(),
      actor: entry.actor,
      action: entry.action,
      target: entry.target ?? null,
      detail: entry.detail ? JSON.stringify(entry.detail) : null,
      client_address: entry.clientAddress ?? null,
      user_agent: entry.userAgent ? entry.userAgent.slice(0, 300) : null,
      session_began_with: entry.sessionBeganWith ?? null,
    })
    .execute();
}

/**
 * A refusal at the door (a sign-in or setup link refused), counted: one entry per client address and actor per UTC
 * minute, whose detail's `count` each further refusal in that minute raises (the only change ever made to an entry),
 * so refusals from one address cannot grow the log without bound (issue 42). The first refusal's reason is kept.
 */
export async function recordRefusal(
  db: Kysely<Database>,
  entry: AuditEntryInput & { action: "sign-in-refused" | "setup-link-refused" },
): Promise<void> {
  const now = entry.now ?? new Date();
  const minute = Math.floor(now.getTime() / 60_000) * 60_000;
  await db.transaction().execute(async (trx) => {
    let query = trx
      .selectFrom("audit_log")
      .select(["id", "detail"])
      .where("action", "=", entry.action)
      .where("actor", "=", entry.actor)
      .where("at", ">=", new Date(minute).toISOString())
      .where("at", "<", new Date(minute + 60_000).toISOString());
    query =
      entry.clientAddress == null
        ? query.where("client_address", "is", null)
        : query.where("client_address", "=", entry.clientAddress);
    // On PostgreSQL two instances counting the same minute wait for each other instead of losing a count.
    if (trx.getExecutor().adapter instanceof PostgresAdapter) query = query.forUpdate();
    const counted = await query.orderBy("id").limit(1).executeTakeFirst();
    if (!counted) return recordAudit(trx, { ...entry, now });
    const detail = JSON.parse(counted.detail ?? "{}") as Record<string, unknown>;
    detail.count = (typeof detail.count === "number" ? detail.count : 1) + 1;
    await trx
      .updateTable("audit_log")
      .set({ detail: JSON.stringify(detail) })
      .where("id", "=", counted.id)
      .execute();
  });
}

export interface AuditFilters {
  actor?: string;
  action?: AuditAction;
  /** `YYYY-MM-DD`, inclusive, UTC. */
  from?: string;
  to?: string;
}

export interface AuditEntry {
  id: number;
  at: string;
  actor: string;
  action: string;
  target: string | null;
  detail: string | null;
  clientAddress: string | null;
  userAgent: string | null;
  sessionBeganWith: string | null;
}

function filtered<O>(query: SelectQueryBuilder<Database, "audit_log", O>, filters: AuditFilters) {
  let q = query;
  if (filters.actor) q = q.where("actor", "=", filters.actor);
  if (filters.action) q = q.where("action", "=", filters.action);
  if (filters.from) q = q.where("at", ">=", `${filters.from}T00:00:00.000Z`);
  if (filters.to) q = q.where("at", "<=", `${filters.to}T23:59:59.999Z`);
  return q;
}

function toEntry(row: Selectable<AuditLogTable>): AuditEntry {
  return {
    id: Number(row.id),
    at: row.at,
    actor: row.actor,
    action: row.action,
    target: row.target,
    detail: row.detail,
    clientAddress: row.client_address,
    userAgent: row.user_agent,
    sessionBeganWith: row.session_began_with,
  };
}

export const AUDIT_PAGE_SIZE = 50;

/** One page of entries, newest first, and whether an older page follows. */
export async function listAudit(
  db: Kysely<Database>,
  filters: AuditFilters,
  page: number,
): Promise<{ entries: AuditEntry[]; hasMore: boolean }> {
  const rows = await filtered(db.selectFrom("audit_log").selectAll(), filters)
    .orderBy("at", "desc")
    .orderBy("id", "desc")
    .limit(AUDIT_PAGE_SIZE + 1)
    .offset((page - 1) * AUDIT_PAGE_SIZE)
    .execute();
  return { entries: rows.slice(0, AUDIT_PAGE_SIZE).map(toEntry), hasMore: rows.length > AUDIT_PAGE_SIZE };
}

/** The people (and `cli`) who appear in the log, for the filter. */
export async function auditActors(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom("audit_log").select("actor").distinct().orderBy("actor").limit(500).execute();
  return rows.map((r) => r.actor);
}

const CSV_COLUMNS = ["time", "actor", "action", "target", "detail", "client_address", "user_agent", "session"] as const;

/** One CSV field: quoted when needed, and never read as a formula by a spreadsheet. */
function csvField(value: string | null): string {
  let text = value ?? "";
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Rows the CSV export reads at a time. */
export const AUDIT_CSV_BATCH = 500;

/**
 * What the filters show, as CSV (RFC 4180), newest first, read in batches so memory stays flat, each batch by key
 * range (older than the last row's time and id, issue 42), so a read deep into a large log costs what the first did.
 */
export async function* auditCsv(
  db: Kysely<Database>,
  filters: AuditFilters,
  batch = AUDIT_CSV_BATCH,
): AsyncGenerator<string> {
  yield `${CSV_COLUMNS.join(",")}\r\n`;
  let after: { at: string; id: number } | undefined;
  for (;;) {
    let query = filtered(db.selectFrom("audit_log").selectAll(), filters);
    if (after) {
      const { at, id } = after;
      // One row-value comparison, which both databases read as a range of the `at` index (its rows carry the id):
      // the OR of two comparisons made SQLite scan from the newest entry on every batch.
      query = query.where((eb) => eb(eb.refTuple("at", "id"), "<", eb.tuple(at, id)));
    }
    const rows = await query.orderBy("at", "desc").orderBy("id", "desc").limit(batch).execute();
    for (const e of rows.map(toEntry))
      yield `${[e.at, e.actor, e.action, e.target, e.detail, e.clientAddress, e.userAgent, e.sessionBeganWith]
        .map(csvField)
        .join(",")}\r\n`;
    const last = rows.at(-1);
    if (rows.length < batch || !last) return;
    after = { at: last.at, id: Number(last.id) };
  }
}

/** Deletes entries older than the retention: the number deleted. */
export async function pruneAuditLog(db: Kysely<Database>, retentionDays: number, now = new Date()): Promise<number> {
  const before = new Date(now.getTime() - retentionDays * 24 * 60 * 60 * 1000).toISOString();
  const result = await db.deleteFrom("audit_log").where("at", "<", before).executeTakeFirst();
  return Number(result.numDeletedRows);
}
