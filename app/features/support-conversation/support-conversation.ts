// Support that answers back (issue 30): what the browser and the server agree on. Safe in the browser.
import { z } from "zod";
import { MAX_ANSWER_LENGTH } from "~/features/support-chat/support-chat";

/** The HttpOnly cookie that binds a conversation to the browser: a random browser key (the server keeps its hash). */
export const CONVERSATION_COOKIE = "kestrel_support_conversation";
/**
 * Readable by the page (not HttpOnly, no secret): this browser may have a conversation, so the chat asks for it.
 * Without it the chat does not ask, and a visitor with no conversation never sees a 404 in the console.
 */
export const CONVERSATION_HINT_COOKIE = "kestrel_support_has_conversation";
/** The cookie lasts as long as a conversation is worth coming back to. */
export const CONVERSATION_COOKIE_MAX_AGE_S = 180 * 24 * 60 * 60;
/** The private link's key parameter; the page swaps it for a new browser key (cookie) and redirects without it. */
export const LINK_TOKEN_PARAM = "key";
/** Where the conversation is read without JavaScript (under /<locale>/ in other languages). */
export const CONVERSATION_PATH = "/support/conversation";
/** A visitor's message is as long as an answer may be. */
export const MAX_MESSAGE_LENGTH = MAX_ANSWER_LENGTH;
/** A team reply not seen on the page within this long is emailed (once; several replies in one mail). */
export const UNSEEN_REPLY_EMAIL_AFTER_MS = 2 * 60_000;
/** The visitor counts as present this long after the page last told us so (fast reads of the thread). */
export const VISITOR_ACTIVE_MS = 10 * 60_000;
/** A conversation nobody wrote in for this long stops being read from Discord. */
export const CONVERSATION_IDLE_MS = 14 * 24 * 60 * 60_000;
/** The event stream's comment ping: under any proxy's read timeout (nginx is set to 60 s for the route). */
export const EVENT_STREAM_PING_MS = 25_000;
/** How often the page asks for new messages when the event stream cannot be used. */
export const POLLING_FALLBACK_MS = 3_000;

export const conversationMessageSchema = z.object({
  /** 1, 2, 3 … within the conversation; the event id. */
  seq: z.number().int().positive(),
  author: z.enum(["visitor", "team", "system"]),
  /** The replier's display name for team replies. */
  authorName: z.string().nullable(),
  /** Plain text, shown as text (links made safe on the page, never markup). */
  body: z.string(),
  createdAt: z.string(),
});
export type ConversationMessage = z.infer<typeof conversationMessageSchema>;

/** What GET /api/support/conversation answers (and each page renders from). */
export const conversationViewSchema = z.object({
  id: z.string(),
  category: z.string(),
  status: z.enum(["open", "resolved"]),
  /** Whether team replies can reach this page (false while the Discord bot cannot read its threads). */
  repliesLive: z.boolean(),
  messages: z.array(conversationMessageSchema),
});
export type ConversationView = z.infer<typeof conversationViewSchema>;

/** A visitor's message: the same checks as an answer in the questionnaire. */
export const visitorMessageSchema = z.object({
  text: z
    .string({ message: "Messages must be text" })
    .trim()
    .min(1, { message: "Messages cannot be empty" })
    .max(MAX_MESSAGE_LENGTH, { message: `Messages are at most ${MAX_MESSAGE_LENGTH} characters` })
    .refine((text) => text.isWellFormed(), { message: "Messages cannot contain broken characters" }),
});

/** A conversation as a signed-in buyer's /orders page lists it (the address they gave as their last answer). */
export interface BuyerConversation {
  id: string;
  category: string;
  /** The category in the page's language (translated on the server, so the page ships no chat messages). */
  categoryName: string;
  status: "open" | "resolved";
  createdAt: string;
  lastMessageAt: string;
}

/** Whether the page's cookies (`document.cookie`) carry the hint that this browser has a conversation. */
export function hasConversationHint(documentCookie: string): boolean {
  return documentCookie.split(";").some((part) => part.trim() === `${CONVERSATION_HINT_COOKIE}=1`);
}
