import { type Kysely, sql } from "kysely";

// The shop's own invoice status as last read (e.g. `confirming`), kept as-is: there is no official full list.
export async function up(db: Kysely<unknown>) {
  await sql`ALTER TABLE orders ADD COLUMN shop_status TEXT`.execute(db);
}
