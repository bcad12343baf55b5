import { type Kysely, sql } from "kysely";

// The console's support inbox (issue 35): whose turn it is and since when (kept on the conversation, so each list is
// one index range at 10,000 conversations), who it is assigned to, where a team message was written, the team's
// internal notes (never in the visitor's tables), what the console still has to tell the Discord thread (an outbox),
// and the saved replies agents insert.
export async function up(db: Kysely<unknown>) {
  await sql`ALTER TABLE support_conversations ADD COLUMN waiting_on TEXT NOT NULL DEFAULT 'us'`.execute(db);
  await sql`ALTER TABLE support_conversations ADD COLUMN waiting_since TEXT`.execute(db);
  await sql`ALTER TABLE support_conversations ADD COLUMN first_team_reply_at TEXT`.execute(db);
  await sql`ALTER TABLE support_conversations ADD COLUMN assigned_staff_id TEXT`.execute(db);
  await sql`ALTER TABLE support_conversation_messages ADD COLUMN source TEXT`.execute(db);
  await sql`ALTER TABLE support_conversation_messages ADD COLUMN staff_id TEXT`.execute(db);

  // What the stored conversations say: the team's turn unless its reply is the newest, since the first visitor
  // message after that reply (or since the request); the visitor's turn since the team's last reply.
  await sql`UPDATE support_conversation_messages SET source = 'discord' WHERE author = 'team' AND discord_message_id IS NOT NULL`.execute(
    db,
  );
  await sql`UPDATE support_conversation_messages SET source = 'cli' WHERE author = 'team' AND discord_message_id IS NULL`.execute(
    db,
  );
  await sql`UPDATE support_conversations SET
    first_team_reply_at = (SELECT MIN(m.created_at) FROM support_conversation_messages m
      WHERE m.conversation_id = support_conversations.id AND m.author = 'team'),
    waiting_on = CASE WHEN (SELECT m.author FROM support_conversation_messages m
      WHERE m.conversation_id = support_conversations.id AND m.author IN ('visitor', 'team')
      ORDER BY m.seq DESC LIMIT 1) = 'team' THEN 'visitor' ELSE 'us' END`.execute(db);
  await sql`UPDATE support_conversations SET waiting_since = CASE WHEN waiting_on = 'visitor'
    THEN (SELECT MAX(m.created_at) FROM support_conversation_messages m
      WHERE m.conversation_id = support_conversations.id AND m.author = 'team')
    ELSE COALESCE((SELECT MIN(m.created_at) FROM support_conversation_messages m
      WHERE m.conversation_id = support_conversations.id AND m.author = 'visitor'
        AND m.seq > COALESCE((SELECT MAX(t.seq) FROM support_conversation_messages t
          WHERE t.conversation_id = support_conversations.id AND t.author = 'team'), 0)), created_at) END`.execute(db);

  await sql`CREATE INDEX support_conversations_inbox ON support_conversations (status, waiting_on, waiting_since)`.execute(
    db,
  );
  await sql`CREATE INDEX support_conversations_assigned ON support_conversations (assigned_staff_id, status, waiting_on)`.execute(
    db,
  );
  await sql`CREATE INDEX support_conversations_resolved ON support_conversations (status, resolved_at)`.execute(db);
  // The dashboard's first replies of a period: read from the index alone.
  await sql`CREATE INDEX support_conversations_first_reply ON support_conversations (created_at, first_team_reply_at)`.execute(
    db,
  );

  await sql`CREATE TABLE support_conversation_notes (
    id TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL,
    author_name TEXT NOT NULL,
    staff_id TEXT,
    source TEXT NOT NULL CHECK (source IN ('console', 'discord')),
    body TEXT NOT NULL,
    discord_message_id TEXT UNIQUE,
    created_at TEXT NOT NULL
  )`.execute(db);
  await sql`CREATE INDEX support_conversation_notes_conversation ON support_conversation_notes (conversation_id, created_at)`.execute(
    db,
  );

  await sql`CREATE TABLE support_thread_posts (
    id TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('reply', 'note', 'archive', 'unarchive')),
    author_name TEXT,
    body TEXT,
    status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT,
    first_failed_at TEXT,
    last_error TEXT,
    delivered_at TEXT,
    discord_message_id TEXT,
    claimed_by TEXT,
    claimed_until TEXT,
    created_at TEXT NOT NULL
  )`.execute(db);
  await sql`CREATE INDEX support_thread_posts_due ON support_thread_posts (status, next_attempt_at)`.execute(db);
  await sql`CREATE INDEX support_thread_posts_conversation ON support_thread_posts (conversation_id, created_at)`.execute(
    db,
  );

  await sql`CREATE TABLE support_saved_replies (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    locale TEXT,
    created_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  )`.execute(db);
}
