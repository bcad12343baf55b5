// The mail outbox in the database: store, claim, expire, and the reads for callers and operators (the delivery engine,
// `~/platform/outbox.server`, leases and records the attempts).
import crypto from "node:crypto";
import { type Kysely, type Selectable, sql } from "kysely";
import { mailQueued } from "~/platform/metrics.server";
import { claimDueRows, type OutboxRows } from "~/platform/outbox.server";
import type { DbDialect } from "../../../db/client";
import type { Database, MailOutboxTable } from "../../../db/schema";
import { type Mail, type MailDeliveryState, type MailInput, type MailStatus, mailInputSchema } from "./mail";

export type MailRow = Selectable<MailOutboxTable>;

export function toMail(row: MailRow): Mail {
  return {
    id: row.id,
    kind: row.kind,
    from: row.from_address,
    to: row.to_address,
    subject: row.subject,
    text: row.text_body,
    html: row.html_body,
    messageId: row.message_id,
    status: row.status,
    createdAt: row.created_at,
    sendBy: row.send_by,
    attempts: Number(row.attempts),
    nextAttemptAt: row.next_attempt_at,
    firstFailedAt: row.first_failed_at,
    lastError: row.last_error,
    sentAt: row.sent_at,
  };
}

/** The sender's domain for Message-IDs (`<id@example.com>`), as RFC 5322 asks. */
function messageIdDomain(from: string): string {
  const domain = /@([^\s<>@]+?)>?\s*$/.exec(from)?.[1];
  return domain && /^[a-z0-9.-]+$/i.test(domain) ? domain.toLowerCase() : "kestrel.invalid";
}

/**
 * Accepts a mail once: stored as `pending` for the workers (`deliver`), or `kept` in the database when no SMTP
 * server is configured. The input is checked with `mailInputSchema` (a bad one throws before anything is stored).
 */
export async function insertMail(
  db: Kysely<Database>,
  input: MailInput,
  options: { from: string; deliver: boolean; sendBy?: Date; now?: Date },
): Promise<Mail> {
  const mail = mailInputSchema.parse(input);
  const now = (options.now ?? new Date()).toISOString();
  const id = crypto.randomUUID();
  const row: MailRow = {
    id,
    kind: mail.kind,
    from_address: options.from,
    to_address: mail.to,
    subject: mail.subject,
    text_body: mail.text,
    html_body: mail.html ?? null,
    message_id: `<${id}@${messageIdDomain(options.from)}>`,
    status: options.deliver ? "pending" : "kept",
    created_at: now,
    send_by: options.sendBy?.toISOString() ?? null,
    attempts: 0,
    next_attempt_at: now,
    first_failed_at: null,
    last_error: null,
    sent_at: null,
    claimed_by: null,
    claimed_until: null,
  };
  await db.insertInto("mail_outbox").values(row).execute();
  mailQueued.inc({ mode: options.deliver ? "smtp" : "kept" });
  return toMail(row);
}

/** The outbox's rows, for the delivery engine (`~/platform/outbox.server`): mail past its send-by time is left for
 * `expireOverdueMail`. */
export const MAIL_OUTBOX_ROWS: OutboxRows = {
  table: "mail_outbox",
  statusColumn: "status",
  done: { status: "sent", atColumn: "sent_at" },
  dueAlso: (nowIso) => sql`(o.send_by IS NULL OR o.send_by > ${nowIso})`,
};

/** Claims due pending mail for one worker until `leaseMs` from now (see `claimDueRows`). */
export async function claimDueMail(
  db: Kysely<Database>,
  dialect: DbDialect,
  options: { workerId: string; limit: number; leaseMs: number; now?: Date; ids?: string[] },
): Promise<Mail[]> {
  const rows = await claimDueRows<MailRow>(db, dialect, MAIL_OUTBOX_ROWS, {
    ...options,
    now: options.now ?? new Date(),
  });
  return rows.map(toMail).sort((a, b) => a.nextAttemptAt.localeCompare(b.nextAttemptAt));
}

/** The outcome of one attempt at one mail. */
export type MailAttempt =
  | { outcome: "sent" }
  /** The server was unreachable or answered 4xx: tried again at `nextAttemptAt`. */
  | { outcome: "retry"; reason: string; nextAttemptAt: Date }
  /** A permanent 5xx: failed, never tried again. */
  | { outcome: "rejected"; reason: string; responseCode: number }
  /** Failing for too long: failed. */
  | { outcome: "gave_up"; reason: string }
  /** Its send-by time came before it could be sent: expired. */
  | { outcome: "expired"; reason: string };

/**
 * Gives up pending mail whose send-by time has passed and that no worker holds: it becomes `expired` and is never
 * sent late. Returns the mail it expired.
 */
export async function expireOverdueMail(db: Kysely<Database>, now = new Date()): Promise<Mail[]> {
  const nowIso = now.toISOString();
  const rows = await db
    .updateTable("mail_outbox")
    .set({ status: "expired", last_error: "not sent by its send-by time", claimed_by: null, claimed_until: null })
    .where("status", "=", "pending")
    .where("send_by", "is not", null)
    .where("send_by", "<=", nowIso)
    .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<", nowIso)]))
    .returningAll()
    .execute();
  return rows.map(toMail);
}

export async function findMail(db: Kysely<Database>, id: string): Promise<Mail | undefined> {
  const row = await db.selectFrom("mail_outbox").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toMail(row) : undefined;
}

/**
 * Whether a queued mail was sent, failed, expired, was kept or is still pending, without its text: what a caller
 * (a sign-in code's page) asks before telling the buyer to wait for it. Undefined for an unknown id.
 */
export async function getMailDeliveryState(db: Kysely<Database>, id: string): Promise<MailDeliveryState | undefined> {
  const row = await db
    .selectFrom("mail_outbox")
    .select(["id", "kind", "status", "created_at", "send_by", "attempts", "last_error", "sent_at"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    createdAt: row.created_at,
    sendBy: row.send_by,
    attempts: Number(row.attempts),
    lastError: row.last_error,
    sentAt: row.sent_at,
  };
}

/** The newest mail first (the operator's `mail list`), optionally of one status. */
export async function listMail(
  db: Kysely<Database>,
  options: { status?: MailStatus; limit?: number } = {},
): Promise<Mail[]> {
  let query = db
    .selectFrom("mail_outbox")
    .selectAll()
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(options.limit ?? 100);
  if (options.status) query = query.where("status", "=", options.status);
  return (await query.execute()).map(toMail);
}

/**
 * The mail kept in the database because no SMTP server is configured, newest first, optionally only to one address
 * (compared case-insensitively): what the demo mailbox shows.
 */
export async function listKeptMail(
  db: Kysely<Database>,
  options: { to?: string; limit?: number } = {},
): Promise<Mail[]> {
  let query = db
    .selectFrom("mail_outbox")
    .selectAll()
    .where("status", "=", "kept")
    .orderBy("created_at", "desc")
    .orderBy("id")
    .limit(options.limit ?? 50);
  if (options.to !== undefined)
    query = query.where((eb) => eb(eb.fn("lower", ["to_address"]), "=", options.to?.trim().toLowerCase() ?? ""));
  return (await query.execute()).map(toMail);
}

/** Deletes mail that is done with (sent, failed, expired, or kept for the demo mailbox) and older than `before`. */
export async function deleteFinishedMail(db: Kysely<Database>, before: Date): Promise<number> {
  const result = await db
    .deleteFrom("mail_outbox")
    .where("status", "in", ["sent", "failed", "expired", "kept"])
    .where("created_at", "<", before.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
