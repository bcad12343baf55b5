import { BuyerOrdersUnavailableError } from "~/features/buyer-orders/buyer-orders.server";
import { RouterContextProvider } from "react-router";
import { describe, expect, it, vi } from "vitest";
import type { BuyerOrder, BuyerOrderSource } from "~/features/buyer-orders/buyer-orders";
import { buyerOrderSourceContext, loadOrdersPage, ordersPageAction } from "~/features/buyer-orders/orders-page.server";
import { listKeptMail } from "~/features/mail/mail-outbox.server";
import { getDb } from "~/platform/db.server";
import { clientAddressContext } from "~/platform/request-context";
import { testDialects } from "../support/databases";
import { useAppEnvironment } from "../support/test-environment";

const dialects = await testDialects();
const ORIGIN = "http://shop.test";
const BUYER = "buyer@example.com";

const order = (id: string, email: string): BuyerOrder => ({
  id,
  createdAt: "2026-11-20T10:00:00.000Z",
  items: [{ productName: "Kestrel Studio", durationLabel: "Lifetime", quantity: 1 }],
  amount: "299.93",
  currency: "USD",
  status: { kind: "paid" },
  invoiceUrl: `https://shop.example/invoice/${id}`,
  delivered: [{ kind: "key", value: `KEY-OF-${email}` }],
});

/** A test double of the shop: two addresses with one order each. */
const source: BuyerOrderSource = {
  ordersOf: vi.fn(async (email: string) =>
    email === BUYER ? [order("A-1", BUYER)] : email === "other@example.com" ? [order("B-1", email)] : [],
  ),
};

// The /orders page's loader and action as React Router calls them, against a test double source, on both databases.
describe.each(dialects)("the orders page on %s", (dialect) => {
  const context = (client = "10.0.0.1") => {
    const provider = new RouterContextProvider();
    provider.set(buyerOrderSourceContext, source);
    provider.set(clientAddressContext, client);
    return provider;
  };
  const post = (fields: Record<string, string>, cookie = "", path = "/orders") =>
    new Request(`${ORIGIN}${path}`, {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
      body: new URLSearchParams(fields).toString(),
    });
  const get = (path: string, cookie = "") => new Request(`${ORIGIN}${path}`, { headers: { Cookie: cookie } });
  const cookiesOf = (headers: Headers) =>
    headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .filter((c) => !c?.endsWith("="))
      .join("; ");

  useAppEnvironment(dialect, { PUBLIC_URL: ORIGIN });

  async function askForCode(email: string, client?: string) {
    const answer = (await ordersPageAction(post({ intent: "send-code", email }), context(client))) as {
      data: { notice: { kind: string } };
      init: { status?: number; headers: Record<string, string> };
    };
    return answer;
  }

  async function codeMailedTo(email: string): Promise<string> {
    let text = "";
    await vi.waitFor(async () => {
      text = (await listKeptMail(getDb().db, { to: email, limit: 1 }))[0]?.text ?? "";
      expect(text).toMatch(/\d{6}/);
    });
    return /(\d{6})/.exec(text)?.[1] ?? "";
  }

  it("answers a known and an unknown address alike, mails only the known one, and signs in with the code", async () => {
    const known = await askForCode(BUYER);
    const unknown = await askForCode("nobody@example.com");
    expect(known.data).toEqual({ notice: { kind: "code-sent" } });
    expect(unknown.data).toEqual(known.data);
    expect(unknown.init.status).toBe(known.init.status);
    const code = await codeMailedTo(BUYER);
    expect(await listKeptMail(getDb().db, { to: "nobody@example.com" })).toEqual([]);

    const pending = new Headers(known.init.headers).getSetCookie()[0]?.split(";")[0] ?? "";
    const signedIn = (await ordersPageAction(post({ intent: "check-code", code }, pending), context())) as Response;
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get("Location")).toBe("/orders");
    const session = cookiesOf(signedIn.headers);
    expect(session).toMatch(/^kestrel_orders_session=[\w-]{43}$/);

    const page = (await loadOrdersPage(get("/orders", session), context())) as {
      data: { view: { state: string; orders: BuyerOrder[] } };
      init: { headers: Record<string, string> };
    };
    expect(page.data.view.state).toBe("signed-in");
    expect(page.data.view.orders.map((o) => o.id)).toEqual(["A-1"]);
    expect(new Headers(page.init.headers).get("Cache-Control")).toBe("no-store");

    // Another address's order is a page that does not exist, and nothing of it is returned.
    await expect(loadOrdersPage(get("/orders/B-1", session), context(), { orderId: "B-1" })).rejects.toMatchObject({
      init: { status: 404 },
    });
    const own = (await loadOrdersPage(get("/orders/A-1", session), context(), { orderId: "A-1" })) as {
      data: { view: { orders: BuyerOrder[] } };
    };
    expect(own.data.view.orders.map((o) => o.id)).toEqual(["A-1"]);

    // The shop cannot be read: the page says so instead of "no orders", and does not fail.
    const down = new RouterContextProvider();
    down.set(clientAddressContext, "10.0.0.1");
    down.set(buyerOrderSourceContext, {
      ordersOf: async () => {
        throw new BuyerOrdersUnavailableError("the shop answered 503");
      },
    });
    const unreadable = (await loadOrdersPage(get("/orders", session), down)) as {
      data: { view: { state: string; orders: BuyerOrder[]; unavailable: boolean } };
    };
    expect(unreadable.data.view).toMatchObject({ state: "signed-in", orders: [], unavailable: true });
    down.set(buyerOrderSourceContext, { ordersAvailable: false, ordersOf: async () => [] });
    const noKey = (await loadOrdersPage(get("/orders", session), down)) as { data: { view: { unavailable: boolean } } };
    expect(noKey.data.view.unavailable).toBe(true);

    const out = (await ordersPageAction(post({ intent: "sign-out" }, session), context())) as Response;
    expect(out.status).toBe(303);
    const after = (await loadOrdersPage(get("/orders", session), context())) as { data: { view: { state: string } } };
    expect(after.data.view.state).toBe("signed-out");
  });

  it("answers 400 for a malformed address, a 7-digit code and 10 KB; 403 without an origin; 429 past the limits", async () => {
    const bad = (await ordersPageAction(post({ intent: "send-code", email: "nope" }), context())) as {
      init: { status: number };
    };
    expect(bad.init.status).toBe(400);
    const seven = (await ordersPageAction(post({ intent: "check-code", code: "1234567" }), context())) as {
      init: { status: number };
    };
    expect(seven.init.status).toBe(400);
    const big = (await ordersPageAction(post({ intent: "send-code", email: "a".repeat(10_240) }), context())) as {
      init: { status: number };
    };
    expect(big.init.status).toBe(400);
    const foreign = new Request(`${ORIGIN}/orders`, { method: "POST", body: "intent=sign-out" });
    expect(((await ordersPageAction(foreign, context())) as { init: { status: number } }).init.status).toBe(403);

    const email = `limit-${dialect}@example.com`;
    for (let i = 0; i < 3; i++) expect((await askForCode(email, `10.1.0.${i}`)).init.status).toBe(200);
    const over = await askForCode(email, "10.1.0.9");
    expect(over.init.status).toBe(429);
    expect(over.data.notice.kind).toBe("too-many");
    for (let i = 0; i < 10; i++) await askForCode(`client-${i}-${dialect}@example.com`, "10.2.0.1");
    expect((await askForCode(`client-x-${dialect}@example.com`, "10.2.0.1")).init.status).toBe(429);
  });
});
