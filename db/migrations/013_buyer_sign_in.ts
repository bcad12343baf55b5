import { type Kysely, sql } from "kysely";

// The buyer's sign-in at /orders: one-time codes (and their links) and sessions, each stored only as a hash.
export async function up(db: Kysely<unknown>) {
  await sql`CREATE TABLE buyer_sign_in_codes (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL,
    code_hash TEXT NOT NULL,
    link_hash TEXT NOT NULL UNIQUE,
    locale TEXT NOT NULL,
    mail_id TEXT,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    tries_left INTEGER NOT NULL,
    used_at TEXT
  )`.execute(db);
  await sql`CREATE INDEX buyer_sign_in_codes_email ON buyer_sign_in_codes (email, created_at)`.execute(db);
  await sql`CREATE TABLE buyer_sessions (
    id_hash TEXT PRIMARY KEY,
    email TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL
  )`.execute(db);
  await sql`CREATE INDEX buyer_sessions_email ON buyer_sessions (email)`.execute(db);
}
