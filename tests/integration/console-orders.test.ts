import { type Kysely, sql } from "kysely";
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { auditCsv, listAudit } from "~/features/audit/audit-log.server";
import { deliveriesAction, loadDeliveriesPage } from "~/features/console/deliveries/deliveries-page.server";
import { listDeliveries, retryDelivery } from "~/features/console/deliveries/deliveries.server";
import { ORDER_SEARCH_PAGE_SIZE, searchOrders } from "~/features/console/orders/orders.server";
import { loadOrdersPage, ordersSearchAction } from "~/features/console/orders/orders-page.server";
import { createSession } from "~/features/staff/sessions.server";
import { inviteStaff } from "~/features/staff/people.server";
import { insertMail } from "~/features/mail/mail-outbox.server";
import { openConversation } from "~/features/support-conversation/conversation-store.server";
import { insertSupportRequest } from "~/features/support-relay/support-outbox.server";
import { clientAddressContext } from "~/platform/request-context";
import type { Database } from "../../db/schema";
import { up as rewriteLookupTargets } from "../../db/migrations/021_audit_lookup_targets";
import { testDialects } from "../support/databases";
import { useAppEnvironment } from "../support/test-environment";

const dialects = await testDialects();
const ORIGIN = "http://shop.test";
const BUYER = "buyer@example.com";

async function order(
  db: Kysely<Database>,
  id: string,
  email: string | null,
  options: { invoice?: string; key?: string; at?: string } = {},
) {
  await db
    .insertInto("orders")
    .values({
      id,
      provider: "demo",
      provider_invoice_id: options.invoice ?? null,
      product_id: 446894,
      variant_id: 653023,
      quantity: 2,
      amount_cents: 29993,
      status: "completed",
      created_at: options.at ?? "2026-11-01T10:00:00.000Z",
      completed_at: options.at ?? "2026-11-01T10:00:00.000Z",
      raw_event_id: null,
      buyer_email: email,
      delivered_key: options.key ?? null,
    })
    .execute();
}

function context() {
  const provider = new RouterContextProvider();
  provider.set(clientAddressContext, "10.0.0.9");
  return provider;
}

async function sessionCookie(db: Kysely<Database>, email: string, role: "owner" | "admin" | "support") {
  const { staff } = await inviteStaff(db, { email, role, by: "cli" });
  return `kestrel-staff=${await createSession(db, { staffId: staff.id, beganWith: "passkey" })}`;
}

/** A thrown React Router `data()` answer's status, or the error itself. */
async function statusOf(work: Promise<unknown>): Promise<number> {
  try {
    await work;
    return 200;
  } catch (error) {
    const status = (error as { init?: { status?: number } }).init?.status;
    if (typeof status === "number") return status;
    throw error;
  }
}

