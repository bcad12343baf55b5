// How the owner's edits live (issue 44, ADR 034, docs/content.md): the files in content/ are the shipped defaults;
// each document's revisions (who, when, the value, the revision it was based on, the hash of the file default it
// covered) and the team's draft are in the database. What the shop shows is the files with each document's latest
// revision on top (a revision without a value: the file's text). A publish is checked against the whole shop's
// content with the boot's schemas and cross-file checks, and is one transaction: the revision, the content version
// and its audit entry. Announcing it to the other instances is content-live.server.ts's.
import crypto from "node:crypto";
import { isDeepStrictEqual } from "node:util";
import type { Kysely, Selectable, Transaction } from "kysely";
import { type AuditBase, auditedChange } from "~/features/audit/audit-log.server";
import { DEFAULT_LOCALE } from "~/features/i18n/locales";
import type { ContentRevisionsTable, Database } from "../../../db/schema";
import { ContentError } from "./content";
import { buildContent, type ContentOverrides, contentDir, readContentFile } from "./content.server";
import { type ContentDocumentId, documentPath, isMarkdown } from "./content-documents";
import { overlayTranslation } from "./localized-content";

/** A document's text may be this long (UTF-8 bytes): ten times the largest shipped file. */
export const MAX_DOCUMENT_BYTES = 256 * 1024;

export type Revision = Selectable<ContentRevisionsTable>;

export interface Draft {
  value: string;
  baseRevision: number | null;
  stamp: number;
  updatedBy: string;
  updatedAt: string;
}

/** One thing wrong with what would be published: the file (document), the field and what was expected. */
export interface ContentProblem {
  document: string;
  field: string;
  expected: string;
}

/** The publish (or the draft) was refused: nothing was written and the shop shows what it showed. */
export class ContentRefusedError extends Error {
  constructor(readonly problems: ContentProblem[]) {
    super(problems.map((p) => `${p.document}: ${p.field ? `${p.field}: ` : ""}${p.expected}`).join("\n"));
    this.name = "ContentRefusedError";
  }
}

/** The form was based on a revision (or a draft) that is no longer the current one: nothing was written. */
export class ContentConflictError extends Error {
  constructor(
    readonly published: Revision | null,
    readonly draft: Draft | null,
  ) {
    super("The document changed since this form was opened.");
    this.name = "ContentConflictError";
  }
}

/** Who does it, and from where: the audit entry's base. */
export type Editor = AuditBase;

const ABSENT = "absent";

export function hashText(text: string | undefined): string {
  return text === undefined ? ABSENT : crypto.createHash("sha256").update(text).digest("hex");
}

/** The document's file default as shipped (undefined: no such file), read from the content directory. */
export function fileDefault(id: ContentDocumentId, dir = contentDir()): string | undefined {
  return readContentFile(dir, documentPath(id));
}

function whereDocument(id: ContentDocumentId) {
  return (qb: Kysely<Database> | Transaction<Database>) =>
    qb
      .selectFrom("content_revisions")
      .where("kind", "=", id.kind)
      .where("locale", "=", id.locale)
      .where("doc_key", "=", id.key);
}

/** The document's latest revision: what the shop shows (its value, or the file's where it has none). */
export async function latestRevision(db: Kysely<Database>, id: ContentDocumentId): Promise<Revision | null> {
  const row = await whereDocument(id)(db).selectAll().orderBy("id", "desc").limit(1).executeTakeFirst();
  return row ?? null;
}

export async function documentHistory(db: Kysely<Database>, id: ContentDocumentId): Promise<Revision[]> {
  return whereDocument(id)(db).selectAll().orderBy("id", "desc").execute();
}

export async function readDraft(db: Kysely<Database>, id: ContentDocumentId): Promise<Draft | null> {
  const row = await db
    .selectFrom("content_drafts")
    .selectAll()
    .where("kind", "=", id.kind)
    .where("locale", "=", id.locale)
    .where("doc_key", "=", id.key)
    .executeTakeFirst();
  return row
    ? {
        value: row.value,
        baseRevision: row.base_revision,
        stamp: row.stamp,
        updatedBy: row.updated_by,
        updatedAt: row.updated_at,
      }
    : null;
}

export async function contentVersion(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom("content_version").select("version").where("id", "=", 1).executeTakeFirst();
  return row?.version ?? 0;
}

/** Each document's latest revision (what it shows now), as `r`: the rows to select from. */
export function latestRevisions(db: Kysely<Database>) {
  return db.selectFrom("content_revisions as r").where(({ eb, selectFrom }) =>
    eb(
      "r.id",
      "=",
      selectFrom("content_revisions as later")
        .select(({ fn }) => fn.max("later.id").as("id"))
        .whereRef("later.kind", "=", "r.kind")
        .whereRef("later.locale", "=", "r.locale")
        .whereRef("later.doc_key", "=", "r.doc_key"),
    ),
  );
}

