import { type Kysely, sql } from "kysely";

// Issue 42, "No secret in the log": an order look-up's target was the text searched, and that text can be a delivered
// key. New entries carry its kind and a keyed hash (lookupTarget in app/features/audit/audit-log.server.ts); the key
// lives outside the database, so the entries already written keep their kind only (ADR 029).
export async function up(db: Kysely<unknown>) {
  await sql`
    UPDATE audit_log
    SET target = CASE WHEN target LIKE '%@%' THEN 'email:not-kept' ELSE 'key:not-kept' END
    WHERE action = 'orders-looked-up' AND target IS NOT NULL
  `.execute(db);
}
