import { type Kysely, sql } from "kysely";
import type { DbDialect } from "../client";

// Issue 44, "The owner edits the shop": the files in content/ stay the shipped defaults; what the owner published on
// top of them is kept here. A document is (kind, locale, doc_key), one content file in the files' own format; its
// revisions are every publish, restore and return to the file (value NULL: the file's text again), the latest one
// being what the shop shows. A draft is per document, shared by the team, with the revision it was based on. The
// content version grows with every publish, in the publish's transaction: every instance compares it with the one
// it has loaded.
export async function up(db: Kysely<unknown>, dialect: DbDialect) {
  const serial = dialect === "postgres" ? sql.raw("SERIAL PRIMARY KEY") : sql.raw("INTEGER PRIMARY KEY AUTOINCREMENT");
  await sql`CREATE TABLE content_revisions (
    id ${serial},
    kind TEXT NOT NULL,
    locale TEXT NOT NULL,
    doc_key TEXT NOT NULL,
    value TEXT,
    base_revision INTEGER,
    file_hash TEXT NOT NULL,
    action TEXT NOT NULL,
    author TEXT NOT NULL,
    created_at TEXT NOT NULL
  )`.execute(db);
  await sql`CREATE INDEX content_revisions_document ON content_revisions (kind, locale, doc_key, id)`.execute(db);
  await sql`CREATE TABLE content_drafts (
    kind TEXT NOT NULL,
    locale TEXT NOT NULL,
    doc_key TEXT NOT NULL,
    value TEXT NOT NULL,
    base_revision INTEGER,
    stamp INTEGER NOT NULL,
    updated_by TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (kind, locale, doc_key)
  )`.execute(db);
  await sql`CREATE TABLE content_version (
    id INTEGER PRIMARY KEY,
    version INTEGER NOT NULL,
    updated_at TEXT NOT NULL
  )`.execute(db);
  await sql`INSERT INTO content_version (id, version, updated_at) VALUES (1, 0, ${new Date(0).toISOString()})`.execute(
    db,
  );
}
