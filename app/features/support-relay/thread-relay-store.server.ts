// The Discord thread side of conversations in the database: where each request's thread is, which visitor messages
// wait for their post into it (an outbox of the delivery engine), which threads are due a read, and the reader's
// cursor. The reader's verdict on the bot is kept here too, so every instance's pages agree on it.
import { type Kysely, type Selectable, sql } from "kysely";
import { claimDueRows, type OutboxRows } from "~/platform/outbox.server";
import type { ConversationRow } from "~/features/support-conversation/conversation-store.server";
import type { DbDialect } from "../../../db/client";
import type { Database, SupportConversationMessagesTable } from "../../../db/schema";

type Db = Kysely<Database>;
export type VisitorMessageRow = Selectable<SupportConversationMessagesTable>;
/** A claimed visitor message with the thread it goes into. */
export type ClaimedVisitorMessage = VisitorMessageRow & { thread_id: string };

/** The one row of `support_relay_status`. */
export const RELAY_STATUS_NAME = "discord-bot";

/** The request's post and thread, on its conversation: from now on its thread is read and visitor messages go in. */
export async function recordConversationThread(
  db: Db,
  conversationId: string,
  posted: { channelId: string; threadId: string },
  now: Date,
) {
  await db
    .updateTable("support_conversations")
    // A thread just opened is neither archived nor locked: its first state check is due a full interval from now.
    .set({
      channel_id: posted.channelId,
      thread_id: posted.threadId,
      next_read_at: now.toISOString(),
      state_checked_at: now.toISOString(),
    })
    .where("id", "=", conversationId)
    .execute();
}

/** Why replies cannot be relayed (null: they can), for every instance. */
export async function writeRelayBlocked(db: Db, reason: string | null, now = new Date()) {
  const updatedAt = now.toISOString();
  await db
    .insertInto("support_relay_status")
    .values({ name: RELAY_STATUS_NAME, blocked_reason: reason, updated_at: updatedAt })
    .onConflict((oc) => oc.column("name").doUpdateSet({ blocked_reason: reason, updated_at: updatedAt }))
    .execute();
}

export async function readRelayBlocked(db: Db): Promise<string | null> {
  const row = await db
    .selectFrom("support_relay_status")
    .select("blocked_reason")
    .where("name", "=", RELAY_STATUS_NAME)
    .executeTakeFirst();
  return row?.blocked_reason ?? null;
}

/**
 * Visitor messages as an outbox (`~/platform/outbox.server`): due once their conversation has its thread, at most one
 * per conversation and only the earliest still pending (so they land in the thread in the order they were written).
 */
export const VISITOR_MESSAGE_ROWS: OutboxRows = {
  table: "support_conversation_messages",
  statusColumn: "delivery_status",
  done: { status: "delivered", atColumn: "delivered_at" },
  dueAlso: () => dueInThreadOrder("support_conversation_messages", "delivery_status", "seq"),
};

/**
 * What a post into a thread waits for (an outbox's `dueAlso`): its conversation's thread, and every earlier post of
 * the same conversation in the same table (by `order`) delivered or given up, so the thread reads in order.
 */
export function dueInThreadOrder(
  table: "support_conversation_messages" | "support_thread_posts",
  statusColumn: "delivery_status" | "status",
  order: "seq" | "created_at",
) {
  return sql`EXISTS (
      SELECT 1 FROM support_conversations c WHERE c.id = o.conversation_id AND c.thread_id IS NOT NULL
    )
    AND NOT EXISTS (
      SELECT 1 FROM ${sql.table(table)} e
      WHERE e.conversation_id = o.conversation_id AND ${sql.ref(`e.${statusColumn}`)} = 'pending'
        AND ${sql.ref(`e.${order}`)} < ${sql.ref(`o.${order}`)}
    )`;
}

