// What /orders loads and what its forms do: thin routes call these two (issue 29).
import { createContext, data, redirect, redirectDocument, type RouterContextProvider } from "react-router";
import { localeOfRequest } from "~/features/i18n/locale.server";
import { i18nFor } from "~/features/i18n/i18n.server";
import { type AnyLocale, localizedPath } from "~/features/i18n/locales";
import { isSupportCategory } from "~/features/support-chat/support-chat";
import { CATEGORY_NAMES } from "~/features/support-chat/support-chat-messages";
import { ringConversation } from "~/features/support-conversation/conversation-doorbell.server";
import {
  conversationsForEmail,
  findConversation,
  issueConversationKey,
  proveVisitorEmail,
} from "~/features/support-conversation/conversation-store.server";
import {
  type BuyerConversation,
  CONVERSATION_COOKIE,
  CONVERSATION_PATH,
} from "~/features/support-conversation/support-conversation";
import { conversationCookies } from "~/features/support-conversation/support-conversation.server";
import { releasesForOrders } from "~/features/releases/order-releases.server";
import { getDb, pageDatabaseWork } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { isOwnOrigin, readSmallForm } from "~/platform/form-request.server";
import { cookieValue, emailSchema } from "~/platform/form-input";
import { logger } from "~/platform/logger.server";
import { clientAddressContext } from "~/platform/request-context";
import type { BuyerOrderSource } from "./buyer-orders";
import { BuyerOrdersUnavailableError, buyerOrderSource } from "./buyer-orders.server";
import type { OrdersView as OrdersPageView } from "./orders-page";
import {
  CODE_TTL_MS,
  codeSchema,
  PENDING_CODE_COOKIE,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  type SignInNotice,
} from "./sign-in";
import { codeMailState, recordSignIn, requestSignInCode } from "./sign-in.server";
import {
  buyerSessionEmail,
  checkSignInCode,
  createBuyerSession,
  endBuyerSession,
  liveSignInCode,
  signInCodeEmail,
  spendSignInLink,
} from "./sign-in-store.server";

/** Where the buyer's orders come from: a test puts a double here; unset, `buyerOrderSource()` (the demo or the shop). */
export const buyerOrderSourceContext = createContext<BuyerOrderSource | null>(null);

function sourceOf(context: Readonly<RouterContextProvider>): BuyerOrderSource {
  return context.get(buyerOrderSourceContext) ?? buyerOrderSource();
}

const NO_STORE = { "Cache-Control": "no-store" };

function secureCookies(request: Request): boolean {
  return new URL(getEnv().PUBLIC_URL).protocol === "https:" || new URL(request.url).protocol === "https:";
}

function setCookie(request: Request, name: string, value: string, maxAgeMs: number): string {
  const secure = secureCookies(request) ? "; Secure" : "";
  return `${name}=${value}; Path=/; Max-Age=${Math.floor(maxAgeMs / 1000)}; HttpOnly; SameSite=Lax${secure}`;
}

function clearCookie(request: Request, name: string): string {
  return setCookie(request, name, "", 0);
}

function ordersPath(request: Request): string {
  return localizedPath("/orders", localeOfRequest(request));
}

/** The page: signed in (the address's orders), waiting for a code, or the address form. Spends a `?sign-in=` link. */
export async function loadOrdersPage(
  request: Request,
  context: Readonly<RouterContextProvider>,
  options: { orderId?: string } = {},
) {
  const url = new URL(request.url);
  const cookies = request.headers.get("Cookie");
  const link = url.searchParams.get("sign-in");
  if (link !== null) return pageDatabaseWork(() => spendLink(request, link, cookies));
  const notice: SignInNotice | null = url.searchParams.get("link") === "expired" ? { kind: "link-expired" } : null;
  const view = await pageDatabaseWork(async (): Promise<OrdersPageView> => {
    const { db } = getDb();
    const session = cookieValue(cookies, SESSION_COOKIE);
    const email = session ? await buyerSessionEmail(db, session) : undefined;
    if (email) {
      const source = sourceOf(context);
      // An order's own page lists no conversations; /orders lists the address's, whatever the shop answers.
      const conversations =
        options.orderId === undefined ? await buyerConversations(db, email, localeOfRequest(request)) : [];
      const signedIn = { state: "signed-in" as const, email, conversations, notice };
      // The shop cannot be read (no API key, down, busy): the buyer is told to come back, never "no orders".
      if (source.ordersAvailable === false) return { ...signedIn, orders: [], unavailable: true };
      try {
        const orders = await source.ordersOf(email);
        const releases = await releasesForOrders(
          db,
          email,
          orders.map((o) => o.id),
          { locale: localeOfRequest(request), every: options.orderId !== undefined },
        );
        return {
          ...signedIn,
          orders: orders.map((o) => (releases.has(o.id) ? { ...o, releases: releases.get(o.id) } : o)),
          unavailable: false,
        };
      } catch (error) {
        if (!(error instanceof BuyerOrdersUnavailableError)) throw error;
        logger.warn({ err: error.message }, "orders page: the shop's invoices could not be read");
        return { ...signedIn, orders: [], unavailable: true };
      }
    }
    const pending = cookieValue(cookies, PENDING_CODE_COOKIE);
    const code = pending ? await liveSignInCode(db, pending) : undefined;
    if (code) return { state: "code-sent", mail: await codeMailState(code.mailId), notice };
    return { state: "signed-out", notice };
  });
  if (options.orderId !== undefined) {
    // Only an order of the proven address is ever shown; any other id, or no session, is a page that does not exist.
    const order = view.state === "signed-in" ? view.orders.find((o) => o.id === options.orderId) : undefined;
    if (!order) throw data(null, { status: 404, headers: NO_STORE });
    return data({ view: { ...view, orders: [order] } }, { headers: NO_STORE });
  }
  return data({ view }, { headers: NO_STORE });
}

