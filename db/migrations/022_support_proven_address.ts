import { type Kysely, sql } from "kysely";

// Issue 42, "A proven address": when a conversation's address was proven (the visitor was signed in at /orders with
// it when the request was sent). Conversations opened before were never proven.
export async function up(db: Kysely<unknown>) {
  await sql`ALTER TABLE support_conversations ADD COLUMN visitor_email_proven_at TEXT`.execute(db);
}