/** Claimed messages with the thread each goes into, oldest due first. */
export async function withThreads<Row extends { conversation_id: string; next_attempt_at: string | null }>(
  db: Db,
  rows: Row[],
): Promise<Array<Row & { thread_id: string }>> {
  if (rows.length === 0) return [];
  const threads = await db
    .selectFrom("support_conversations")
    .select(["id", "thread_id"])
    .where(
      "id",
      "in",
      rows.map((r) => r.conversation_id),
    )
    .execute();
  const threadOf = new Map(threads.map((t) => [t.id, t.thread_id]));
  return rows
    .map((row) => ({ ...row, thread_id: threadOf.get(row.conversation_id) ?? "" }))
    .filter((row) => row.thread_id !== "")
    .sort((a, b) => String(a.next_attempt_at).localeCompare(String(b.next_attempt_at)));
}

/** Claims due visitor messages whose conversation has its thread (see `claimDueRows`). */
export async function claimDueVisitorMessages(
  db: Db,
  dialect: DbDialect,
  options: { workerId: string; limit: number; leaseMs: number; now: Date },
): Promise<ClaimedVisitorMessage[]> {
  return withThreads(db, await claimDueRows<VisitorMessageRow>(db, dialect, VISITOR_MESSAGE_ROWS, options));
}

export type VisitorMessageAttempt =
  | { outcome: "delivered"; discordMessageId: string }
  | { outcome: "retry"; reason: string; nextAttemptAt: Date; giveUp: boolean }
  /** 429: not a failed attempt; the message waits until then. */
  | { outcome: "rate_limited"; reason: string; until: Date }
  | { outcome: "rejected"; reason: string };

export interface ReadSchedule {
  /** An active visitor's thread is read again this soon after its last read. */
  fastMs: number;
  /** The rest are read this often. */
  slowMs: number;
  /** The visitor counts as active this long after the page last said so. */
  activeMs: number;
  /** A conversation without a message or a visit for this long is not read at all. */
  idleMs: number;
}

/** Whether the conversation's visitor is on the page or was in the last `activeMs`. */
export function visitorIsActive(conversation: Pick<ConversationRow, "visitor_active_at">, now: Date, activeMs: number) {
  return Date.parse(conversation.visitor_active_at) >= now.getTime() - activeMs;
}

/**
 * Open conversations with a thread that are due a read: their next read came, or their visitor is active and the
 * last read is older than `fastMs` (a visitor coming back need not wait out the slow schedule). Idle ones are left.
 * The longest waiting first, so an overloaded reader stretches every interval evenly instead of starving some.
 */
export async function dueConversations(db: Db, schedule: ReadSchedule, now: Date, limit: number) {
  const nowIso = now.toISOString();
  const idleSince = new Date(now.getTime() - schedule.idleMs).toISOString();
  const activeSince = new Date(now.getTime() - schedule.activeMs).toISOString();
  const readBefore = new Date(now.getTime() - schedule.fastMs).toISOString();
  return db
    .selectFrom("support_conversations")
    .selectAll()
    .where("status", "=", "open")
    .where("thread_id", "is not", null)
    .where((eb) => eb.or([eb("last_message_at", ">=", idleSince), eb("visitor_active_at", ">=", idleSince)]))
    .where((eb) =>
      eb.or([
        eb("next_read_at", "is", null),
        eb("next_read_at", "<=", nowIso),
        eb.and([
          eb("visitor_active_at", ">=", activeSince),
          eb.or([eb("last_read_at", "is", null), eb("last_read_at", "<=", readBefore)]),
        ]),
      ]),
    )
    .orderBy("next_read_at")
    .orderBy("id")
    .limit(limit)
    .execute();
}

/** The newest thread message read (relayed, skipped or ignored): the next read starts after it. */
export async function saveReadCursor(db: Db, conversationId: string, messageId: string) {
  await db
    .updateTable("support_conversations")
    .set({ last_relayed_message_id: messageId })
    .where("id", "=", conversationId)
    .execute();
}

/** When the thread was read and when it is read next (and, if asked, when its archived/locked state was checked). */
export async function scheduleNextRead(
  db: Db,
  conversationId: string,
  times: { readAt: Date; nextReadAt: Date; stateCheckedAt?: Date },
) {
  await db
    .updateTable("support_conversations")
    .set({
      last_read_at: times.readAt.toISOString(),
      next_read_at: times.nextReadAt.toISOString(),
      ...(times.stateCheckedAt ? { state_checked_at: times.stateCheckedAt.toISOString() } : {}),
    })
    .where("id", "=", conversationId)
    .where("status", "=", "open")
    .execute();
}
