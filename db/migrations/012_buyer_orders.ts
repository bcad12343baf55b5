import { type Kysely, sql } from "kysely";

// The buyer's address (lower-cased) and the demo shop's delivered key on an order, so a buyer who proves that address
// sees every order of it (issue 29). The index serves "every order of this address, newest first".
export async function up(db: Kysely<unknown>) {
  await sql`ALTER TABLE orders ADD COLUMN buyer_email TEXT`.execute(db);
  await sql`ALTER TABLE orders ADD COLUMN delivered_key TEXT`.execute(db);
  await sql`CREATE INDEX orders_buyer_email ON orders (buyer_email, created_at)`.execute(db);
}
