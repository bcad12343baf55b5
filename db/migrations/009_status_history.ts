import { type Kysely, sql } from "kysely";
import type { DbDialect } from "../client";

// A status page that measures (docs/status.md): every status change with its time (uptime is computed from it),
// incidents with timed updates and the products they affect, and what the probes have seen so far.
export async function up(db: Kysely<unknown>, dialect: DbDialect) {
  const serialKey =
    dialect === "postgres" ? sql.raw("SERIAL PRIMARY KEY") : sql.raw("INTEGER PRIMARY KEY AUTOINCREMENT");
  await sql`CREATE TABLE status_changes (
    id ${serialKey},
    name TEXT NOT NULL,
    status TEXT NOT NULL,
    changed_at TEXT NOT NULL,
    source TEXT NOT NULL
  )`.execute(db);
  await sql`CREATE INDEX status_changes_by_name_time ON status_changes (name, changed_at)`.execute(db);
  await sql`ALTER TABLE incidents ADD COLUMN status TEXT NOT NULL DEFAULT 'investigating'`.execute(db);
  await sql`ALTER TABLE incidents ADD COLUMN products TEXT NOT NULL DEFAULT '[]'`.execute(db);
  await sql`ALTER TABLE incidents ADD COLUMN opened_by TEXT NOT NULL DEFAULT 'operator'`.execute(db);
  await sql`CREATE TABLE incident_updates (
    id ${serialKey},
    incident_id INTEGER NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
    status TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL
  )`.execute(db);
  await sql`CREATE INDEX incident_updates_by_incident ON incident_updates (incident_id, created_at)`.execute(db);
  await sql`CREATE TABLE status_probes (
    name TEXT PRIMARY KEY,
    failures INTEGER NOT NULL DEFAULT 0,
    successes INTEGER NOT NULL DEFAULT 0,
    checked_at TEXT,
    ok INTEGER,
    latency_ms INTEGER,
    detail TEXT,
    incident_id INTEGER,
    notified_at TEXT,
    notified_status TEXT,
    held_changes INTEGER NOT NULL DEFAULT 0
  )`.execute(db);
  // What an existing deployment knew: each product's status since its last change, and its incidents as first updates.
  await sql`INSERT INTO status_changes (name, status, changed_at, source) SELECT name, status, updated_at, 'import' FROM status_entries`.execute(
    db,
  );
  await sql`UPDATE incidents SET status = 'resolved' WHERE resolved_at IS NOT NULL`.execute(db);
  await sql`INSERT INTO incident_updates (incident_id, status, body, created_at) SELECT id, 'investigating', body, started_at FROM incidents`.execute(
    db,
  );
  await sql`INSERT INTO incident_updates (incident_id, status, body, created_at) SELECT id, 'resolved', 'This incident has been resolved.', resolved_at FROM incidents WHERE resolved_at IS NOT NULL`.execute(
    db,
  );
}
