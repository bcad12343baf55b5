import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { auditCsv, listAudit, pruneAuditLog, recordAudit } from "~/features/audit/audit-log.server";
import { readDashboard } from "~/features/console/dashboard/dashboard.server";
import { appendConversationMessage } from "~/features/support-conversation/conversation-store.server";
import type { Database } from "../../db/schema";
import { testDialects } from "../support/databases";
import { useTestDatabase } from "../support/test-environment";

const dialects = await testDialects();
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const now = new Date("2026-11-27T12:00:00.000Z");
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

async function order(
  db: Kysely<Database>,
  id: string,
  status: "completed" | "pending" | "refunded",
  at: string,
  cents: number,
) {
  await db
    .insertInto("orders")
    .values({
      id,
      provider: "demo",
      provider_invoice_id: null,
      product_id: 1,
      variant_id: 1,
      quantity: 1,
      amount_cents: cents,
      status,
      created_at: at,
      completed_at: status === "completed" ? at : null,
      raw_event_id: null,
    })
    .execute();
}

async function request(
  db: Kysely<Database>,
  id: string,
  at: string,
  delivery: "delivered" | "failed" | "pending",
  failedAt: string | null = null,
) {
  await db
    .insertInto("support_requests")
    .values({
      id,
      category: "billing",
      answers: "{}",
      locale: "en",
      created_at: at,
      delivery_status: delivery,
      attempts: 1,
      next_attempt_at: at,
      first_failed_at: failedAt,
      last_error: null,
      delivered_at: null,
      claimed_by: null,
      claimed_until: null,
    })
    .execute();
}

/** A conversation opened at `at`, with messages (author, minutes after opening). */
async function conversation(
  db: Kysely<Database>,
  id: string,
  at: string,
  messages: Array<["visitor" | "team", number]>,
  status: "open" | "resolved" = "open",
) {
  const times = messages.map(([, minutes]) => new Date(Date.parse(at) + minutes * 60_000).toISOString());
  await db
    .insertInto("support_conversations")
    .values({
      id,
      request_id: `r-${id}`,
      category: "billing",
      locale: "en",
      visitor_email: null,
      status,
      channel_id: null,
      thread_id: null,
      last_relayed_message_id: null,
      next_read_at: null,
      last_read_at: null,
      state_checked_at: null,
      visitor_active_at: at,
      visitor_seen_seq: 0,
      last_message_at: times.at(-1) ?? at,
      created_at: at,
      resolved_at: null,
      waiting_since: at,
    })
    .execute();
  // Through the conversation store, which keeps whose turn it is and the first team reply on the conversation.
  for (const [i, [author]] of messages.entries())
    await appendConversationMessage(
      db,
      id,
      { author, authorName: author === "team" ? "Sam" : null, body: "…" },
      new Date(times[i] ?? at),
    );
}

