// The team's internal notes on a conversation (issue 35): written in the console or as `note:` in the Discord thread,
// kept in their own table so no reader of the visitor's messages (pages, streams, mail) can ever come across one.
import crypto from "node:crypto";
import type { Kysely, Selectable } from "kysely";
import type { Database, SupportConversationNotesTable } from "../../../db/schema";

export type ConversationNoteRow = Selectable<SupportConversationNotesTable>;

/** Stores a note; a thread's `note:` already stored (by its Discord id) is skipped: undefined. */
export async function addConversationNote(
  db: Kysely<Database>,
  note: {
    conversationId: string;
    authorName: string;
    body: string;
    source: ConversationNoteRow["source"];
    staffId?: string | null;
    discordMessageId?: string | null;
  },
  now = new Date(),
): Promise<ConversationNoteRow | undefined> {
  const row: ConversationNoteRow = {
    id: crypto.randomUUID(),
    conversation_id: note.conversationId,
    author_name: note.authorName,
    staff_id: note.staffId ?? null,
    source: note.source,
    body: note.body,
    discord_message_id: note.discordMessageId ?? null,
    created_at: now.toISOString(),
  };
  const inserted = await db
    .insertInto("support_conversation_notes")
    .values(row)
    .onConflict((oc) => oc.column("discord_message_id").doNothing())
    .returning("id")
    .executeTakeFirst();
  return inserted ? row : undefined;
}

export async function conversationNotes(db: Kysely<Database>, conversationId: string): Promise<ConversationNoteRow[]> {
  return db
    .selectFrom("support_conversation_notes")
    .selectAll()
    .where("conversation_id", "=", conversationId)
    .orderBy("created_at")
    .limit(1000)
    .execute();
}
