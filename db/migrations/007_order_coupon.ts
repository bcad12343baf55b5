import { type Kysely, sql } from "kysely";

// The coupon code the buyer entered, as sent to the shop (the shop decides; the amount is what it will charge).
export async function up(db: Kysely<unknown>) {
  await sql`ALTER TABLE orders ADD COLUMN coupon TEXT`.execute(db);
}
