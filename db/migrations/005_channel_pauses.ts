import { type Kysely, sql } from "kysely";

// How long a chat channel asked us to wait (its 429's retry_after), shared by every instance when there is no Redis.
export async function up(db: Kysely<unknown>) {
  await sql`CREATE TABLE channel_pauses (
    channel TEXT PRIMARY KEY,
    paused_until TEXT NOT NULL
  )`.execute(db);
}
