// Conversations in the database: opened with their request, found by a key's hash, messages numbered per conversation.
import crypto from "node:crypto";
import { type Kysely, type Selectable, sql } from "kysely";
// Relative, not `~/`: the streams bench imports this module under plain Node.
import { hashSecret, isSecretToken, newSecretToken } from "../../platform/hashed-secrets.server.ts";
import type { Database, SupportConversationMessagesTable, SupportConversationsTable } from "../../../db/schema";
import type { ConversationMessage } from "./support-conversation";

export type ConversationRow = Selectable<SupportConversationsTable>;
export type ConversationMessageRow = Selectable<SupportConversationMessagesTable>;
type Db = Kysely<Database>;

/** 256 random bits, URL-safe: a browser key (the cookie's value) or a private link's key. */
export const newConversationToken = newSecretToken;

/** SHA-256 of a token: what the database keeps and looks up. */
export function hashConversationToken(token: string): string {
  return hashSecret("kestrel-support-conversation", token);
}

/** A token as a browser may send it: the shape newConversationToken makes, nothing else is looked up. */
export const isPlausibleToken = isSecretToken;

export function toConversationMessage(row: ConversationMessageRow): ConversationMessage {
  return {
    seq: Number(row.seq),
    author: row.author,
    authorName: row.author_name,
    body: row.body,
    createdAt: row.created_at,
  };
}

export interface NewMessage {
  author: ConversationMessageRow["author"];
  body: string;
  authorName?: string | null;
  /** A team reply's Discord message id: a second insert of the same id is skipped (relayed once). */
  discordMessageId?: string | null;
  /** A visitor's message on its way into the thread; null for what needs no delivery. */
  deliveryStatus?: ConversationMessageRow["delivery_status"];
  /** Where a team reply was written, and by whom in the console. */
  source?: ConversationMessageRow["source"];
  staffId?: string | null;
}

/**
 * Appends one message with the next `seq` of its conversation, computed inside the INSERT: SQLite runs it under its
 * one-writer lock; on PostgreSQL two writers racing for the same `seq` (a visitor's message and a team reply on two
 * instances) collide on the primary key and the loser tries again. Either way a reader never sees a later `seq`
 * before an earlier one is committed. Returns undefined when the Discord message was relayed already.
 */
export async function appendConversationMessage(
  db: Db,
  conversationId: string,
  message: NewMessage,
  now = new Date(),
): Promise<ConversationMessageRow | undefined> {
  const at = now.toISOString();
  const id = crypto.randomUUID();
  const deliveryStatus = message.deliveryStatus ?? null;
  const nextAttemptAt = deliveryStatus === "pending" ? at : null;
  for (let attempt = 0; ; attempt++) {
    if (message.discordMessageId) {
      const seen = await db
        .selectFrom("support_conversation_messages")
        .select("seq")
        .where("discord_message_id", "=", message.discordMessageId)
        .executeTakeFirst();
      if (seen) return undefined;
    }
    let inserted: ConversationMessageRow | undefined;
    try {
      const result = await sql<ConversationMessageRow>`
        INSERT INTO support_conversation_messages
          (conversation_id, seq, id, author, author_name, body, discord_message_id, created_at, delivery_status,
           attempts, next_attempt_at, source, staff_id)
        SELECT ${conversationId}, COALESCE(MAX(seq), 0) + 1, ${id}, ${message.author}, ${message.authorName ?? null},
          ${message.body}, ${message.discordMessageId ?? null}, ${at}, ${deliveryStatus}, 0, ${nextAttemptAt},
          ${message.source ?? null}, ${message.staffId ?? null}
        FROM support_conversation_messages WHERE conversation_id = ${conversationId}
        RETURNING *`.execute(db);
      inserted = result.rows[0];
    } catch (error) {
      if (attempt < 50 && isUniqueViolation(error)) {
        await new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * 10));
        continue;
      }
      throw error;
    }
    if (!inserted) throw new Error("a conversation message was not stored");
    await db
      .updateTable("support_conversations")
      .set(turnAfter(message.author, at))
      .where("id", "=", conversationId)
      .execute();
    return { ...inserted, seq: Number(inserted.seq), attempts: Number(inserted.attempts) };
  }
}