describe.each(dialects)("the console's order look-up on %s", (dialect) => {
  const database = useAppEnvironment(dialect, { PUBLIC_URL: ORIGIN });

  it("finds an order by the buyer's email, the order number, the shop's invoice id and the key delivered", async () => {
    const { db } = database().handle;
    await order(db, "11111111-1111-4111-8111-111111111111", BUYER, { invoice: "inv-77", key: "KEY-ALPHA" });
    await order(db, "22222222-2222-4222-8222-222222222222", "someone@example.com", { key: "KEY-BETA" });
    await db
      .insertInto("shop_notifications")
      .values({
        idempotency_key: "n-1",
        invoice_id: "inv-77",
        event: "INVOICE.ITEM.DELIVER-DYNAMIC",
        received_at: "2026-11-01T10:01:00.000Z",
        outcome: "completed",
        order_id: "11111111-1111-4111-8111-111111111111",
      })
      .execute();
    await insertMail(
      db,
      { to: "Buyer@Example.com", subject: "Your code for your orders: 482913", text: "482913", kind: "sign-in-code" },
      { from: "shop@example.com", deliver: false },
    );
    await insertMail(
      db,
      { to: BUYER, subject: "New reply to your support request", text: "secret link", kind: "support-reply" },
      { from: "shop@example.com", deliver: false },
    );
    const opened = await openConversation(db, {
      requestId: "r-1",
      category: "billing",
      locale: "en",
      visitorEmail: BUYER,
      lines: [],
    });

    for (const query of ["BUYER@example.com ", "11111111-1111-4111-8111-111111111111", "inv-77", "KEY-ALPHA"]) {
      const found = await searchOrders(db, query, 1);
      expect(
        found.orders.map((o) => o.id),
        query,
      ).toEqual(["11111111-1111-4111-8111-111111111111"]);
      const [first] = found.orders;
      expect(first).toMatchObject({
        deliveredKey: "KEY-ALPHA",
        quantity: 2,
        amountCents: 29993,
        status: "completed",
        invoiceId: "inv-77",
        notifications: [{ event: "INVOICE.ITEM.DELIVER-DYNAMIC", outcome: "completed" }],
      });
      expect(found.buyers).toHaveLength(1);
      const [buyer] = found.buyers;
      expect(buyer?.email).toBe(BUYER);
      // The code's subject is never shown, nor any mail's text.
      expect(buyer?.mail.map((m) => [m.kind, m.subject]).sort()).toEqual([
        ["sign-in-code", null],
        ["support-reply", "New reply to your support request"],
      ]);
      expect(JSON.stringify(found)).not.toContain("482913");
      expect(JSON.stringify(found)).not.toContain("secret link");
      expect(buyer?.conversations.map((c) => c.id)).toEqual([opened.conversation.id]);
    }
    expect((await searchOrders(db, "KEY-NOPE", 1)).orders).toEqual([]);
    expect((await searchOrders(db, "", 1)).orders).toEqual([]);
  });

  it("answers in pages, newest first", async () => {
    const { db } = database().handle;
    for (let i = 0; i < ORDER_SEARCH_PAGE_SIZE + 5; i++)
      await order(db, `page-${String(i).padStart(2, "0")}`, "many@example.com", {
        at: new Date(Date.UTC(2026, 9, 1, 0, i)).toISOString(),
      });
    const first = await searchOrders(db, "many@example.com", 1);
    expect(first.orders).toHaveLength(ORDER_SEARCH_PAGE_SIZE);
    expect(first.hasMore).toBe(true);
    expect(first.orders[0]?.id).toBe(`page-${ORDER_SEARCH_PAGE_SIZE + 4}`);
    const second = await searchOrders(db, "many@example.com", 2);
    expect(second.orders.map((o) => o.id)).toEqual(["page-04", "page-03", "page-02", "page-01", "page-00"]);
    expect(second.hasMore).toBe(false);
  });

  it("looks orders up by index, never by reading the whole table", async () => {
    const { db } = database().handle;
    const byKeyOrInvoice = sql`SELECT * FROM orders WHERE id = 'x' OR provider_invoice_id = 'x' OR delivered_key = 'x'
      ORDER BY created_at DESC LIMIT 21`;
    const mailByAddress = sql`SELECT id FROM mail_outbox WHERE lower(to_address) = 'a@example.com'
      ORDER BY created_at DESC LIMIT 20`;
    if (dialect === "sqlite") {
      for (const query of [byKeyOrInvoice, mailByAddress]) {
        const plan = await sql<{ detail: string }>`EXPLAIN QUERY PLAN ${query}`.execute(db);
        const details = plan.rows.map((r) => r.detail).join("\n");
        expect(details).not.toMatch(/SCAN (orders|mail_outbox)\b(?! USING)/);
        expect(details).toMatch(/USING (INDEX|COVERING INDEX|INTEGER PRIMARY KEY|PRIMARY KEY)/);
      }
    } else {
      await db.connection().execute(async (conn) => {
        await sql`SET enable_seqscan = off`.execute(conn);
        try {
          for (const query of [byKeyOrInvoice, mailByAddress]) {
            const plan = await sql<{ "QUERY PLAN": string }>`EXPLAIN ${query}`.execute(conn);
            const text = plan.rows.map((r) => r["QUERY PLAN"]).join("\n");
            expect(text).not.toContain("Seq Scan");
          }
        } finally {
          await sql`RESET enable_seqscan`.execute(conn);
        }
      });
    }
  });

  it("looks up by POST only, writing each look-up in the audit log with who asked and what, before answering", async () => {
    const { db } = database().handle;
    const cookie = await sessionCookie(db, "agent@example.com", "support");
    const search = (form: Record<string, string>) =>
      ordersSearchAction(
        new Request(`${ORIGIN}/admin/orders`, {
          method: "POST",
          headers: { Cookie: cookie, Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams(form).toString(),
        }),
        context(),
      ) as unknown as Promise<{
        data: { query: string; page: number; result: { orders: Array<{ id: string }> } | null };
      }>;
    // A query in the URL is no search: the empty form, and nothing in the audit log.
    const viaUrl = (await loadOrdersPage(
      new Request(`${ORIGIN}/admin/orders?q=KEY-ALPHA`, { headers: { Cookie: cookie } }),
    )) as unknown as { data: { result: null } };
    expect(viaUrl.data.result).toBeNull();
    expect((await listAudit(db, { action: "orders-looked-up" }, 1)).entries).toEqual([]);

    const answer = await search({ q: " KEY-ALPHA " });
    expect(answer.data.result?.orders.map((o) => o.id)).toEqual(["11111111-1111-4111-8111-111111111111"]);
    expect((await search({ q: "KEY-ALPHA", page: "2" })).data).toMatchObject({ page: 2, result: { orders: [] } });
    expect((await search({ q: "KEY-ALPHA", page: "-5" })).data.page).toBe(1);
    const { entries } = await listAudit(db, { action: "orders-looked-up" }, 1);
    // What was looked up is kept as its kind and a keyed hash: the same text the same hash, never the text.
    const target = entries[0]?.target ?? "";
    expect(target).toMatch(/^key:[0-9a-f]{32}$/);
    expect(entries.map((e) => [e.actor, e.target, e.clientAddress]).reverse()).toEqual([
      ["agent@example.com", target, "10.0.0.9"],
      ["agent@example.com", target, "10.0.0.9"],
      ["agent@example.com", target, "10.0.0.9"],
    ]);
    // An empty query, a foreign origin and no session look nothing up.
    const empty = (await search({ q: "  " })) as unknown as { init: { status: number }; data: { result: null } };
    expect([empty.init.status, empty.data.result]).toEqual([400, null]);
    const post = (headers: Record<string, string>) =>
      ordersSearchAction(
        new Request(`${ORIGIN}/admin/orders`, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers },
          body: "q=KEY-ALPHA",
        }),
        context(),
      );
    expect(await statusOf(post({ Cookie: cookie, Origin: "https://evil.example" }))).toBe(403);
    expect(await statusOf(post({ Origin: ORIGIN }))).toBe(401);
    expect((await listAudit(db, { action: "orders-looked-up" }, 1)).entries).toHaveLength(3);
    // A support person may look orders up, never open the deliveries.
    expect(
      await statusOf(loadDeliveriesPage(new Request(`${ORIGIN}/admin/deliveries`, { headers: { Cookie: cookie } }))),
    ).toBe(403);
  });
});

