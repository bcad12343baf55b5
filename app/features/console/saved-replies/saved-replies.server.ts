// Saved replies (issue 35): texts owners and admins keep for the support inbox, each in one of the shop's languages
// or in any. Every change is written with its audit entry (before and after) in one transaction.
import crypto from "node:crypto";
import type { Kysely, Selectable } from "kysely";
import { isLocale, type Locale } from "~/features/i18n/locales";
import { getDb, pageDatabaseWork } from "~/platform/db.server";
import type { Database, SupportSavedRepliesTable } from "../../../../db/schema";
import { type AuditEntryInput, recordChangeAudit } from "~/features/audit/audit-log.server";
import type { SavedReplyChoice, SavedReplyInput } from "./saved-replies";

export interface SavedReply extends SavedReplyChoice {
  createdBy: string;
  createdAt: string;
  updatedAt: string;
}

/** Who makes a change, as its audit entry names them. */
export type SavedReplyActor = Omit<AuditEntryInput, "action" | "target" | "detail" | "now">;

const titleOrder = new Intl.Collator("en", { sensitivity: "base", numeric: true });

function toSavedReply(row: Selectable<SupportSavedRepliesTable>): SavedReply {
  return {
    id: row.id,
    title: row.title,
    body: row.body,
    // A locale the shop no longer speaks reads as any language rather than hiding the reply.
    locale: row.locale !== null && isLocale(row.locale) ? row.locale : null,
    createdBy: row.created_by,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** What an audit entry keeps of a reply. */
function auditState(reply: SavedReply) {
  return { title: reply.title, body: reply.body, locale: reply.locale };
}

/**
 * Every saved reply by title (case and accents aside, numbers in order). With `locale`: only those in that language
 * or in any, that language's first.
 */
export async function listSavedReplies(db: Kysely<Database>, options: { locale?: Locale } = {}): Promise<SavedReply[]> {
  let query = db.selectFrom("support_saved_replies").selectAll();
  const { locale } = options;
  if (locale) query = query.where((eb) => eb.or([eb("locale", "=", locale), eb("locale", "is", null)]));
  const replies = (await query.execute()).map(toSavedReply);
  return replies.sort(
    (a, b) =>
      (locale ? Number(a.locale === null) - Number(b.locale === null) : 0) ||
      titleOrder.compare(a.title, b.title) ||
      a.id.localeCompare(b.id),
  );
}

export async function findSavedReply(db: Kysely<Database>, id: string): Promise<SavedReply | undefined> {
  const row = await db.selectFrom("support_saved_replies").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toSavedReply(row) : undefined;
}

export async function createSavedReply(
  db: Kysely<Database>,
  input: SavedReplyInput,
  by: SavedReplyActor & { staffId: string },
  now = new Date(),
): Promise<SavedReply> {
  const { staffId, ...audit } = by;
  const at = now.toISOString();
  const row = {
    id: crypto.randomUUID(),
    title: input.title,
    body: input.body,
    locale: input.locale,
    created_by: staffId,
    created_at: at,
    updated_at: at,
  };
  const reply = toSavedReply(row);
  await db.transaction().execute(async (trx) => {
    await trx.insertInto("support_saved_replies").values(row).execute();
    await recordChangeAudit(trx, {
      ...audit,
      action: "saved-reply-created",
      target: reply.title,
      detail: { id: reply.id, before: null, after: auditState(reply) },
      now,
    });
  });
  return reply;
}

/** The reply before and after, or undefined when there is none by that id; an unchanged reply writes nothing. */
export async function updateSavedReply(
  db: Kysely<Database>,
  id: string,
  input: SavedReplyInput,
  by: SavedReplyActor,
  now = new Date(),
): Promise<{ before: SavedReply; after: SavedReply; changed: boolean } | undefined> {
  return db.transaction().execute(async (trx) => {
    const before = await findSavedReply(trx, id);
    if (!before) return undefined;
    if (before.title === input.title && before.body === input.body && before.locale === input.locale)
      return { before, after: before, changed: false };
    const after: SavedReply = { ...before, ...input, updatedAt: now.toISOString() };
    await trx
      .updateTable("support_saved_replies")
      .set({ title: after.title, body: after.body, locale: after.locale, updated_at: after.updatedAt })
      .where("id", "=", id)
      .execute();
    await recordChangeAudit(trx, {
      ...by,
      action: "saved-reply-updated",
      target: after.title,
      detail: { id, before: auditState(before), after: auditState(after) },
      now,
    });
    return { before, after, changed: true };
  });
}

/** The reply deleted, or undefined when there was none by that id. */
export async function deleteSavedReply(
  db: Kysely<Database>,
  id: string,
  by: SavedReplyActor,
  now = new Date(),
): Promise<SavedReply | undefined> {
  return db.transaction().execute(async (trx) => {
    const before = await findSavedReply(trx, id);
    if (!before) return undefined;
    const deleted = await trx.deleteFrom("support_saved_replies").where("id", "=", id).executeTakeFirst();
    // Deleted meanwhile by someone else: theirs is the entry.
    if (Number(deleted.numDeletedRows) === 0) return undefined;
    await recordChangeAudit(trx, {
      ...by,
      action: "saved-reply-deleted",
      target: before.title,
      detail: { id, before: auditState(before), after: null },
      now,
    });
    return before;
  });
}

/**
 * The saved replies the inbox's message box offers for a conversation in `locale` (that language's first, then those
 * for any language), or all of them without one. For any signed-in staff member: the caller checks the session.
 */
export async function savedRepliesFor(locale?: string): Promise<SavedReplyChoice[]> {
  const replies = await pageDatabaseWork(() =>
    listSavedReplies(getDb().db, { locale: isLocale(locale) ? locale : undefined }),
  );
  return replies.map(({ id, title, body, locale: replyLocale }) => ({ id, title, body, locale: replyLocale }));
}
