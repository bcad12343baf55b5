import { type Kysely, sql } from "kysely";

export async function up(db: Kysely<unknown>) {
  await sql`CREATE TABLE orders (
    id TEXT PRIMARY KEY,
    provider TEXT NOT NULL,
    provider_invoice_id TEXT,
    product_id INTEGER NOT NULL,
    variant_id INTEGER NOT NULL,
    quantity INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 100),
    amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'completed', 'failed', 'refunded')),
    created_at TEXT NOT NULL,
    completed_at TEXT,
    raw_event_id TEXT
  )`.execute(db);
  // A provider never reuses an invoice id; NULLs (a shop that returned no id) do not collide.
  await sql`CREATE UNIQUE INDEX orders_provider_invoice ON orders (provider, provider_invoice_id)`.execute(db);
  await sql`CREATE TABLE captcha_used (
    signature TEXT PRIMARY KEY,
    expires_at TEXT NOT NULL
  )`.execute(db);
  await sql`CREATE INDEX captcha_used_expires_at ON captcha_used (expires_at)`.execute(db);
  await sql`CREATE TABLE shop_notifications (
    idempotency_key TEXT PRIMARY KEY,
    invoice_id TEXT,
    event TEXT NOT NULL,
    received_at TEXT NOT NULL,
    outcome TEXT NOT NULL,
    order_id TEXT
  )`.execute(db);
  await sql`CREATE INDEX shop_notifications_invoice ON shop_notifications (invoice_id)`.execute(db);
}
