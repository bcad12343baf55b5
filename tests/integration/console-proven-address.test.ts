// Issue 42, "A proven address": a conversation's address is the visitor's own only when they were signed in at
// /orders with it when the request was sent. The console shows that address's orders and keys (each look-up an audit
// entry); for any other it says "Address not verified" and shows no order, no key and no count.
import type { AddressInfo } from "node:net";
import express from "express";
import type { Kysely } from "kysely";
import { RouterContextProvider } from "react-router";
import { describe, expect, it, vi } from "vitest";
import type { BuyerOrder, BuyerOrderSource } from "~/features/buyer-orders/buyer-orders";
import { buyerOrderSourceContext, ordersPageAction } from "~/features/buyer-orders/orders-page.server";
import { listKeptMail } from "~/features/mail/mail-outbox.server";
import { CONVERSATION_COOKIE } from "~/features/support-conversation/support-conversation";
import { createBuyerSession } from "~/features/buyer-orders/sign-in-store.server";
import { SESSION_COOKIE } from "~/features/buyer-orders/sign-in";
import { issueChallenge } from "~/features/captcha/captcha.server";
import { loadConversationPage } from "~/features/console/support/conversation-page.server";
import { inviteStaff } from "~/features/staff/people.server";
import { createSession } from "~/features/staff/sessions.server";
import { SUPPORT_QUESTIONS } from "~/features/support-chat/support-chat";
import { loadConversationPage as loadVisitorPage } from "~/features/support-conversation/conversation-page.server";
import { findConversation } from "~/features/support-conversation/conversation-store.server";
import { createSupportChatApi } from "~/features/support-relay/support-relay.api.server";
import { acceptSupportRequest } from "~/features/support-relay/support-relay.server";
import { getDb } from "~/platform/db.server";
import { clientAddressContext } from "~/platform/request-context";

const getDbForTest = () => getDb().db;
import type { Database } from "../../db/schema";
import { solveCaptchaPayload } from "../support/captcha-solver";
import { testDialects } from "../support/databases";
import { useAppEnvironment } from "../support/test-environment";

const dialects = await testDialects();
const ORIGIN = "http://console.test";
const VICTIM = "victim@example.com";
const VICTIM_KEY = "KEY-VICTIM-4410";

const keyResetAnswers = (email: string) =>
  SUPPORT_QUESTIONS["Key Reset"].map((_, i, all) =>
    i === 0 ? "Kestrel Vault" : i === all.length - 1 ? email : `answer ${i}`,
  );

async function victimOrder(db: Kysely<Database>) {
  await db
    .insertInto("orders")
    .values({
      id: "44444444-4444-4444-8444-444444444444",
      provider: "demo",
      provider_invoice_id: null,
      product_id: 446889,
      variant_id: 652997,
      quantity: 1,
      amount_cents: 2999,
      status: "completed",
      created_at: "2026-11-01T10:00:00.000Z",
      completed_at: "2026-11-01T10:00:00.000Z",
      raw_event_id: null,
      buyer_email: VICTIM,
      delivered_key: VICTIM_KEY,
    })
    .execute();
}

describe.each(dialects)("a conversation's address on %s", (dialect) => {
  const database = useAppEnvironment(dialect, {
    PUBLIC_URL: ORIGIN,
    AUDIT_HASH_KEY: "a-test-key-of-thirty-two-characters",
  });
  const db = () => database().handle.db;

  async function agentCookie(email: string) {
    const { staff } = await inviteStaff(db(), { email, role: "support", by: "cli" });
    return `kestrel-staff=${await createSession(db(), { staffId: staff.id, beganWith: "passkey" })}`;
  }

  async function openInConsole(cookie: string, id: string) {
    const context = new RouterContextProvider();
    context.set(clientAddressContext, "10.0.0.9");
    const page = (await loadConversationPage(
      new Request(`${ORIGIN}/admin/support/${id}`, { headers: { cookie } }),
      context,
      id,
    )) as unknown as {
      data: { conversation: { visitorEmailProven: boolean; orders: Array<{ deliveredKey: string | null }> } };
    };
    return page.data.conversation;
  }

  const lookUps = () =>
    db()
      .selectFrom("audit_log")
      .select(["actor", "target", "detail"])
      .where("action", "=", "orders-looked-up")
      .execute();

  it("shows a stranger's request naming a buyer's address as not verified: no order, no key, no look-up", async () => {
    await victimOrder(db());
    const { conversation } = await acceptSupportRequest(
      { category: "Key Reset", answers: keyResetAnswers(VICTIM), locale: "en" },
      null,
    );
    const cookie = await agentCookie("agent-1@example.com");
    const view = await openInConsole(cookie, conversation.id);
    expect(view.visitorEmailProven).toBe(false);
    expect(view.orders).toEqual([]);
    expect(JSON.stringify(view)).not.toContain(VICTIM_KEY);
    expect(await lookUps()).toEqual([]);
  });

  it("a visitor signed in at /orders with another address proves nothing", async () => {
    const { conversation } = await acceptSupportRequest(
      { category: "Key Reset", answers: keyResetAnswers(VICTIM), locale: "en" },
      "stranger@example.com",
    );
    expect((await findConversation(db(), conversation.id))?.visitor_email_proven_at).toBeNull();
    expect((await openInConsole(await agentCookie("agent-2@example.com"), conversation.id)).orders).toEqual([]);
  });

  it("shows the orders and keys of an address the visitor was signed in with, each look-up in the audit log", async () => {
    const { conversation } = await acceptSupportRequest(
      { category: "Key Reset", answers: keyResetAnswers("Victim@Example.com"), locale: "en" },
      VICTIM,
    );
    const view = await openInConsole(await agentCookie("agent-3@example.com"), conversation.id);
    expect(view.visitorEmailProven).toBe(true);
    expect(view.orders.map((order) => order.deliveredKey)).toEqual([VICTIM_KEY]);
    const entries = await lookUps();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor: "agent-3@example.com", target: expect.stringMatching(/^email:/) });
    expect(JSON.parse(entries[0]?.detail ?? "{}")).toEqual({ conversation: conversation.id });
  });
});