/** Every document's latest revision that has a value, by file path: what the shop lays over its files. */
export async function publishedOverrides(db: Kysely<Database>): Promise<Map<string, string>> {
  const rows = await latestRevisions(db).select(["r.kind", "r.locale", "r.doc_key", "r.value"]).execute();
  const overrides = new Map<string, string>();
  for (const row of rows)
    if (row.value !== null)
      overrides.set(
        documentPath({ kind: row.kind, locale: row.locale, key: row.doc_key } as ContentDocumentId),
        row.value,
      );
  return overrides;
}

/** Every published revision whose file default changed since (a deploy brought a new file beneath it). */
export async function driftedOverrides(db: Kysely<Database>, dir = contentDir()) {
  const rows = await latestRevisions(db).selectAll().where("r.value", "is not", null).orderBy("r.id").execute();
  return rows.filter((row) => {
    const id = { kind: row.kind, locale: row.locale, key: row.doc_key } as ContentDocumentId;
    return hashText(fileDefault(id, dir)) !== row.file_hash;
  });
}

function problemsOf(error: ContentError): ContentProblem[] {
  return error.message.split("\n").map((line) => {
    const match = /^(content\/[^:]+): (?:([^:]*\S): )?(.*)$/.exec(line);
    if (!match) return { document: "content", field: "", expected: line };
    return { document: match[1] ?? "content", field: match[2] ?? "", expected: match[3] ?? line };
  });
}

/** What is refused before anything else is looked at: too long, broken characters, not JSON, a price or id changed. */
export function checkDocumentText(id: ContentDocumentId, value: string, dir = contentDir()): void {
  const document = `content/${documentPath(id)}`;
  const refuse = (expected: string, field = ""): never => {
    throw new ContentRefusedError([{ document, field, expected }]);
  };
  if (!value.isWellFormed()) refuse("expected text without broken characters");
  if (Buffer.byteLength(value, "utf8") > MAX_DOCUMENT_BYTES)
    refuse(`expected at most ${MAX_DOCUMENT_BYTES / 1024} KB of text`);
  if (isMarkdown(id)) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    refuse(`expected valid JSON (${(error as Error).message})`);
  }
  // Prices, ids, variant ids and everything the checkout charges stay in products.json: only its copy changes here.
  if (id.kind === "products" && id.locale === DEFAULT_LOCALE) {
    const shipped = fileDefault(id, dir);
    const base = shipped === undefined ? undefined : JSON.parse(shipped);
    const copyOnly = overlayTranslation(base, parsed, { missing: [], ignored: [] });
    if (!isDeepStrictEqual(copyOnly, parsed))
      refuse("expected the same products, prices, ids and variant ids as the file: only their copy can change here");
  }
}

/** The whole shop's content with `overrides`, checked as at boot; a ContentRefusedError lists what is wrong. */
export function validateOverrides(overrides: ContentOverrides, dir = contentDir()) {
  try {
    return buildContent(overrides, dir);
  } catch (error) {
    if (error instanceof ContentError) throw new ContentRefusedError(problemsOf(error));
    throw error;
  }
}

function sameBase(expected: number | null, actual: Revision | null): boolean {
  return (actual?.id ?? null) === expected;
}

/**
 * Keeps `value` as the document's draft, based on revision `base` (null: the file). Refused with a conflict when the
 * document was published since `base`, or the draft saved by someone else since `stamp` (null: the form had none).
 */
export async function saveDraft(
  db: Kysely<Database>,
  id: ContentDocumentId,
  input: { value: string; base: number | null; stamp: number | null },
  editor: Editor,
  now = new Date(),
): Promise<Draft> {
  checkDocumentText(id, input.value);
  return auditedChange(
    db,
    async (trx) => {
      const published = await latestRevision(trx, id);
      const draft = await readDraft(trx, id);
      if (!sameBase(input.base, published) || (draft?.stamp ?? null) !== input.stamp)
        throw new ContentConflictError(published, draft);
      const next: Draft = {
        value: input.value,
        baseRevision: input.base,
        stamp: (draft?.stamp ?? 0) + 1,
        updatedBy: editor.actor,
        updatedAt: now.toISOString(),
      };
      const row = {
        value: next.value,
        base_revision: next.baseRevision,
        stamp: next.stamp,
        updated_by: next.updatedBy,
        updated_at: next.updatedAt,
      };
      if (draft)
        await trx
          .updateTable("content_drafts")
          .set(row)
          .where("kind", "=", id.kind)
          .where("locale", "=", id.locale)
          .where("doc_key", "=", id.key)
          .where("stamp", "=", draft.stamp)
          .execute();
      else
        await trx
          .insertInto("content_drafts")
          .values({ kind: id.kind, locale: id.locale, doc_key: id.key, ...row })
          .execute();
      return { next, before: draft };
    },
    ({ next, before }) => ({
      ...editor,
      action: "content-draft-saved",
      target: documentPath(id),
      detail: { before: before?.value ?? null, after: next.value, base: next.baseRevision },
    }),
  ).then((result) => result.next);
}

