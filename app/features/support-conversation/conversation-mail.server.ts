// The conversation's mail (issue 30): the private link when the last answer is an email address, and team replies the
// visitor did not see within 2 minutes, several in one mail. Both go through the mail outbox (docs/decisions/021).
import crypto from "node:crypto";
import type { I18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { type Kysely, sql } from "kysely";
import { startLeasedJob } from "~/platform/leases.server";
import { i18nFor } from "~/features/i18n/i18n.server";
import { DEFAULT_LOCALE, isLocale, type Locale } from "~/features/i18n/locales";
import { queueMail, wakeMailDelivery } from "~/features/mail/mail.server";
import { isSupportCategory } from "~/features/support-chat/support-chat";
import { CATEGORY_NAMES } from "~/features/support-chat/support-chat-messages";
import { getDb } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { hashIdentityForLog } from "~/platform/log-identity.server";
import { logger } from "~/platform/logger.server";
import type { Database } from "../../../db/schema";
import { type ConversationRow, issueConversationKey } from "./conversation-store.server";
import { UNSEEN_REPLY_EMAIL_AFTER_MS } from "./support-conversation";
import { conversationLink } from "./support-conversation.server";

type Db = Kysely<Database>;

/** The conversation's language for its mail: the one it was started in, English for anything unknown. */
function mailI18n(locale: string): I18n {
  return i18nFor(isLocale(locale) ? (locale as Locale) : DEFAULT_LOCALE);
}

function categoryName(i18n: I18n, category: string): string {
  return isSupportCategory(category) ? i18n._(CATEGORY_NAMES[category]) : category;
}

/**
 * Mails the private link of a conversation whose visitor gave an email address as the last answer, in their language.
 * Never throws: the request is accepted whether or not its mail could be queued (the closing message has the link too).
 */
export async function queueConversationLinkMail(
  conversation: Pick<ConversationRow, "id" | "category" | "locale" | "visitor_email">,
  linkKey: string,
): Promise<void> {
  const to = conversation.visitor_email;
  if (!to) return;
  try {
    const i18n = mailI18n(conversation.locale);
    const category = categoryName(i18n, conversation.category);
    await queueMail({
      kind: "support-link",
      to,
      subject: i18n._(msg`Your support request: ${category}`),
      text: [
        i18n._(msg`Thank you for contacting us. We received your support request (${category}).`),
        i18n._(msg`Our team answers in the conversation. Open it with this private link, on any device:`),
        conversationLink(linkKey, conversation.locale),
        i18n._(msg`Keep this link to yourself: whoever has it can read and answer the conversation.`),
      ].join("\n\n"),
    });
  } catch (err) {
    logger.error(
      { err, conversationId: conversation.id, to: hashIdentityForLog(to) },
      "support conversation: the link mail could not be queued",
    );
  }
}

/** Team replies of one conversation, as mailed together. */
interface UnseenReply {
  seq: number;
  authorName: string | null;
  body: string;
  createdAt: string;
}

function unseenRepliesText(i18n: I18n, replies: readonly UnseenReply[], link: string): string {
  const teamName = i18n._(msg({ message: "Support team", comment: "The replier's name when a reply carries none" }));
  const lines = replies.map((reply) => {
    const at = i18n.date(new Date(reply.createdAt), {
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      timeZone: "UTC",
      timeZoneName: "short",
    });
    return `${reply.authorName ?? teamName} · ${at}\n${reply.body}`;
  });
  return [
    i18n._(msg`Our team answered your support request. You have not read these replies on the page yet:`),
    ...lines,
    i18n._(msg`Read the whole conversation and answer with this private link:`),
    link,
    i18n._(msg`Replies you read on the page are not emailed.`),
  ].join("\n\n");
}

/**
 * Mails, once, the team replies of each conversation with a visitor address whose oldest unseen reply is older than
 * `afterMs`: all of its unseen replies in one mail (a burst of answers is one mail, not one each). Per conversation one
 * transaction marks the replies `emailed_at` (the UPDATE that claims them: a second worker's finds none left),
 * issues a fresh link key and queues the mail, so a reply is mailed exactly once or not at all. Returns how many mails
 * were queued.
 */
export async function mailUnseenReplies(
  db: Db,
  options: { afterMs?: number; now?: Date; limit?: number } = {},
): Promise<number> {
  const now = options.now ?? new Date();
  const dueBefore = new Date(now.getTime() - (options.afterMs ?? UNSEEN_REPLY_EMAIL_AFTER_MS)).toISOString();
  const due = await db
    .selectFrom("support_conversation_messages as m")
    .innerJoin("support_conversations as c", "c.id", "m.conversation_id")
    .select("m.conversation_id")
    .distinct()
    .where("m.author", "=", "team")
    .where("m.emailed_at", "is", null)
    .where("m.created_at", "<=", dueBefore)
    .whereRef("m.seq", ">", "c.visitor_seen_seq")
    .where("c.visitor_email", "is not", null)
    .limit(options.limit ?? 50)
    .execute();
  let mailed = 0;
  for (const { conversation_id: id } of due) {
    if (await mailConversationReplies(db, id, now)) mailed++;
  }
  if (mailed > 0) wakeMailDelivery();
  return mailed;
}

async function mailConversationReplies(db: Db, conversationId: string, now: Date): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // The claim comes first: in PostgreSQL a racing worker's UPDATE waits for this one and then matches no row; in
    // SQLite it is the statement that takes the write lock. Replies the page marked seen meanwhile are left out.
    const claimed = await trx
      .updateTable("support_conversation_messages")
      .set({ emailed_at: now.toISOString() })
      .where("conversation_id", "=", conversationId)
      .where("author", "=", "team")
      .where("emailed_at", "is", null)
      .where("seq", ">", sql<number>`(SELECT visitor_seen_seq FROM support_conversations WHERE id = ${conversationId})`)
      .returning(["seq", "author_name", "body", "created_at"])
      .execute();
    if (claimed.length === 0) return false;
    const conversation = await trx
      .selectFrom("support_conversations")
      .select(["id", "locale", "visitor_email"])
      .where("id", "=", conversationId)
      .executeTakeFirstOrThrow();
    if (!conversation.visitor_email) return false;
    const replies = claimed
      .map((row) => ({ seq: Number(row.seq), authorName: row.author_name, body: row.body, createdAt: row.created_at }))
      .sort((a, b) => a.seq - b.seq);
    // Keys are kept only hashed, so each mail carries a key of its own.
    const linkKey = await issueConversationKey(trx, conversationId, "link", now);
    const i18n = mailI18n(conversation.locale);
    await queueMail(
      {
        kind: "support-reply",
        to: conversation.visitor_email,
        subject: i18n._(msg`New reply to your support request`),
        text: unseenRepliesText(i18n, replies, conversationLink(linkKey, conversation.locale)),
      },
      { db: trx },
    );
    logger.info({ conversationId, replies: replies.length }, "support conversation: unseen replies mailed");
    return true;
  });
}

