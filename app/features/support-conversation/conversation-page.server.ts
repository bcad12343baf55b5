// What /support/conversation loads and what its answer form does: the thin route calls these (issue 30).
import { data, redirect } from "react-router";
import { isOwnOrigin, readSmallForm } from "~/platform/form-request.server";
import { cookieValue } from "~/platform/form-input";
import { localeOfRequest } from "~/features/i18n/locale.server";
import { localizedPath } from "~/features/i18n/locales";
import { getDb, pageDatabaseWork } from "~/platform/db.server";
import { createRateLimiter, type RateLimiter } from "~/platform/rate-limit.server";
import { VISITOR_MESSAGE_LIMITS } from "./conversation.api.server";
import type { ConversationPageNotice } from "./conversation-page";
import {
  type ConversationRow,
  findConversationByLinkKey,
  findConversationByToken,
  issueConversationKey,
  markVisitorPresent,
} from "./conversation-store.server";
import {
  addVisitorMessage,
  clearedConversationHintCookie,
  conversationCookies,
  conversationHintCookie,
  conversationView,
} from "./support-conversation.server";
import {
  CONVERSATION_COOKIE,
  CONVERSATION_PATH,
  hasConversationHint,
  LINK_TOKEN_PARAM,
  MAX_MESSAGE_LENGTH,
  visitorMessageSchema,
} from "./support-conversation";

const NO_STORE = { "Cache-Control": "no-store" };
/** The answer form carries one message (at most MAX_MESSAGE_LENGTH characters, up to 4 bytes each) and little else. */
const MAX_FORM_BYTES = 16 * 1024;

function pagePath(request: Request): string {
  return localizedPath(CONVERSATION_PATH, localeOfRequest(request));
}

function isHttps(request: Request): boolean {
  return new URL(request.url).protocol === "https:";
}

async function conversationOfBrowser(request: Request): Promise<ConversationRow | undefined> {
  return findConversationByToken(getDb().db, cookieValue(request.headers.get("Cookie"), CONVERSATION_COOKIE));
}

/**
 * The page: this browser's conversation (its cookie), everything shown counting as seen; a private link's `?key=`
 * is swapped for a new browser key (the cookie) and the browser sent on to the address without it. Neither: 404.
 */
export async function loadConversationPage(request: Request) {
  const key = new URL(request.url).searchParams.get(LINK_TOKEN_PARAM);
  if (key !== null) {
    const opened = await pageDatabaseWork(async () => {
      const { db } = getDb();
      const conversation = await findConversationByLinkKey(db, key);
      return conversation ? issueConversationKey(db, conversation.id, "browser") : undefined;
    });
    if (opened === undefined) return data({ view: null }, { status: 404, headers: NO_STORE });
    const headers = new Headers(NO_STORE);
    for (const cookie of conversationCookies(opened, isHttps(request))) headers.append("Set-Cookie", cookie);
    return redirect(pagePath(request), { status: 303, headers });
  }
  let proveAddress = false;
  const view = await pageDatabaseWork(async () => {
    const conversation = await conversationOfBrowser(request);
    if (!conversation) return null;
    // An address not proven yet: signing in at /orders with it in this browser proves it (issue 42).
    proveAddress = conversation.visitor_email !== null && conversation.visitor_email_proven_at === null;
    const shown = await conversationView(conversation);
    await markVisitorPresent(getDb().db, conversation.id, shown.messages.at(-1)?.seq);
    return shown;
  });
  const headers = new Headers(NO_STORE);
  // The chat's hint follows what the key opens: set for a key from before the hint, cleared for a key that opens none.
  const hinted = hasConversationHint(request.headers.get("Cookie") ?? "");
  if (view && !hinted) headers.append("Set-Cookie", conversationHintCookie(isHttps(request)));
  if (!view && hinted) headers.append("Set-Cookie", clearedConversationHintCookie(isHttps(request)));
  return data({ view, proveAddress }, { status: view ? 200 : 404, headers });
}

/** A refused message comes back with the page (its draft too, so nothing typed is lost without JavaScript). */
function answer(
  notice: ConversationPageNotice,
  status: number,
  headers: Record<string, string> = {},
  draft: string | null = null,
) {
  return data({ notice, draft }, { status, headers: { ...NO_STORE, ...headers } });
}

/** The form spends the same limits as the chat's messages (shared through Redis when the shop has it). */
let formLimits: { conversation: RateLimiter; address: RateLimiter } | undefined;
function messageLimits() {
  formLimits ??= {
    conversation: createRateLimiter(VISITOR_MESSAGE_LIMITS.conversation),
    address: createRateLimiter(VISITOR_MESSAGE_LIMITS.address),
  };
  return formLimits;
}

/** The answer form: the visitor's message joins the conversation (and its thread), then the page shows it. */
export async function conversationPageAction(request: Request, clientAddress: string) {
  if (!isOwnOrigin(request)) return answer("forbidden-origin", 403);
  const byAddress = await messageLimits().address.consume(clientAddress);
  if (!byAddress.ok) return answer("too-many", 429, { "Retry-After": String(byAddress.retryAfterSeconds) });
  const form = await readSmallForm(request, MAX_FORM_BYTES);
  if (!form) return answer("bad-request", 400);
  const written = form.get("text");
  const draft = typeof written === "string" ? written.slice(0, MAX_MESSAGE_LENGTH * 2) : null;
  const message = visitorMessageSchema.safeParse({ text: written ?? "" });
  if (!message.success) return answer("bad-message", 400, {}, draft);
  const outcome = await pageDatabaseWork(async () => {
    const conversation = await conversationOfBrowser(request);
    if (!conversation) return "no-conversation" as const;
    if (conversation.status === "resolved") return "resolved" as const;
    const spent = await messageLimits().conversation.consume(conversation.id);
    if (!spent.ok) return spent;
    await addVisitorMessage(conversation, message.data.text);
    return "sent" as const;
  });
  if (outcome === "no-conversation") return answer(outcome, 404, {}, draft);
  if (outcome === "resolved") return answer(outcome, 409, {}, draft);
  if (typeof outcome === "object")
    return answer("too-many", 429, { "Retry-After": String(outcome.retryAfterSeconds) }, draft);
  return redirect(pagePath(request), { status: 303, headers: NO_STORE });
}