/** Throws away the document's draft (the form's stamp must still be the draft's). */
export async function discardDraft(db: Kysely<Database>, id: ContentDocumentId, stamp: number) {
  await db
    .deleteFrom("content_drafts")
    .where("kind", "=", id.kind)
    .where("locale", "=", id.locale)
    .where("doc_key", "=", id.key)
    .where("stamp", "=", stamp)
    .execute();
}

export interface Published {
  revision: Revision;
  version: number;
  overrides: Map<string, string>;
  built: ReturnType<typeof buildContent>;
}

/**
 * Writes a new revision of the document (`value` null: back to the file's text) if the document's latest revision is
 * still `base`, after checking the whole shop's content with it, all in one transaction with the content version and
 * the audit entry: a refusal or a conflict writes nothing. The draft, if any, is gone once published.
 */
async function writeRevision(
  db: Kysely<Database>,
  id: ContentDocumentId,
  input: { value: string | null; base: number | null; action: Revision["action"]; restoredFrom?: number },
  editor: Editor,
  now: Date,
): Promise<Published> {
  if (input.value !== null) checkDocumentText(id, input.value);
  const path = documentPath(id);
  return auditedChange(
    db,
    async (trx) => {
      // The version row first: every publish takes its lock, so two publishes never check against the same state.
      await trx
        .updateTable("content_version")
        .set((eb) => ({ version: eb("version", "+", 1), updated_at: now.toISOString() }))
        .where("id", "=", 1)
        .execute();
      const published = await latestRevision(trx, id);
      if (!sameBase(input.base, published)) throw new ContentConflictError(published, await readDraft(trx, id));
      const overrides = await publishedOverrides(trx);
      if (input.value === null) overrides.delete(path);
      else overrides.set(path, input.value);
      const built = validateOverrides(overrides);
      const revision = await trx
        .insertInto("content_revisions")
        .values({
          kind: id.kind,
          locale: id.locale,
          doc_key: id.key,
          value: input.value,
          base_revision: input.base,
          file_hash: hashText(fileDefault(id)),
          action: input.action,
          author: editor.actor,
          created_at: now.toISOString(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      await trx
        .deleteFrom("content_drafts")
        .where("kind", "=", id.kind)
        .where("locale", "=", id.locale)
        .where("doc_key", "=", id.key)
        .execute();
      const version = await contentVersion(trx);
      return { revision, version, overrides, built, before: published?.value ?? null };
    },
    ({ revision, before }) => ({
      ...editor,
      action:
        input.action === "publish"
          ? "content-published"
          : input.action === "restore"
            ? "content-restored"
            : "content-returned-to-file",
      target: path,
      detail: {
        before,
        after: revision.value,
        revision: revision.id,
        base: input.base,
        ...(input.restoredFrom !== undefined ? { restoredFrom: input.restoredFrom } : {}),
      },
    }),
  );
}

/** Publishes `value` as the document's new revision, based on `base` (the revision the form showed). */
export function publishDocument(
  db: Kysely<Database>,
  id: ContentDocumentId,
  input: { value: string; base: number | null },
  editor: Editor,
  now = new Date(),
) {
  return writeRevision(db, id, { ...input, action: "publish" }, editor, now);
}

/** Publishes an earlier revision's text again, as a new revision. */
export async function restoreRevision(
  db: Kysely<Database>,
  id: ContentDocumentId,
  input: { revision: number; base: number | null },
  editor: Editor,
  now = new Date(),
) {
  const old = await whereDocument(id)(db).selectAll().where("id", "=", input.revision).executeTakeFirst();
  if (!old)
    throw new ContentRefusedError([
      { document: `content/${documentPath(id)}`, field: "", expected: "expected a revision of this document" },
    ]);
  return writeRevision(
    db,
    id,
    { value: old.value, base: input.base, action: "restore", restoredFrom: old.id },
    editor,
    now,
  );
}

/** "Back to the file's text": the override goes, as a revision of its own. */
export function returnToFile(
  db: Kysely<Database>,
  id: ContentDocumentId,
  input: { base: number | null },
  editor: Editor,
  now = new Date(),
) {
  return writeRevision(db, id, { value: null, base: input.base, action: "file" }, editor, now);
}