describe.each(dialects)("proving a conversation's address later on %s", (dialect) => {
  useAppEnvironment(dialect, { PUBLIC_URL: ORIGIN });
  const source: BuyerOrderSource = {
    ordersOf: async (email) => (email === VICTIM ? [{ id: "A-1" } as unknown as BuyerOrder] : []),
  };
  const context = () => {
    const provider = new RouterContextProvider();
    provider.set(buyerOrderSourceContext, source);
    provider.set(clientAddressContext, "10.0.0.1");
    return provider;
  };
  const post = (fields: Record<string, string>, cookie: string) =>
    ordersPageAction(
      new Request(`${ORIGIN}/orders`, {
        method: "POST",
        headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
        body: new URLSearchParams(fields).toString(),
      }),
      context(),
    );

  /** Signs in at /orders with the one-time code, in a browser holding `cookie`. */
  async function signIn(email: string, cookie: string) {
    const asked = (await post({ intent: "send-code", email }, cookie)) as { init: { headers: Record<string, string> } };
    const pending = new Headers(asked.init.headers).getSetCookie()[0]?.split(";")[0] ?? "";
    let code = "";
    await vi.waitFor(async () => {
      const text = (await listKeptMail(getDbForTest(), { to: email, limit: 1 }))[0]?.text ?? "";
      code = /(\d{6})/.exec(text)?.[1] ?? "";
      expect(code).not.toBe("");
    });
    const signedIn = (await post({ intent: "check-code", code }, `${cookie}; ${pending}`)) as Response;
    expect(signedIn.status).toBe(303);
  }

  it("proves it when the browser holding the conversation signs in at /orders with that address", async () => {
    const { conversation, token } = await acceptSupportRequest(
      { category: "Key Reset", answers: keyResetAnswers(VICTIM), locale: "en" },
      null,
    );
    const browser = `${CONVERSATION_COOKIE}=${token}`;
    // The visitor's conversation page says how to prove the address until it is proven.
    const hint = async () => {
      const page = (await loadVisitorPage(
        new Request(`${ORIGIN}/support/conversation`, { headers: { cookie: browser } }),
      )) as unknown as { data: { proveAddress: boolean } };
      return page.data.proveAddress;
    };
    expect(await hint()).toBe(true);
    expect((await findConversation(getDbForTest(), conversation.id))?.visitor_email_proven_at).toBeNull();
    await signIn(VICTIM, browser);
    expect((await findConversation(getDbForTest(), conversation.id))?.visitor_email_proven_at).not.toBeNull();
    expect(await hint()).toBe(false);
  });

  it("proves nothing when another browser signs in with the address", async () => {
    const { conversation } = await acceptSupportRequest(
      { category: "Key Reset", answers: keyResetAnswers(VICTIM), locale: "en" },
      null,
    );
    await signIn(VICTIM, "");
    expect((await findConversation(getDbForTest(), conversation.id))?.visitor_email_proven_at).toBeNull();
  });
});

describe("POST /api/support with the buyer's /orders session", () => {
  const database = useAppEnvironment("sqlite", { PUBLIC_URL: ORIGIN });

  async function send(answers: string[], cookie?: string) {
    const app = express();
    app.use("/api", createSupportChatApi());
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/api/support`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
        body: JSON.stringify({
          category: "Key Reset",
          locale: "en",
          answers,
          altcha: await solveCaptchaPayload(await issueChallenge()),
        }),
      });
      expect(res.status).toBe(202);
      const body = (await res.json()) as { conversation: { id: string } };
      return findConversation(database().handle.db, body.conversation.id);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it("proves the address only when the request comes with a session signed in with it", async () => {
    const token = await createBuyerSession(database().handle.db, { email: VICTIM });
    const signedIn = await send(keyResetAnswers(VICTIM), `${SESSION_COOKIE}=${token}`);
    expect(signedIn?.visitor_email_proven_at).not.toBeNull();
    expect((await send(keyResetAnswers(VICTIM)))?.visitor_email_proven_at).toBeNull();
    expect(
      (await send(keyResetAnswers(VICTIM), `${SESSION_COOKIE}=not-a-session`))?.visitor_email_proven_at,
    ).toBeNull();
  });
});
