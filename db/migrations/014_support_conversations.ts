import { type Kysely, sql } from "kysely";

// Support that answers back (issue 30): each request becomes a conversation the visitor reads at
// /support/conversation. Its keys are random tokens stored only as hashes: a browser's (the cookie) and a link's
// (the private link, in the closing message and in mails), any number of each. Messages are numbered per
// conversation (`seq`, the event id a reconnecting stream replays from); a visitor's message waits here for its post
// into the Discord thread like a request does in support_requests.
export async function up(db: Kysely<unknown>) {
  await sql`CREATE TABLE support_conversations (
    id TEXT PRIMARY KEY,
    request_id TEXT NOT NULL UNIQUE,
    category TEXT NOT NULL,
    locale TEXT NOT NULL,
    visitor_email TEXT,
    status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
    channel_id TEXT,
    thread_id TEXT,
    last_relayed_message_id TEXT,
    next_read_at TEXT,
    visitor_active_at TEXT NOT NULL,
    visitor_seen_seq INTEGER NOT NULL DEFAULT 0,
    last_message_at TEXT NOT NULL,
    created_at TEXT NOT NULL,
    resolved_at TEXT
  )`.execute(db);
  await sql`CREATE INDEX support_conversations_reading ON support_conversations (status, next_read_at)`.execute(db);
  await sql`CREATE INDEX support_conversations_email ON support_conversations (visitor_email)`.execute(db);
  await sql`CREATE TABLE support_conversation_keys (
    key_hash TEXT PRIMARY KEY,
    conversation_id TEXT NOT NULL,
    purpose TEXT NOT NULL CHECK (purpose IN ('browser', 'link')),
    created_at TEXT NOT NULL
  )`.execute(db);
  await sql`CREATE INDEX support_conversation_keys_conversation ON support_conversation_keys (conversation_id)`.execute(
    db,
  );
  await sql`CREATE TABLE support_conversation_messages (
    conversation_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    id TEXT NOT NULL UNIQUE,
    author TEXT NOT NULL CHECK (author IN ('visitor', 'team', 'system')),
    author_name TEXT,
    body TEXT NOT NULL,
    discord_message_id TEXT UNIQUE,
    created_at TEXT NOT NULL,
    delivery_status TEXT CHECK (delivery_status IN ('pending', 'delivered', 'failed', 'no_channel')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT,
    first_failed_at TEXT,
    last_error TEXT,
    delivered_at TEXT,
    claimed_by TEXT,
    claimed_until TEXT,
    emailed_at TEXT,
    PRIMARY KEY (conversation_id, seq)
  )`.execute(db);
  await sql`CREATE INDEX support_conversation_messages_due ON support_conversation_messages (delivery_status, next_attempt_at)`.execute(
    db,
  );
}
