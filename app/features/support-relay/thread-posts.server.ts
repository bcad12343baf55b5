// What the console tells a request's Discord thread (issue 35): an agent's reply under their name, a note as `note:`,
// and the thread archived on Resolve or opened again on Reopen. An outbox like the visitor's messages: stored with
// the change itself, posted once (Discord's nonce), in order per conversation, and delayed, never lost, by an outage.
import crypto from "node:crypto";
import type { Kysely, Selectable } from "kysely";
import { ringConversation } from "~/features/support-conversation/conversation-doorbell.server";
import { resolveConversation } from "~/features/support-conversation/conversation-store.server";
import { deliverDue, type Outbox, type OutboxRows, scheduleRetry } from "~/platform/outbox.server";
import type { DbDialect } from "../../../db/client";
import type { Database, SupportThreadPostsTable } from "../../../db/schema";
import { discordNonce, GIVE_UP_AFTER_MS, postOutcome, postPassList } from "./delivery-worker.server";
import type { DiscordBot } from "./discord-bot.server";
import { dueInThreadOrder, withThreads } from "./thread-relay-store.server";

type Db = Kysely<Database>;
export type ThreadPostRow = Selectable<SupportThreadPostsTable>;
export type ThreadPostKind = ThreadPostRow["kind"];

/** Due once the request's thread exists, and only after every earlier post of the same conversation. */
export const THREAD_POST_ROWS: OutboxRows = {
  table: "support_thread_posts",
  statusColumn: "status",
  done: { status: "delivered", atColumn: "delivered_at" },
  dueAlso: () => dueInThreadOrder("support_thread_posts", "status", "created_at"),
};

/** Stores one post for the thread; run it in the transaction of the change it tells. */
export async function queueThreadPost(
  db: Db,
  post: { conversationId: string; kind: ThreadPostKind; authorName?: string | null; body?: string | null },
  now = new Date(),
): Promise<string> {
  const id = crypto.randomUUID();
  await db
    .insertInto("support_thread_posts")
    .values({
      id,
      conversation_id: post.conversationId,
      kind: post.kind,
      author_name: post.authorName ?? null,
      body: post.body ?? null,
      status: "pending",
      attempts: 0,
      next_attempt_at: now.toISOString(),
      first_failed_at: null,
      last_error: null,
      delivered_at: null,
      discord_message_id: null,
      claimed_by: null,
      claimed_until: null,
      created_at: now.toISOString(),
    })
    .execute();
  return id;
}

type ClaimedThreadPost = ThreadPostRow & { thread_id: string };

type ThreadPostAttempt =
  | { outcome: "delivered"; discordMessageId?: string }
  | { outcome: "retry"; reason: string; nextAttemptAt: Date; giveUp: boolean }
  | { outcome: "rate_limited"; reason: string; until: Date }
  | { outcome: "rejected"; reason: string };

export interface ThreadPostOptions {
  db: Db;
  dialect: DbDialect;
  bot: DiscordBot;
  workerId: string;
  now?: () => Date;
  random?: () => number;
  backoffBaseMs?: number;
  signal?: AbortSignal;
  abandon?: AbortSignal;
}

export interface ThreadPostsPass {
  delivered: string[];
  retrying: string[];
  failed: string[];
}

async function sendThreadPost(post: ClaimedThreadPost, options: ThreadPostOptions, now: Date) {
  const nonce = discordNonce(post.id);
  const sent =
    post.kind === "archive" || post.kind === "unarchive"
      ? await options.bot.setThreadArchived(post.thread_id, post.kind === "archive")
      : await options.bot.postTeamMessage(
          post.thread_id,
          { authorName: post.author_name ?? "", text: post.body ?? "", note: post.kind === "note" },
          { nonce },
        );
  if (sent.ok)
    return {
      outcome: "delivered",
      discordMessageId: sent.value && "messageId" in sent.value ? sent.value.messageId : undefined,
    } as const;
  const { error } = sent;
  const reason = `discord bot: ${error.kind}: ${error.message}`;
  if (error.kind === "rate_limited")
    return { outcome: "rate_limited", reason, until: new Date(now.getTime() + error.retryAfterMs) } as const;
  if (error.kind === "rejected") return { outcome: "rejected", reason } as const;
  if (error.kind === "thread_closed" || error.kind === "not_found") {
    // The team locked or deleted the thread meanwhile: theirs is the last word, the conversation is resolved.
    if (post.kind !== "archive" && (await resolveConversation(options.db, post.conversation_id, now)))
      ringConversation(post.conversation_id);
    return { outcome: "rejected", reason } as const;
  }
  const { nextAttemptAt, giveUp } = scheduleRetry(progressOf(post), now, {
    random: options.random ?? Math.random,
    baseMs: options.backoffBaseMs ?? 2_000,
    giveUpAfterMs: GIVE_UP_AFTER_MS,
  });
  return { outcome: "retry", reason, nextAttemptAt, giveUp } as const;
}

const progressOf = (post: ThreadPostRow) => ({
  attempts: Number(post.attempts),
  firstFailedAt: post.first_failed_at,
});

function threadPostOutbox(
  options: ThreadPostOptions,
  now: () => Date,
): Outbox<ClaimedThreadPost, ThreadPostAttempt, ThreadPostsPass> {
  return {
    rows: THREAD_POST_ROWS,
    progress: progressOf,
    toItems: (rows) => withThreads(options.db, rows as ThreadPostRow[]),
    attempt: (post) => sendThreadPost(post, options, now()),
    cutShort: (attempt) => attempt.outcome === "retry",
    whenCutShort: "release",
    outcome: (_post, attempt) =>
      attempt.outcome === "delivered" && attempt.discordMessageId === undefined
        ? { outcome: "done" }
        : postOutcome(attempt as Parameters<typeof postOutcome>[0]),
    emptyPass: () => ({ delivered: [], retrying: [], failed: [] }),
    listFor: postPassList,
    pauseAfter: (attempt) => (attempt.outcome === "rate_limited" ? attempt.until : undefined),
  };
}

/** Sends due thread posts one at a time until none is left or Discord asks us to wait. */
export async function postDueThreadPosts(options: ThreadPostOptions): Promise<ThreadPostsPass> {
  const now = options.now ?? (() => new Date());
  return deliverDue(threadPostOutbox(options, now), {
    db: options.db,
    dialect: options.dialect,
    workerId: options.workerId,
    leaseMs: 120_000,
    now,
    signal: options.signal,
    abandon: options.abandon,
  });
}

/** What the console shows of a conversation's posts to its thread: those waiting or failed, oldest first. */
export async function unsentThreadPosts(db: Db, conversationId: string) {
  return db
    .selectFrom("support_thread_posts")
    .select(["id", "kind", "status", "attempts", "next_attempt_at", "last_error", "created_at"])
    .where("conversation_id", "=", conversationId)
    .where("status", "in", ["pending", "failed"])
    .orderBy("created_at")
    .execute();
}