/** What a new message changes on its conversation: its last activity and whose turn it is (the inbox's lists). */
function turnAfter(author: ConversationMessageRow["author"], at: string) {
  if (author === "visitor")
    return {
      last_message_at: at,
      visitor_active_at: at,
      // A visitor writing twice has waited since the first of the two.
      waiting_since: sql<string>`CASE WHEN waiting_on = 'us' AND waiting_since IS NOT NULL THEN waiting_since ELSE ${at} END`,
      waiting_on: "us" as const,
    };
  if (author === "team")
    return {
      last_message_at: at,
      waiting_on: "visitor" as const,
      waiting_since: at,
      first_team_reply_at: sql<string>`COALESCE(first_team_reply_at, ${at})`,
    };
  return { last_message_at: at };
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; errcode?: number; message?: string };
  return e?.code === "23505" || /UNIQUE constraint failed|SQLITE_CONSTRAINT/i.test(String(e?.message ?? e?.code ?? ""));
}

export interface OpenedConversation {
  conversation: ConversationRow;
  /** The browser key (the cookie's value), given to the visitor's browser once. */
  token: string;
  /** The private link's key, given to the visitor once (closing message, link mail). */
  linkKey: string;
}

/** Stores a new key of the conversation and returns it (only its hash is kept). */
export async function issueConversationKey(
  db: Db,
  conversationId: string,
  purpose: "browser" | "link",
  now = new Date(),
): Promise<string> {
  const key = newConversationToken();
  await db
    .insertInto("support_conversation_keys")
    .values({
      key_hash: hashConversationToken(key),
      conversation_id: conversationId,
      purpose,
      created_at: now.toISOString(),
    })
    .execute();
  return key;
}

/**
 * Opens the conversation of a stored request, with the questionnaire as its first messages (our lines in English,
 * translated where shown): greeting, the chosen category, each question and its answer, and the closing message.
 * Run it in the request's transaction, so a request never exists without its conversation.
 */
export async function openConversation(
  db: Db,
  input: {
    requestId: string;
    category: string;
    locale: string;
    visitorEmail: string | null;
    /** The address the visitor's /orders session was signed in with when the request was sent. */
    signedInEmail?: string | null;
    lines: ReadonlyArray<{ author: "visitor" | "system"; body: string }>;
  },
  now = new Date(),
): Promise<OpenedConversation> {
  const at = now.toISOString();
  const conversation: ConversationRow = {
    id: crypto.randomUUID(),
    request_id: input.requestId,
    category: input.category,
    locale: input.locale,
    visitor_email: input.visitorEmail,
    visitor_email_proven_at:
      input.visitorEmail !== null && input.signedInEmail?.trim().toLowerCase() === input.visitorEmail.toLowerCase()
        ? at
        : null,
    status: "open",
    channel_id: null,
    thread_id: null,
    last_relayed_message_id: null,
    next_read_at: null,
    last_read_at: null,
    state_checked_at: null,
    visitor_active_at: at,
    visitor_seen_seq: input.lines.length,
    last_message_at: at,
    created_at: at,
    resolved_at: null,
    waiting_on: "us",
    waiting_since: at,
    first_team_reply_at: null,
    assigned_staff_id: null,
  };
  await db.insertInto("support_conversations").values(conversation).execute();
  if (input.lines.length > 0)
    await db
      .insertInto("support_conversation_messages")
      .values(
        input.lines.map(
          (line, i): ConversationMessageRow => ({
            conversation_id: conversation.id,
            seq: i + 1,
            id: crypto.randomUUID(),
            author: line.author,
            author_name: null,
            body: line.body,
            discord_message_id: null,
            created_at: at,
            delivery_status: null,
            attempts: 0,
            next_attempt_at: null,
            first_failed_at: null,
            last_error: null,
            delivered_at: null,
            claimed_by: null,
            claimed_until: null,
            emailed_at: null,
            source: null,
            staff_id: null,
          }),
        ),
      )
      .execute();
  const token = await issueConversationKey(db, conversation.id, "browser", now);
  const linkKey = await issueConversationKey(db, conversation.id, "link", now);
  return { conversation, token, linkKey };
}

async function findByKey(db: Db, key: unknown, purpose: "browser" | "link"): Promise<ConversationRow | undefined> {
  if (!isPlausibleToken(key)) return undefined;
  return db
    .selectFrom("support_conversation_keys as k")
    .innerJoin("support_conversations as c", "c.id", "k.conversation_id")
    .selectAll("c")
    .where("k.key_hash", "=", hashConversationToken(key))
    .where("k.purpose", "=", purpose)
    .executeTakeFirst();
}

/** The conversation of a browser key (the cookie's value). */
export async function findConversationByToken(db: Db, token: unknown): Promise<ConversationRow | undefined> {
  return findByKey(db, token, "browser");
}

