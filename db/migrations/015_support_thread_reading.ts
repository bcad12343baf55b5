import { type Kysely, sql } from "kysely";

// Reading the team's replies from Discord (issue 30, docs/decisions/025): when each thread was last read, so one whose
// visitor is on the page is read again within seconds whatever its slower schedule said, and when its archived/locked
// state was last checked. The reader's verdict on the bot (token refused, channel out of reach, Message Content intent
// off) is kept in the database, so every instance's pages stop promising live replies, not only the reader's.
export async function up(db: Kysely<unknown>) {
  await sql`ALTER TABLE support_conversations ADD COLUMN last_read_at TEXT`.execute(db);
  await sql`ALTER TABLE support_conversations ADD COLUMN state_checked_at TEXT`.execute(db);
  await sql`CREATE TABLE support_relay_status (
    name TEXT PRIMARY KEY,
    blocked_reason TEXT,
    updated_at TEXT NOT NULL
  )`.execute(db);
}