export const UNSEEN_REPLY_MAIL_LEASE = "support-unseen-reply-mail";

export interface UnseenReplyMailer {
  /** Runs one pass now (tests; the loop runs them on its own). */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Looks for unseen replies every `intervalMs` on the instance holding the lease (one at a time; the transaction per
 * conversation keeps it exact even if two overlap). Returns the handle to stop it at shutdown.
 */
export function startUnseenReplyMailer(options: {
  db: Db;
  afterMs: number;
  intervalMs: number;
  instanceId?: string;
  onError?: (error: unknown) => void;
}): UnseenReplyMailer {
  const { db, afterMs, intervalMs } = options;
  const holder = options.instanceId ?? `unseen-reply-mail-${crypto.randomUUID()}`;
  const job = startLeasedJob({
    db,
    lease: UNSEEN_REPLY_MAIL_LEASE,
    holder,
    leaseMs: Math.max(30_000, intervalMs * 3),
    everyMs: intervalMs,
    firstTickAfterMs: intervalMs,
    work: () => mailUnseenReplies(db, { afterMs }),
    onError: (error) => options.onError?.(error),
  });
  return {
    runOnce: async () => (await job.runOnce()) ?? 0,
    stop: () => job.stop(),
  };
}

/** Starts the running app's unseen-reply mail (every instance tries; the lease lets one work); returns its stop. */
export function startUnseenReplyMail(): () => Promise<void> {
  const afterMs = getEnv().SUPPORT_UNSEEN_REPLY_MAIL_AFTER_SECONDS * 1000;
  const mailer = startUnseenReplyMailer({
    db: getDb().db,
    afterMs,
    // A reply is mailed at most a tenth of the wait (10 s at most) after it is due.
    intervalMs: Math.min(10_000, Math.max(250, afterMs / 10)),
    onError: (err) => logger.error({ err }, "support conversation: unseen replies could not be mailed"),
  });
  return () => mailer.stop();
}