describe.each(dialects)("no secret in the audit log on %s", (dialect) => {
  const database = useAppEnvironment(dialect, {
    PUBLIC_URL: ORIGIN,
    AUDIT_HASH_KEY: "a-test-key-of-thirty-two-characters",
  });

  it("keeps no query text in the log or its CSV after a key or an email search", async () => {
    const { db } = database().handle;
    await order(db, "33333333-3333-4333-8333-333333333333", BUYER, { key: "KEY-SECRET-7731" });
    const cookie = await sessionCookie(db, "looker@example.com", "support");
    const search = (q: string) =>
      ordersSearchAction(
        new Request(`${ORIGIN}/admin/orders`, {
          method: "POST",
          headers: { Cookie: cookie, Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({ q }).toString(),
        }),
        context(),
      );
    await search("KEY-SECRET-7731");
    await search("Buyer@Example.com");
    await search("buyer@example.com");

    const { entries } = await listAudit(db, { action: "orders-looked-up", actor: "looker@example.com" }, 1);
    const [byEmail, byEmailAgain, byKey] = entries.map((e) => e.target ?? "");
    expect(byKey).toMatch(/^key:[0-9a-f]{32}$/);
    expect(byEmail).toMatch(/^email:[0-9a-f]{32}$/);
    expect(byEmailAgain).toBe(byEmail);
    let csv = "";
    for await (const line of auditCsv(db, {})) csv += line;
    const everything = JSON.stringify(await db.selectFrom("audit_log").selectAll().execute());
    for (const text of [everything, csv]) {
      expect(text).not.toContain("KEY-SECRET-7731");
      expect(text.toLowerCase()).not.toContain("buyer@example.com");
    }
    expect(csv).toContain(byKey);
  });

  it("rewrites the look-ups written before to their kind alone", async () => {
    const { db } = database().handle;
    const entry = (target: string | null, action = "orders-looked-up") => ({
      at: "2026-11-01T10:00:00.000Z",
      actor: "old@example.com",
      action,
      target,
      detail: null,
      client_address: null,
      user_agent: null,
      session_began_with: "passkey" as const,
    });
    await db
      .insertInto("audit_log")
      .values([entry("KEY-OLD-1234"), entry("Old.Buyer@example.com"), entry(null), entry("Laptop", "passkey-renamed")])
      .execute();
    await rewriteLookupTargets(db as unknown as Kysely<unknown>);
    const rows = await db
      .selectFrom("audit_log")
      .select(["action", "target"])
      .where("actor", "=", "old@example.com")
      .orderBy("id")
      .execute();
    expect(rows).toEqual([
      { action: "orders-looked-up", target: "key:not-kept" },
      { action: "orders-looked-up", target: "email:not-kept" },
      { action: "orders-looked-up", target: null },
      { action: "passkey-renamed", target: "Laptop" },
    ]);
  });
});

describe.each(dialects)("the console's deliveries on %s", (dialect) => {
  const database = useAppEnvironment(dialect, { PUBLIC_URL: ORIGIN });
  const failedAt = new Date("2026-11-20T10:00:00.000Z");

  async function failedRequest(db: Kysely<Database>) {
    const request = await insertSupportRequest(
      db,
      { category: "Key Reset", answers: ["a"] },
      { channelConfigured: true, now: failedAt },
    );
    await db
      .updateTable("support_requests")
      .set({
        delivery_status: "failed",
        attempts: 7,
        first_failed_at: failedAt.toISOString(),
        last_error: "HTTP 404 Unknown Webhook",
      })
      .where("id", "=", request.id)
      .execute();
    return request.id;
  }

  async function failedMail(db: Kysely<Database>) {
    const mail = await insertMail(
      db,
      { to: BUYER, subject: "New reply", text: "…", kind: "support-reply" },
      { from: "shop@example.com", deliver: true, now: failedAt },
    );
    await db
      .updateTable("mail_outbox")
      .set({
        status: "failed",
        attempts: 3,
        first_failed_at: failedAt.toISOString(),
        last_error: "550 mailbox unavailable",
      })
      .where("id", "=", mail.id)
      .execute();
    return mail.id;
  }

  it("lists failed and waiting deliveries with the reason, failed first", async () => {
    const { db } = database().handle;
    const request = await failedRequest(db);
    const mail = await failedMail(db);
    await insertSupportRequest(db, { category: "Product Support", answers: ["b"] }, { channelConfigured: true });
    const lines = await listDeliveries(db);
    expect(
      lines
        .slice(0, 2)
        .map((l) => [l.kind, l.id, l.status, l.lastError])
        .sort(),
    ).toEqual(
      [
        ["mail", mail, "failed", "550 mailbox unavailable"],
        ["support-request", request, "failed", "HTTP 404 Unknown Webhook"],
      ].sort(),
    );
    expect(lines.some((l) => l.status === "pending" && l.what === "Product Support")).toBe(true);
  });

  it("makes a failed request or mail due again, once, through the engine", async () => {
    const { db } = database().handle;
    const now = new Date("2026-11-27T12:00:00.000Z");
    for (const [kind, id] of [
      ["support-request", await failedRequest(db)],
      ["mail", await failedMail(db)],
    ] as const) {
      expect(await retryDelivery(db, kind, id, now)).toBe("requeued");
      const table = kind === "mail" ? "mail_outbox" : "support_requests";
      const row = await db
        .selectFrom(table)
        .select(["attempts", "next_attempt_at", "first_failed_at", "claimed_by", "last_error"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      const status = await sql<{ s: string }>`SELECT ${sql.ref(kind === "mail" ? "status" : "delivery_status")} AS s
        FROM ${sql.table(table)} WHERE id = ${id}`.execute(db);
      expect(status.rows[0]?.s).toBe("pending");
      // Not an attempt: the count stays, the reason stays until the next attempt, the failing clock restarts.
      expect(row).toMatchObject({ next_attempt_at: now.toISOString(), first_failed_at: null, claimed_by: null });
      expect(Number(row.attempts)).toBe(kind === "mail" ? 3 : 7);
      expect(row.last_error).not.toBeNull();
      // Pending now: a second press does nothing.
      expect(await retryDelivery(db, kind, id, now)).toBe("not-failed");
    }
    expect(await retryDelivery(db, "mail", "no-such-id", now)).toBe("not-failed");
  });

  it("of several people pressing Retry at once, exactly one requeues the row", async () => {
    const { db } = database().handle;
    for (let round = 0; round < 5; round++) {
      const id = await failedRequest(db);
      const answers = await Promise.all(Array.from({ length: 4 }, () => retryDelivery(db, "support-request", id)));
      expect(answers.filter((a) => a === "requeued")).toHaveLength(1);
      expect(answers.filter((a) => a === "not-failed")).toHaveLength(3);
    }
  });

  it("never takes a row a worker holds", async () => {
    const { db } = database().handle;
    const id = await failedRequest(db);
    await db
      .updateTable("support_requests")
      .set({ claimed_by: "worker-1", claimed_until: new Date(Date.now() + 60_000).toISOString() })
      .where("id", "=", id)
      .execute();
    expect(await retryDelivery(db, "support-request", id)).toBe("not-failed");
  });

  it("Retry from the page is an audit entry with the row and its kind; an admin may, support may not", async () => {
    const { db } = database().handle;
    const id = await failedMail(db);
    const post = (cookie: string) =>
      deliveriesAction(
        new Request(`${ORIGIN}/admin/deliveries`, {
          method: "POST",
          headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
          body: new URLSearchParams({ intent: "retry", kind: "mail", id }).toString(),
        }),
        context(),
      );
    expect(await statusOf(post(await sessionCookie(db, "helper@example.com", "support")))).toBe(403);
    const admin = await sessionCookie(db, "admin@example.com", "admin");
    const answer = (await post(admin)) as unknown as { data: { notice: unknown }; init: { status: number } };
    expect(answer.data.notice).toEqual({ kind: "retried", what: "mail" });
    const again = (await post(admin)) as unknown as { data: { notice: unknown }; init: { status: number } };
    expect(again.init.status).toBe(409);
    const { entries } = await listAudit(db, { action: "delivery-retried" }, 1);
    expect(entries.map((e) => [e.actor, e.target, JSON.parse(e.detail ?? "{}").kind])).toEqual([
      ["admin@example.com", id, "mail"],
    ]);
  });
});
