import { type Kysely, sql } from "kysely";

// The buyer's address on an order (lower-cased, for /orders) and the demo checkout's delivered key.
export async function up(db: Kysely<unknown>) {
  await sql`ALTER TABLE orders ADD COLUMN email TEXT`.execute(db);
  await sql`ALTER TABLE orders ADD COLUMN demo_key TEXT`.execute(db);
  await sql`CREATE INDEX orders_email ON orders (email, created_at)`.execute(db);
}
