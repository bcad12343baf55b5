import { type Kysely, sql } from "kysely";
import type { DbDialect } from "../client";

// Issue 42, "Bounded costs": an index that serves the inbox's text search (`lower(body) LIKE '%…%'`).
// - SQLite: an FTS5 table with the trigram tokenizer holding each message's words and its conversation, filled by a
//   trigger on insert (and on a changed body). It only narrows the search down: the exact LIKE still decides, so a
//   row it keeps after its message is gone (or an old body) changes no result. Queries of fewer than 3 characters
//   cannot use trigrams and read as before.
// - PostgreSQL: pg_trgm GIN indexes on lower(body) and lower(visitor_email), which LIKE '%…%' uses as it stands.
//   pg_trgm ships with PostgreSQL (contrib) and is a trusted extension: the database's owner may create it.
export async function up(db: Kysely<unknown>, dialect: DbDialect) {
  if (dialect === "postgres") {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    await sql`CREATE INDEX support_conversation_messages_body_trgm ON support_conversation_messages
      USING gin (lower(body) gin_trgm_ops)`.execute(db);
    await sql`CREATE INDEX support_conversations_email_trgm ON support_conversations
      USING gin (lower(visitor_email) gin_trgm_ops)`.execute(db);
    return;
  }
  await sql`CREATE VIRTUAL TABLE support_message_search USING fts5(
    body, conversation_id UNINDEXED, tokenize = 'trigram'
  )`.execute(db);
  await sql`INSERT INTO support_message_search (body, conversation_id)
    SELECT body, conversation_id FROM support_conversation_messages WHERE author IN ('visitor', 'team')`.execute(db);
  await sql`CREATE TRIGGER support_message_search_insert AFTER INSERT ON support_conversation_messages
    WHEN new.author IN ('visitor', 'team')
    BEGIN INSERT INTO support_message_search (body, conversation_id) VALUES (new.body, new.conversation_id); END`.execute(
    db,
  );
  await sql`CREATE TRIGGER support_message_search_update AFTER UPDATE OF body ON support_conversation_messages
    WHEN new.author IN ('visitor', 'team')
    BEGIN INSERT INTO support_message_search (body, conversation_id) VALUES (new.body, new.conversation_id); END`.execute(
    db,
  );
}