/** The conversation of a private link's key (`?key=`): the page swaps it for a new browser key. */
export async function findConversationByLinkKey(db: Db, key: unknown): Promise<ConversationRow | undefined> {
  return findByKey(db, key, "link");
}

/**
 * The later proof of a conversation's address (issue 42): the browser holding the conversation (`token`, its cookie)
 * has just signed in at /orders with `email` through its one-time code. When that is the conversation's address, it
 * is proven from now on: the conversation's id, or undefined when nothing was proven.
 */
export async function proveVisitorEmail(
  db: Db,
  token: unknown,
  email: string,
  now = new Date(),
): Promise<string | undefined> {
  const conversation = await findConversationByToken(db, token);
  if (!conversation?.visitor_email || conversation.visitor_email_proven_at !== null) return undefined;
  if (conversation.visitor_email.toLowerCase() !== email.trim().toLowerCase()) return undefined;
  const result = await db
    .updateTable("support_conversations")
    .set({ visitor_email_proven_at: now.toISOString() })
    .where("id", "=", conversation.id)
    .where("visitor_email_proven_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0 ? conversation.id : undefined;
}

export async function findConversation(db: Db, id: string): Promise<ConversationRow | undefined> {
  return db.selectFrom("support_conversations").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function findConversationByRequest(db: Db, requestId: string): Promise<ConversationRow | undefined> {
  return db.selectFrom("support_conversations").selectAll().where("request_id", "=", requestId).executeTakeFirst();
}

/** Messages after `afterSeq`, oldest first. */
export async function conversationMessages(
  db: Db,
  conversationId: string,
  afterSeq = 0,
  limit = 1000,
): Promise<ConversationMessage[]> {
  const rows = await db
    .selectFrom("support_conversation_messages")
    .selectAll()
    .where("conversation_id", "=", conversationId)
    .where("seq", ">", afterSeq)
    .orderBy("seq")
    .limit(limit)
    .execute();
  return rows.map(toConversationMessage);
}

/** The newest `seq` of each conversation asked about (a stream hub's check for what is new). */
export async function latestSeqs(db: Db, conversationIds: readonly string[]): Promise<Map<string, number>> {
  const latest = new Map<string, number>();
  for (let i = 0; i < conversationIds.length; i += 500) {
    const rows = await db
      .selectFrom("support_conversation_messages")
      .select(["conversation_id", (eb) => eb.fn.max("seq").as("seq")])
      .where("conversation_id", "in", conversationIds.slice(i, i + 500))
      .groupBy("conversation_id")
      .execute();
    for (const row of rows) latest.set(row.conversation_id, Number(row.seq));
  }
  return latest;
}

/** The visitor's page showed everything up to `seq` (or is simply open): they are present now. */
export async function markVisitorPresent(
  db: Db,
  conversationId: string,
  seenSeq: number | undefined,
  now = new Date(),
) {
  const at = now.toISOString();
  const set =
    seenSeq === undefined
      ? { visitor_active_at: at }
      : {
          visitor_active_at: at,
          visitor_seen_seq: sql<number>`CASE WHEN visitor_seen_seq < ${seenSeq} THEN ${seenSeq} ELSE visitor_seen_seq END`,
        };
  await db.updateTable("support_conversations").set(set).where("id", "=", conversationId).execute();
}

/** The team resolved it: it says so and stops being read. Returns false when it was resolved already. */
export async function resolveConversation(db: Db, conversationId: string, now = new Date()): Promise<boolean> {
  const result = await db
    .updateTable("support_conversations")
    .set({ status: "resolved", resolved_at: now.toISOString(), next_read_at: null })
    .where("id", "=", conversationId)
    .where("status", "=", "open")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Open conversations, newest activity first: the operator's list. */
export async function listOpenConversations(db: Db, limit = 100): Promise<ConversationRow[]> {
  return db
    .selectFrom("support_conversations")
    .selectAll()
    .where("status", "=", "open")
    .orderBy("last_message_at", "desc")
    .limit(limit)
    .execute();
}

/** A signed-in buyer's conversations (the address they gave as their last answer), newest first. */
export async function conversationsForEmail(db: Db, email: string, limit = 50): Promise<ConversationRow[]> {
  return db
    .selectFrom("support_conversations")
    .selectAll()
    .where("visitor_email", "=", email.toLowerCase())
    .orderBy("created_at", "desc")
    .limit(limit)
    .execute();
}
