// What the chat says, as interface messages (docs/i18n.md). support-chat.ts keeps the English originals without
// Lingui's macros: the server, the operator CLI and the tests read them, and the support channel repeats them.
import type { I18n, MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { ConversationMessageError } from "~/features/support-conversation/conversation-client";
import {
  type ChatMessage,
  type ChatState,
  PLACEHOLDER_ANSWERING,
  PLACEHOLDER_BEFORE_CATEGORY,
  placeholderFor,
} from "./conversation";
import {
  CLOSING_MESSAGES,
  GREETING,
  SUPPORT_CATEGORIES,
  SUPPORT_QUESTIONS,
  type SupportCategory,
} from "./support-chat";
import { SupportRequestError } from "./support-chat-api";

/** Each category as the visitor sees it; the category itself (what the request carries) stays its English name. */
export const CATEGORY_NAMES: Record<SupportCategory, MessageDescriptor> = {
  "Product Support": msg({ message: "Product Support", comment: "Support chat: a kind of request the visitor picks" }),
  "Purchase Support": msg({
    message: "Purchase Support",
    comment: "Support chat: a kind of request the visitor picks",
  }),
  "Key Reset": msg({ message: "Key Reset", comment: "Support chat: a kind of request the visitor picks" }),
};

const QUESTIONS: Record<SupportCategory, readonly MessageDescriptor[]> = {
  "Product Support": [
    msg`Which product are you having issues with?`,
    msg`Please describe the issue you are experiencing.`,
    msg`What steps have you already tried to solve it?`,
    msg`What is your email address or chat username, so we can reach you?`,
  ],
  "Purchase Support": [
    msg`Which product are you trying to purchase?`,
    msg`Which payment method are you using?`,
    msg`Please describe the issue you are experiencing.`,
    msg`What is your email address or chat username, so we can reach you?`,
  ],
  "Key Reset": [
    msg`Which product key needs to be reset?`,
    msg`What is the reason for the reset?`,
    msg`What is your email address or chat username, so we can reach you?`,
  ],
};

const SUBMITTED = msg`Thank you for contacting support! Your request has been submitted and our team will respond soon.`;
const CLOSINGS: Record<SupportCategory, MessageDescriptor> = {
  "Key Reset": msg`Thank you! Your key reset request has been submitted. Your key will usually be reset in the next 1 - 2 hours.`,
  "Product Support": SUBMITTED,
  "Purchase Support": SUBMITTED,
};

const PLACEHOLDERS: Record<string, MessageDescriptor> = {
  [PLACEHOLDER_BEFORE_CATEGORY]: msg`Select category first...`,
  [PLACEHOLDER_ANSWERING]: msg`Type your answer...`,
};

/**
 * Our lines by the English text the conversation keeps (and the channel repeats): a stored chat shows in whichever
 * language the page is in, also after the visitor switches language mid-conversation.
 */
export const CHAT_LINES: ReadonlyMap<string, MessageDescriptor> = new Map([
  [GREETING, msg`Welcome to Kestrel Software support! Please select a support category below.`],
  ...SUPPORT_CATEGORIES.flatMap((category) =>
    QUESTIONS[category].map((line, i): [string, MessageDescriptor] => [SUPPORT_QUESTIONS[category][i] ?? "", line]),
  ),
  ...SUPPORT_CATEGORIES.map((category): [string, MessageDescriptor] => [
    CLOSING_MESSAGES[category],
    CLOSINGS[category],
  ]),
]);

/**
 * A message as the page shows it: our lines and the visitor's category choice in the page's language, the visitor's
 * answers as typed. A line this release no longer knows (a chat stored by an older one) shows as it was stored.
 */
export function shownText(i18n: I18n, state: ChatState, message: ChatMessage): string {
  if (message.isUser) {
    // The visitor's first message is always their category choice.
    const isChoice = state.messages.find((m) => m.isUser)?.id === message.id;
    return isChoice && state.category !== null ? i18n._(CATEGORY_NAMES[state.category]) : message.content;
  }
  const line = CHAT_LINES.get(message.content);
  return line ? i18n._(line) : message.content;
}

/** The answer box's hint, in the page's language. */
export function shownPlaceholder(i18n: I18n, state: ChatState): string {
  const english = placeholderFor(state);
  const placeholder = PLACEHOLDERS[english];
  return placeholder ? i18n._(placeholder) : english;
}

/**
 * Why sending failed, in the page's language (the server's `{error}` is English and stays in the log): the visitor
 * who sent too many is told to wait rather than to retry at once.
 */
export function sendFailureText(i18n: I18n, error: unknown): string {
  if (error instanceof SupportRequestError && error.status === 429)
    return i18n._(msg`Too many support requests. Please wait a few minutes and try again.`);
  return i18n._(msg`Failed to send message. Please try again.`);
}

/** Why a message in the conversation was not taken, in the page's language (the draft stays in the box). */
export function conversationSendFailureText(i18n: I18n, error: unknown): string {
  const status = error instanceof ConversationMessageError ? error.status : 0;
  if (status === 429) return i18n._(msg`Too many messages. Please wait a minute and try again.`);
  if (status === 409) return i18n._(msg`This conversation is resolved. Start a new request to write to us again.`);
  if (status === 403 || status === 404)
    return i18n._(msg`This conversation cannot be found in this browser any more. Start a new request.`);
  return i18n._(msg`Failed to send message. Please try again.`);
}
