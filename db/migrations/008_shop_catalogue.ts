import { type Kysely, sql } from "kysely";
import type { DbDialect } from "../client";

// The connected shop's catalogue: each sync's snapshot (the newest is served), the resyncs notifications asked for,
// and leases, so one instance of a cluster syncs at a time.
export async function up(db: Kysely<unknown>, dialect: DbDialect) {
  const serialKey =
    dialect === "postgres" ? sql.raw("SERIAL PRIMARY KEY") : sql.raw("INTEGER PRIMARY KEY AUTOINCREMENT");
  await sql`CREATE TABLE catalogue_snapshots (
    version ${serialKey},
    synced_at TEXT NOT NULL,
    payload TEXT NOT NULL
  )`.execute(db);
  await sql`CREATE TABLE catalogue_sync_requests (
    id ${serialKey},
    kind TEXT NOT NULL CHECK (kind IN ('product', 'feedback', 'full')),
    product_id INTEGER,
    requested_at TEXT NOT NULL
  )`.execute(db);
  await sql`CREATE TABLE leases (
    name TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    expires_at TEXT NOT NULL
  )`.execute(db);
}
