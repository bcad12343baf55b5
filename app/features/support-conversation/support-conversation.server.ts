// The running app's conversations: opened with each request, written to by the visitor and the team, read by pages.
import type { Kysely } from "kysely";
import { emailSchema } from "~/platform/form-input";
import { DEFAULT_LOCALE, isLocale, type Locale, localizedPath } from "~/features/i18n/locales";
import {
  CLOSING_MESSAGES,
  GREETING,
  SUPPORT_QUESTIONS,
  type SupportCategory,
} from "~/features/support-chat/support-chat";
import { getDb } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import type { Database } from "../../../db/schema";
import { ringConversation } from "./conversation-doorbell.server";
import {
  appendConversationMessage,
  type ConversationMessageRow,
  type ConversationRow,
  conversationMessages,
  resolveConversation,
  toConversationMessage,
} from "./conversation-store.server";
import {
  CONVERSATION_COOKIE,
  CONVERSATION_COOKIE_MAX_AGE_S,
  CONVERSATION_HINT_COOKIE,
  CONVERSATION_PATH,
  type ConversationMessage,
  type ConversationView,
  LINK_TOKEN_PARAM,
} from "./support-conversation";

/** The questionnaire as the conversation's first lines: our lines in English (translated where shown). */
export function questionnaireLines(category: SupportCategory, answers: readonly string[]) {
  const lines: Array<{ author: "visitor" | "system"; body: string }> = [
    { author: "system", body: GREETING },
    { author: "visitor", body: category },
  ];
  SUPPORT_QUESTIONS[category].forEach((question, i) => {
    lines.push({ author: "system", body: question });
    lines.push({ author: "visitor", body: answers[i] ?? "" });
  });
  lines.push({ author: "system", body: CLOSING_MESSAGES[category] });
  return lines;
}

/** The last answer when it is an email address (lower-cased), else null: a chat username is not mailed. */
export function visitorEmailFrom(answers: readonly string[]): string | null {
  const parsed = emailSchema.safeParse(answers.at(-1) ?? "");
  return parsed.success ? parsed.data : null;
}

/** Whether the Discord bot posts requests and visitor messages into threads (else they stay one-way or kept). */
export function botConfigured(): boolean {
  return getEnv().DISCORD_BOT_TOKEN !== undefined;
}

/** What can stop team replies from reaching the page: set by the reply reader when the bot cannot read its threads. */
let repliesBlockedBy: string | null = null;
export function setRepliesBlocked(reason: string | null) {
  repliesBlockedBy = reason;
}
export function repliesLive(): boolean {
  return repliesBlockedBy === null;
}

/** Woken when a visitor's message waits for its post into the thread (the relay worker registers here). */
let visitorMessageListener: (() => void) | undefined;
export function onVisitorMessageQueued(listener: (() => void) | undefined) {
  visitorMessageListener = listener;
}

/** Wakes this instance's thread relay: the console queued a post for a thread (others find it at their next poll). */
export function wakeThreadRelay() {
  visitorMessageListener?.();
}

/**
 * Stores a visitor's message (the outbox of the thread): once this resolves it is durable and will be posted into
 * the thread once, or kept as `no_channel` when no bot posts threads.
 */
export async function addVisitorMessage(
  conversation: Pick<ConversationRow, "id">,
  text: string,
  db: Kysely<Database> = getDb().db,
  now = new Date(),
): Promise<ConversationMessage> {
  const row = await appendConversationMessage(
    db,
    conversation.id,
    { author: "visitor", body: text, deliveryStatus: botConfigured() ? "pending" : "no_channel" },
    now,
  );
  if (!row) throw new Error("a visitor's message was not stored");
  ringConversation(conversation.id);
  visitorMessageListener?.();
  return toConversationMessage(row);
}

/**
 * Stores a team reply (from the thread or the operator's CLI) and rings the doorbell. A Discord message already
 * relayed is skipped: undefined.
 */
export async function addTeamReply(
  db: Kysely<Database>,
  conversationId: string,
  reply: {
    authorName: string;
    body: string;
    discordMessageId?: string;
    /** Where it was written: a thread reply (with its id) is `discord`, else the CLI unless said otherwise. */
    source?: "console" | "discord" | "cli";
    staffId?: string;
  },
  now = new Date(),
): Promise<ConversationMessageRow | undefined> {
  const row = await appendConversationMessage(
    db,
    conversationId,
    {
      author: "team",
      authorName: reply.authorName,
      body: reply.body,
      discordMessageId: reply.discordMessageId,
      source: reply.source ?? (reply.discordMessageId ? "discord" : "cli"),
      staffId: reply.staffId ?? null,
    },
    now,
  );
  // Inside a caller's transaction the caller rings once it is committed (an early ring would find nothing yet).
  if (row && !db.isTransaction) ringConversation(conversationId);
  return row;
}

/** The conversation as pages and the API show it. */
export async function conversationView(
  conversation: ConversationRow,
  db: Kysely<Database> = getDb().db,
): Promise<ConversationView> {
  return {
    id: conversation.id,
    category: conversation.category,
    status: conversation.status,
    repliesLive: repliesLive(),
    messages: await conversationMessages(db, conversation.id),
  };
}

function secureAttribute(requestIsHttps: boolean): string {
  return requestIsHttps || new URL(getEnv().PUBLIC_URL).protocol === "https:" ? "; Secure" : "";
}

/**
 * The Set-Cookie values that bind the conversation to this browser (Secure when the shop is served over https): the
 * HttpOnly key, and the hint the chat reads to know there is a conversation to ask for.
 */
export function conversationCookies(token: string, requestIsHttps: boolean): string[] {
  const secure = secureAttribute(requestIsHttps);
  return [
    `${CONVERSATION_COOKIE}=${token}; Path=/; Max-Age=${CONVERSATION_COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Lax${secure}`,
    conversationHintCookie(requestIsHttps),
  ];
}

/** The hint alone: set again when a browser whose key is valid has lost it (a key from before the hint existed). */
export function conversationHintCookie(requestIsHttps: boolean): string {
  return `${CONVERSATION_HINT_COOKIE}=1; Path=/; Max-Age=${CONVERSATION_COOKIE_MAX_AGE_S}; SameSite=Lax${secureAttribute(requestIsHttps)}`;
}

/** Clears the hint: the browser's key opens no conversation, so the chat stops asking on every page. */
export function clearedConversationHintCookie(requestIsHttps: boolean): string {
  return `${CONVERSATION_HINT_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax${secureAttribute(requestIsHttps)}`;
}

/** The private link: opens the conversation on any browser (the page swaps its key for a new browser key). */
export function conversationLink(linkKey: string, locale: string | null | undefined): string {
  const path = localizedPath(CONVERSATION_PATH, isLocale(locale ?? undefined) ? (locale as Locale) : DEFAULT_LOCALE);
  return `${new URL(getEnv().PUBLIC_URL).origin}${path}?${LINK_TOKEN_PARAM}=${linkKey}`;
}

/** The team resolved it (from the thread or the CLI): stored, and every open page told at once. */
export async function resolveConversationAndRing(
  db: Kysely<Database>,
  conversationId: string,
  now = new Date(),
): Promise<boolean> {
  const changed = await resolveConversation(db, conversationId, now);
  if (changed) ringConversation(conversationId);
  return changed;
}
