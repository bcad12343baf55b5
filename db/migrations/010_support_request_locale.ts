import { type Kysely, sql } from "kysely";

// The language of the page a support request was made on (docs/i18n.md), so the channel message can name it.
// Requests stored before it, status alerts and older clients have none.
export async function up(db: Kysely<unknown>) {
  await sql`ALTER TABLE support_requests ADD COLUMN locale TEXT`.execute(db);
}
