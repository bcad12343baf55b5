import { type Kysely, sql } from "kysely";

// One row per vouch page URL: the last good list survives failed refreshes (payload stays, last_error is set).
export async function up(db: Kysely<unknown>) {
  await sql`CREATE TABLE reviews_cache (
    source TEXT PRIMARY KEY,
    fetched_at TEXT,
    payload TEXT,
    etag TEXT,
    last_error TEXT,
    last_attempt_at TEXT
  )`.execute(db);
}
