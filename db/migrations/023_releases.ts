import { type Kysely, sql } from "kysely";
import type { DbDialect } from "../client";

// Issue 45, "Releases that reach the buyer": a product's releases (draft, published, yanked), their files per platform
// with the checksums we computed while storing them, each counted download, and which seed imports have run (once).
export async function up(db: Kysely<unknown>, dialect: DbDialect) {
  // A file of an installer can pass 2 GiB, past PostgreSQL's INTEGER.
  const bytes = dialect === "postgres" ? sql.raw("BIGINT") : sql.raw("INTEGER");
  await sql`CREATE TABLE releases (
    id TEXT PRIMARY KEY,
    product_id INTEGER NOT NULL,
    version TEXT NOT NULL,
    channel TEXT NOT NULL CHECK (channel IN ('stable', 'beta')),
    state TEXT NOT NULL CHECK (state IN ('draft', 'published', 'yanked')),
    access TEXT NOT NULL DEFAULT 'buyers' CHECK (access IN ('buyers', 'anyone')),
    notes TEXT NOT NULL DEFAULT '{}',
    requirements TEXT NOT NULL DEFAULT '[]',
    created_at TEXT NOT NULL,
    published_at TEXT,
    yanked_at TEXT,
    UNIQUE (product_id, version)
  )`.execute(db);
  await sql`CREATE INDEX releases_product ON releases (product_id, state, channel)`.execute(db);
  await sql`CREATE TABLE release_files (
    id TEXT PRIMARY KEY,
    release_id TEXT NOT NULL REFERENCES releases (id),
    platform TEXT NOT NULL,
    name TEXT NOT NULL,
    size_bytes ${bytes} NOT NULL,
    sha256 TEXT NOT NULL,
    sha512 TEXT NOT NULL,
    signature TEXT,
    storage_key TEXT NOT NULL,
    created_at TEXT NOT NULL,
    UNIQUE (release_id, name)
  )`.execute(db);
  await sql`CREATE TABLE release_downloads (
    id TEXT PRIMARY KEY,
    file_id TEXT NOT NULL,
    release_id TEXT NOT NULL,
    order_id TEXT,
    day TEXT NOT NULL,
    at TEXT NOT NULL
  )`.execute(db);
  await sql`CREATE INDEX release_downloads_order ON release_downloads (order_id, at)`.execute(db);
  await sql`CREATE INDEX release_downloads_release ON release_downloads (release_id, day)`.execute(db);
  await sql`CREATE TABLE release_imports (
    name TEXT PRIMARY KEY,
    imported_at TEXT NOT NULL
  )`.execute(db);
}
