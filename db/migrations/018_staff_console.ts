import { type Kysely, sql } from "kysely";
import type { DbDialect } from "../client";

// The console's door (issue 34): staff, their passkeys, one-time setup links and sessions (only hashes of the secrets),
// the WebAuthn challenges any instance can check, and the audit log nothing edits.
export async function up(db: Kysely<unknown>, dialect: DbDialect) {
  // A WebAuthn signature counter runs to 2^32 - 1: past PostgreSQL's INTEGER (SQLite's holds 64 bits). Not BIGINT,
  // which pg reads as text: a double holds every counter exactly and reads as a number on both databases.
  const counter = dialect === "postgres" ? sql.raw("DOUBLE PRECISION") : sql.raw("INTEGER");
  const serial = dialect === "postgres" ? sql.raw("SERIAL PRIMARY KEY") : sql.raw("INTEGER PRIMARY KEY AUTOINCREMENT");
  await sql`CREATE TABLE staff (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL UNIQUE,
    role TEXT NOT NULL,
    webauthn_user_id TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
  )`.execute(db);
  await sql`CREATE TABLE staff_passkeys (
    id TEXT PRIMARY KEY,
    staff_id TEXT NOT NULL,
    public_key TEXT NOT NULL,
    counter ${counter} NOT NULL,
    transports TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_used_at TEXT
  )`.execute(db);
  await sql`CREATE INDEX staff_passkeys_staff ON staff_passkeys (staff_id)`.execute(db);
  await sql`CREATE TABLE staff_setup_links (
    token_hash TEXT PRIMARY KEY,
    staff_id TEXT NOT NULL,
    created_by TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT
  )`.execute(db);
  await sql`CREATE TABLE staff_sessions (
    id_hash TEXT PRIMARY KEY,
    staff_id TEXT NOT NULL,
    began_with TEXT NOT NULL,
    created_at TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    reminded_at TEXT
  )`.execute(db);
  await sql`CREATE INDEX staff_sessions_staff ON staff_sessions (staff_id)`.execute(db);
  await sql`CREATE TABLE staff_challenges (
    challenge_hash TEXT PRIMARY KEY,
    purpose TEXT NOT NULL,
    session_hash TEXT,
    expires_at TEXT NOT NULL
  )`.execute(db);
  await sql`CREATE INDEX staff_challenges_expiry ON staff_challenges (expires_at)`.execute(db);
  await sql`CREATE TABLE audit_log (
    id ${serial},
    at TEXT NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    target TEXT,
    detail TEXT,
    client_address TEXT,
    user_agent TEXT,
    session_began_with TEXT
  )`.execute(db);
  await sql`CREATE INDEX audit_log_at ON audit_log (at)`.execute(db);
  await sql`CREATE INDEX audit_log_actor ON audit_log (actor, at)`.execute(db);
  // The dashboard's reads: paid orders by when they were paid, conversations by when they opened and what waits, and
  // each conversation's team replies.
  await sql`CREATE INDEX orders_paid ON orders (status, completed_at)`.execute(db);
  await sql`CREATE INDEX support_conversations_created ON support_conversations (created_at)`.execute(db);
  await sql`CREATE INDEX support_conversations_waiting ON support_conversations (status, last_message_at)`.execute(db);
  await sql`CREATE INDEX support_conversation_messages_author ON support_conversation_messages (conversation_id, author, created_at)`.execute(
    db,
  );
}
