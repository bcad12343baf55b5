import { type Kysely, sql } from "kysely";

// The mail outbox: a mail is stored here before its caller goes on, then a worker sends it through SMTP_URL.
// Without SMTP_URL it is kept (status `kept`) and read from the database instead.
export async function up(db: Kysely<unknown>) {
  await sql`CREATE TABLE mail_outbox (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    from_address TEXT NOT NULL,
    to_address TEXT NOT NULL,
    subject TEXT NOT NULL,
    text_body TEXT NOT NULL,
    html_body TEXT,
    message_id TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'expired', 'kept')),
    created_at TEXT NOT NULL,
    send_by TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT NOT NULL,
    first_failed_at TEXT,
    last_error TEXT,
    sent_at TEXT,
    claimed_by TEXT,
    claimed_until TEXT
  )`.execute(db);
  await sql`CREATE INDEX mail_outbox_due ON mail_outbox (status, next_attempt_at)`.execute(db);
  await sql`CREATE INDEX mail_outbox_created ON mail_outbox (created_at)`.execute(db);
}