/** The support conversations the buyer started with this address as their last answer, newest first. */
async function buyerConversations(db: Parameters<typeof conversationsForEmail>[0], email: string, locale: AnyLocale) {
  const i18n = i18nFor(locale);
  return (await conversationsForEmail(db, email)).map(
    (c): BuyerConversation => ({
      id: c.id,
      category: c.category,
      categoryName: isSupportCategory(c.category) ? i18n._(CATEGORY_NAMES[c.category]) : c.category,
      status: c.status,
      createdAt: c.created_at,
      lastMessageAt: c.last_message_at,
    }),
  );
}

/** A sign-in in the browser that holds a support conversation proves that conversation's address, when it is this one. */
async function proveConversationOf(cookies: string | null, email: string) {
  const proven = await proveVisitorEmail(getDb().db, cookieValue(cookies, CONVERSATION_COOKIE), email);
  // The console's open page of it shows the orders now.
  if (proven) ringConversation(proven);
}

async function spendLink(request: Request, link: string, cookies: string | null) {
  const path = ordersPath(request);
  const { db } = getDb();
  const email = /^[A-Za-z0-9_-]{16,128}$/.test(link) ? await spendSignInLink(db, { link }) : undefined;
  if (!email) return redirect(`${path}?link=expired`, { headers: NO_STORE });
  const session = await createBuyerSession(db, { email, replacing: cookieValue(cookies, SESSION_COOKIE) });
  await proveConversationOf(cookies, email);
  recordSignIn("link", email);
  const headers = new Headers(NO_STORE);
  headers.append("Set-Cookie", setCookie(request, SESSION_COOKIE, session, SESSION_TTL_MS));
  headers.append("Set-Cookie", clearCookie(request, PENDING_CODE_COOKIE));
  return redirect(path, { headers });
}

/** A form's answer keeps its own headers (Retry-After on a 429); the page is never stored either way. */
export function ordersPageHeaders(actionHeaders: Headers, loaderHeaders: Headers): Headers {
  const headers = new Headers(loaderHeaders);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  headers.set("Cache-Control", "no-store");
  return headers;
}

function answer(notice: SignInNotice, status: number, headers: HeadersInit = {}) {
  return data({ notice }, { status, headers: { ...NO_STORE, ...headers } });
}

/**
 * Opens one of the signed-in buyer's support conversations on this browser: a new browser key in the conversation's
 * cookie, then the conversation page. A conversation of any other address, or no session, is a page that does not exist.
 */
async function openBuyerConversation(request: Request, form: FormData) {
  const { db } = getDb();
  const session = cookieValue(request.headers.get("Cookie"), SESSION_COOKIE);
  const id = form.get("conversation");
  const browserKey = await pageDatabaseWork(async () => {
    const email = session ? await buyerSessionEmail(db, session) : undefined;
    if (!email || typeof id !== "string" || id.length > 64) return undefined;
    const conversation = await findConversation(db, id);
    if (conversation?.visitor_email !== email.toLowerCase()) return undefined;
    return issueConversationKey(db, conversation.id, "browser");
  });
  if (!browserKey) throw data(null, { status: 404, headers: NO_STORE });
  const headers = new Headers(NO_STORE);
  for (const cookie of conversationCookies(browserKey, new URL(request.url).protocol === "https:"))
    headers.append("Set-Cookie", cookie);
  return redirect(localizedPath(CONVERSATION_PATH, localeOfRequest(request)), { status: 303, headers });
}

