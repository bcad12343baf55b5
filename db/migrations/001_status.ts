import { type Kysely, sql } from "kysely";
import type { DbDialect } from "../client";

export async function up(db: Kysely<unknown>, dialect: DbDialect) {
  // The one place the dialects differ: how an integer key counts itself.
  const serialKey =
    dialect === "postgres" ? sql.raw("SERIAL PRIMARY KEY") : sql.raw("INTEGER PRIMARY KEY AUTOINCREMENT");
  await sql`CREATE TABLE status_entries (
    id ${serialKey},
    name TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL,
    uptime TEXT NOT NULL,
    sort_order INTEGER NOT NULL DEFAULT 0,
    updated_at TEXT NOT NULL
  )`.execute(db);
  await sql`CREATE TABLE incidents (
    id ${serialKey},
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    started_at TEXT NOT NULL,
    resolved_at TEXT
  )`.execute(db);
}
