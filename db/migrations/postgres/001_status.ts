import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>) {
  await sql`CREATE TABLE status_entries (
    id SERIAL PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL,
    uptime TEXT NOT NULL,
    sort_order INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT NOT NULL
  )`.execute(db);
  await sql`CREATE TABLE incidents (
    id SERIAL PRIMARY KEY,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    started_at TEXT NOT NULL,
    resolved_at TEXT
  )`.execute(db);
}