/** A "Sign in to download" link's file (issue 45): only a download path of this site, never anywhere else. */
export function downloadAfterSignIn(next: FormDataEntryValue | null): string | undefined {
  if (typeof next !== "string" || next.length > 400) return undefined;
  return /^\/(?:[a-z]{2}(?:-[a-z]{2})?\/)?downloads\/[A-Za-z0-9._~%+-]+\/[A-Za-z0-9._~%+-]+\/[A-Za-z0-9._~%+-]+$/.test(
    next,
  )
    ? next
    : undefined;
}

/** The page's forms: send-code, check-code, start-over (another address), sign-out and open-conversation. */
export async function ordersPageAction(request: Request, context: Readonly<RouterContextProvider>) {
  if (!isOwnOrigin(request)) return answer({ kind: "forbidden-origin" }, 403);
  const form = await readSmallForm(request);
  if (!form) return answer({ kind: "bad-request" }, 400);
  const intent = form.get("intent");
  const cookies = request.headers.get("Cookie");
  const { db } = getDb();

  if (intent === "send-code" || intent === "resend") {
    // A new code for the address typed, or (resend) for the one this browser's last code went to.
    const pending = cookieValue(cookies, PENDING_CODE_COOKIE);
    const earlier =
      intent === "resend" && pending ? await pageDatabaseWork(() => signInCodeEmail(db, pending)) : undefined;
    const email = emailSchema.safeParse(intent === "resend" ? (earlier ?? "") : (form.get("email") ?? ""));
    if (!email.success) return answer({ kind: intent === "resend" ? "code-expired" : "bad-email" }, 400);
    const result = await pageDatabaseWork(() =>
      requestSignInCode({
        email: email.data,
        locale: localeOfRequest(request),
        clientAddress: context.get(clientAddressContext),
        source: sourceOf(context),
      }),
    );
    if ("limited" in result) {
      const { retryAfterSeconds } = result.limited;
      return answer({ kind: "too-many", retryAfterSeconds }, 429, { "Retry-After": String(retryAfterSeconds) });
    }
    return answer({ kind: "code-sent" }, 200, {
      "Set-Cookie": setCookie(request, PENDING_CODE_COOKIE, result.sent.id, CODE_TTL_MS),
    });
  }

  if (intent === "check-code") {
    const code = codeSchema.safeParse(form.get("code") ?? "");
    if (!code.success) return answer({ kind: "bad-code" }, 400);
    const pending = cookieValue(cookies, PENDING_CODE_COOKIE);
    if (!pending) return answer({ kind: "code-expired" }, 400);
    const check = await pageDatabaseWork(() => checkSignInCode(db, { id: pending, code: code.data }));
    if (!check.ok) {
      return check.triesLeft > 0
        ? answer({ kind: "wrong-code", triesLeft: check.triesLeft }, 400)
        : answer({ kind: "code-expired" }, 400);
    }
    const session = await pageDatabaseWork(async () => {
      const session = await createBuyerSession(db, {
        email: check.email,
        replacing: cookieValue(cookies, SESSION_COOKIE),
      });
      await proveConversationOf(cookies, check.email);
      return session;
    });
    recordSignIn("code", check.email);
    const headers = new Headers(NO_STORE);
    headers.append("Set-Cookie", setCookie(request, SESSION_COOKIE, session, SESSION_TTL_MS));
    headers.append("Set-Cookie", clearCookie(request, PENDING_CODE_COOKIE));
    // A file is no page of the router: the browser goes to it as a document, and the download starts.
    const next = downloadAfterSignIn(form.get("next"));
    if (next) return redirectDocument(next, { status: 303, headers });
    return redirect(ordersPath(request), { status: 303, headers });
  }

  if (intent === "start-over") {
    return answer({ kind: "signed-out" }, 200, { "Set-Cookie": clearCookie(request, PENDING_CODE_COOKIE) });
  }

  if (intent === "sign-out") {
    const session = cookieValue(cookies, SESSION_COOKIE);
    if (session) await pageDatabaseWork(() => endBuyerSession(db, session));
    const headers = new Headers(NO_STORE);
    headers.append("Set-Cookie", clearCookie(request, SESSION_COOKIE));
    return redirect(`${ordersPath(request)}`, { status: 303, headers });
  }

  if (intent === "open-conversation") return openBuyerConversation(request, form);

  // "Try again" for a key that could not be loaded: back to the page it was on, whose loader asks the shop again.
  if (intent === "retry-delivered") {
    const back = form.get("back");
    const list = ordersPath(request);
    const target =
      typeof back === "string" &&
      back.length <= 200 &&
      (back === list || /^\/(?:[a-z-]+\/)?orders\/[\w-]{1,64}$/.test(back))
        ? back
        : list;
    return redirect(target, { status: 303, headers: NO_STORE });
  }

  return answer({ kind: "bad-request" }, 400);
}
