import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>) {
  // The outbox: a request is stored here before the visitor gets a 202, then a worker delivers it to the chat channel.
  await sql`CREATE TABLE support_requests (
    id TEXT PRIMARY KEY,
    category TEXT NOT NULL,
    answers TEXT NOT NULL,
    created_at TEXT NOT NULL,
    delivery_status TEXT NOT NULL DEFAULT 'pending' CHECK (delivery_status IN ('pending', 'delivered', 'failed', 'no_channel')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    first_failed_at TEXT,
    last_error TEXT,
    delivered_at TEXT,
    claimed_by TEXT,
    claimed_until TEXT
  )`.execute(db);
  await sql`CREATE INDEX support_requests_due ON support_requests (delivery_status, next_attempt_at)`.execute(db);
  await sql`CREATE INDEX support_requests_created ON support_requests (created_at)`.execute(db);
}
