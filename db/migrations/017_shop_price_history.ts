import { type Kysely, sql } from "kysely";

// Every price the shop sync sees, one row per variant, price and UTC day (the day's first and last sighting), so a
// struck-through price is shown only with 30 days of records and the lowest price of those days (docs/shop.md).
export async function up(db: Kysely<unknown>) {
  await sql`CREATE TABLE shop_price_history (
    variant_id INTEGER NOT NULL,
    product_id INTEGER NOT NULL,
    price_cents INTEGER NOT NULL,
    currency TEXT NOT NULL,
    day TEXT NOT NULL,
    first_seen_at TEXT NOT NULL,
    last_seen_at TEXT NOT NULL,
    PRIMARY KEY (variant_id, day, price_cents)
  )`.execute(db);
  await sql`CREATE INDEX shop_price_history_seen ON shop_price_history (last_seen_at)`.execute(db);
}
