import { type Kysely, sql } from "kysely";

// Team replies not mailed yet are few among all messages: the unseen-reply mail pass reads only them, by age.
export async function up(db: Kysely<unknown>) {
  await sql`CREATE INDEX support_conversation_messages_unmailed ON support_conversation_messages (created_at)
    WHERE author = 'team' AND emailed_at IS NULL`.execute(db);
}
