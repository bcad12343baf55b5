import type { AnyLocale } from "~/features/i18n/locales";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import type { BuyerOrderSource } from "~/features/buyer-orders/buyer-orders";
import { buyerOrderSourceContext, loadOrdersPage, ordersPageAction } from "~/features/buyer-orders/orders-page.server";
import { SESSION_COOKIE } from "~/features/buyer-orders/sign-in";
import { createBuyerSession } from "~/features/buyer-orders/sign-in-store.server";
import {
  findConversationByToken,
  resolveConversation,
} from "~/features/support-conversation/conversation-store.server";
import { CONVERSATION_COOKIE } from "~/features/support-conversation/support-conversation";
import { addTeamReply } from "~/features/support-conversation/support-conversation.server";
import { acceptSupportRequest } from "~/features/support-relay/support-relay.server";
import { getDb } from "~/platform/db.server";
import { clientAddressContext } from "~/platform/request-context";
import { testDialects } from "../support/databases";
import { useAppEnvironment } from "../support/test-environment";

const dialects = await testDialects();
const ORIGIN = "http://shop.test";

/** No orders: the listing of conversations does not depend on the shop. */
const source: BuyerOrderSource = { ordersOf: async () => [] };

interface ListedConversation {
  id: string;
  category: string;
  categoryName: string;
  status: string;
  createdAt: string;
  lastMessageAt: string;
}

// The signed-in buyer's support conversations on /orders, as React Router calls the loader and action.
describe.each(dialects)("the orders page's support conversations on %s", (dialect) => {
  const context = () => {
    const provider = new RouterContextProvider();
    provider.set(buyerOrderSourceContext, source);
    provider.set(clientAddressContext, "10.0.0.1");
    return provider;
  };
  const sessionOf = async (email: string) => `${SESSION_COOKIE}=${await createBuyerSession(getDb().db, { email })}`;
  const open = (conversation: string, cookie: string, { path = "/orders", origin = ORIGIN } = {}) =>
    ordersPageAction(
      new Request(`${ORIGIN}${path}`, {
        method: "POST",
        headers: { Origin: origin, "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
        body: new URLSearchParams({ intent: "open-conversation", conversation }).toString(),
      }),
      context(),
    );
  const listed = async (cookie: string, path = "/orders") => {
    const page = (await loadOrdersPage(
      new Request(`${ORIGIN}${path}`, { headers: { Cookie: cookie } }),
      context(),
    )) as {
      data: { view: { state: string; conversations?: ListedConversation[] } };
    };
    return page.data.view;
  };
  const request = (contact: string, locale: AnyLocale = "en") =>
    acceptSupportRequest({ category: "Key Reset", answers: ["Kestrel Vault", "New PC", contact], locale });

  useAppEnvironment(dialect, { PUBLIC_URL: ORIGIN });

  it("lists the signed-in address's conversations, newest first, with category, dates and status", async () => {
    const older = await request("Lister@Example.com", "de");
    const newer = await request("lister@example.com");
    await request("someone-else@example.com");
    await request("@lister");
    const reply = await addTeamReply(getDb().db, newer.conversation.id, { authorName: "Ada", body: "Done." });
    await resolveConversation(getDb().db, older.conversation.id);

    const view = await listed(await sessionOf("lister@example.com"), "/de/orders");
    expect(view.state).toBe("signed-in");
    expect(view.conversations).toEqual([
      {
        id: newer.conversation.id,
        category: "Key Reset",
        categoryName: "Schlüssel-Reset",
        status: "open",
        createdAt: newer.conversation.created_at,
        lastMessageAt: reply?.created_at,
      },
      {
        id: older.conversation.id,
        category: "Key Reset",
        categoryName: "Schlüssel-Reset",
        status: "resolved",
        createdAt: older.conversation.created_at,
        lastMessageAt: older.conversation.last_message_at,
      },
    ]);
    // Signed out: nothing of anyone's conversations.
    expect(await listed("")).toEqual({ state: "signed-out", notice: null });
  });

  it("opens a conversation of the signed-in address: a new browser key in the cookie, then the conversation page", async () => {
    const accepted = await request("opener@example.com", "es");
    const answer = (await open(accepted.conversation.id, await sessionOf("opener@example.com"), {
      path: "/es/orders",
    })) as Response;
    expect(answer.status).toBe(303);
    expect(answer.headers.get("Location")).toBe("/es/support/conversation");
    expect(answer.headers.get("Cache-Control")).toBe("no-store");
    const cookie = answer.headers.getSetCookie().find((c) => c.startsWith(`${CONVERSATION_COOKIE}=`)) ?? "";
    expect(cookie).toMatch(/; HttpOnly; SameSite=Lax/);
    const token = /^[^=]+=([^;]+)/.exec(cookie)?.[1];
    // A key of its own: not the one the visitor's first browser holds, and it opens this conversation.
    expect(token).not.toBe(accepted.token);
    expect((await findConversationByToken(getDb().db, token))?.id).toBe(accepted.conversation.id);
  });

  it("answers 404 for another address's conversation, an unknown id or no session, and 403 from another origin", async () => {
    const accepted = await request("owner@example.com");
    const stranger = await sessionOf("stranger@example.com");
    for (const attempt of [
      () => open(accepted.conversation.id, stranger),
      () => open("no-such-conversation", stranger),
      () => open(accepted.conversation.id, ""),
      () => open(accepted.conversation.id, `${SESSION_COOKIE}=forged-session-value`),
    ]) {
      await expect(attempt()).rejects.toMatchObject({ init: { status: 404 } });
    }
    const foreign = (await open(accepted.conversation.id, await sessionOf("owner@example.com"), {
      origin: "https://evil.example",
    })) as { init: { status: number }; data: { notice: { kind: string } } };
    expect(foreign.init.status).toBe(403);
    expect(foreign.data.notice.kind).toBe("forbidden-origin");
    const keys = await getDb()
      .db.selectFrom("support_conversation_keys")
      .select("purpose")
      .where("conversation_id", "=", accepted.conversation.id)
      .execute();
    expect(keys.map((k) => k.purpose).sort()).toEqual(["browser", "link"]);
  });
});