describe.each(dialects)("the console's dashboard and audit log on %s", (dialect) => {
  const database = useTestDatabase(dialect);

  it("says what cannot be known instead of a 0: no replies, no incident, a content catalogue", async () => {
    const { db } = database().handle;
    const dashboard = await readDashboard(db, "7d", now);
    expect(dashboard.current).toEqual({ paidOrders: 0, revenue: [], supportRequests: 0, medianFirstReplyMs: null });
    expect(dashboard.waiting).toEqual({ count: 0, oldestSince: null });
    expect(dashboard.status.openIncident).toBeNull();
    expect(dashboard.catalogueSyncedAt).toBeNull();
    expect(dashboard.days).toHaveLength(7);
  });

  it("counts the period and the one before: paid orders, revenue, requests, waits, first replies, failing deliveries", async () => {
    const { db } = database().handle;
    await order(db, "o1", "completed", ago(2 * HOUR), 1999);
    await order(db, "o2", "completed", ago(3 * DAY), 4999);
    await order(db, "o3", "pending", ago(HOUR), 999);
    await order(db, "o4", "refunded", ago(HOUR), 999);
    await order(db, "o5", "completed", ago(10 * DAY), 2500);
    await request(db, "r1", ago(HOUR), "delivered");
    await request(db, "r2", ago(2 * DAY), "failed", ago(2 * DAY));
    await request(db, "r3", ago(9 * DAY), "pending", ago(9 * DAY));
    await db
      .insertInto("mail_outbox")
      .values({
        id: "m1",
        kind: "support-reply",
        from_address: "shop@example.com",
        to_address: "a@example.com",
        subject: "Re",
        text_body: "…",
        html_body: null,
        message_id: "<m1@example.com>",
        status: "failed",
        created_at: ago(HOUR),
        send_by: null,
        attempts: 3,
        next_attempt_at: ago(HOUR),
        first_failed_at: ago(HOUR),
        last_error: "550",
        sent_at: null,
        claimed_by: null,
        claimed_until: null,
      })
      .execute();
    // First team replies after 10 and 30 minutes (median 20); one waits for the team since 5 hours ago.
    await conversation(db, "c1", ago(DAY), [
      ["visitor", 0],
      ["team", 10],
    ]);
    await conversation(db, "c2", ago(2 * DAY), [
      ["visitor", 0],
      ["team", 30],
      ["visitor", 40],
    ]);
    await conversation(db, "c3", ago(5 * HOUR), [["visitor", 0]]);
    await conversation(
      db,
      "c4",
      ago(8 * DAY),
      [
        ["visitor", 0],
        ["team", 60],
      ],
      "resolved",
    );

    const week = await readDashboard(db, "7d", now);
    expect(week.current).toEqual({
      paidOrders: 2,
      revenue: [{ currency: "USD", cents: 6998 }],
      supportRequests: 2,
      medianFirstReplyMs: 20 * 60_000,
    });
    expect(week.previous).toEqual({
      paidOrders: 1,
      revenue: [{ currency: "USD", cents: 2500 }],
      supportRequests: 1,
      medianFirstReplyMs: 60 * 60_000,
    });
    expect(week.waiting.count).toBe(2);
    expect(week.waiting.oldestSince).toBe(new Date(Date.parse(ago(2 * DAY)) + 40 * 60_000).toISOString());
    expect(week.failingDeliveries).toEqual({ supportRequests: 2, mail: 1 });
    const today = week.days.at(-1);
    expect(today).toEqual({ day: "2026-11-27", orders: 1, requests: 1 });
    expect(week.days.reduce((sum, d) => sum + d.orders, 0)).toBe(2);

    const day = await readDashboard(db, "24h", now);
    expect(day.current.paidOrders).toBe(1);
    expect(day.previous.paidOrders).toBe(0);
    expect(day.previous.revenue).toEqual([]);
  });

  it("keeps the audit log newest first, filters it, exports what the filters show and prunes past the retention", async () => {
    const { db } = database().handle;
    await recordAudit(db, {
      actor: "cli",
      action: "staff-invited",
      target: "a@example.com",
      now: new Date(ago(400 * DAY)),
    });
    await recordAudit(db, {
      actor: "a@example.com",
      action: "sign-in",
      sessionBeganWith: "passkey",
      clientAddress: "203.0.113.9",
      userAgent: 'Agent "x", y',
      now: new Date(ago(2 * DAY)),
    });
    await recordAudit(db, {
      actor: "a@example.com",
      action: "sign-in-refused",
      detail: { why: "unknown passkey" },
      now: new Date(ago(HOUR)),
    });
    await recordAudit(db, {
      actor: "cli",
      action: "staff-removed",
      target: "=HYPERLINK(1)",
      now: new Date(ago(HOUR / 2)),
    });

    const all = await listAudit(db, {}, 1);
    expect(all.entries.map((e) => e.action)).toEqual(["staff-removed", "sign-in-refused", "sign-in", "staff-invited"]);
    expect((await listAudit(db, { actor: "a@example.com" }, 1)).entries.map((e) => e.action)).toEqual([
      "sign-in-refused",
      "sign-in",
    ]);
    expect((await listAudit(db, { action: "sign-in" }, 1)).entries).toHaveLength(1);
    expect(
      (await listAudit(db, { from: ago(3 * DAY).slice(0, 10), to: ago(DAY).slice(0, 10) }, 1)).entries.map(
        (e) => e.action,
      ),
    ).toEqual(["sign-in"]);

    const lines: string[] = [];
    for await (const line of auditCsv(db, { actor: "a@example.com" })) lines.push(line);
    expect(lines[0]).toBe("time,actor,action,target,detail,client_address,user_agent,session\r\n");
    expect(lines.slice(1)).toEqual([
      `${ago(HOUR)},a@example.com,sign-in-refused,,"{""why"":""unknown passkey""}",,,\r\n`,
      `${ago(2 * DAY)},a@example.com,sign-in,,,203.0.113.9,"Agent ""x"", y",passkey\r\n`,
    ]);
    // A value a spreadsheet would run as a formula is written as text.
    const cli: string[] = [];
    for await (const line of auditCsv(db, { action: "staff-removed" })) cli.push(line);
    expect(cli[1]).toContain(",'=HYPERLINK(1),");

    expect(await pruneAuditLog(db, 365, now)).toBe(1);
    expect((await listAudit(db, {}, 1)).entries).toHaveLength(3);
  });

  it("exports by key range: entries of the same instant across a batch boundary come once each, in order", async () => {
    const { db } = database().handle;
    const at = new Date("2026-11-30T12:00:00.000Z");
    for (let i = 0; i < 7; i++)
      await recordAudit(db, { actor: "tie@example.com", action: "sign-in", target: `t${i}`, now: at });
    const read = async (batch?: number) => {
      const lines: string[] = [];
      for await (const line of auditCsv(db, { actor: "tie@example.com" }, batch)) lines.push(line);
      return lines.slice(1).map((line) => line.split(",")[3]);
    };
    expect(await read()).toEqual(["t6", "t5", "t4", "t3", "t2", "t1", "t0"]);
    expect(await read(2)).toEqual(await read());
    expect(await read(7)).toEqual(await read());
  });
});
