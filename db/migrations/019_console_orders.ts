import { type Kysely, sql } from "kysely";

// The console's order look-up (issue 35): an order found by the shop's invoice id or the key it delivered, and the
// mail sent to a buyer's address (in any case the address was written in), each by an index at 100,000 orders.
export async function up(db: Kysely<unknown>) {
  await sql`CREATE INDEX orders_invoice ON orders (provider_invoice_id)`.execute(db);
  await sql`CREATE INDEX orders_delivered_key ON orders (delivered_key)`.execute(db);
  await sql`CREATE INDEX mail_outbox_to ON mail_outbox (lower(to_address), created_at)`.execute(db);
}
