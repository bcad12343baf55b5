import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPendingOrder } from "~/features/orders/orders.server";
import { receiveShopNotification, signShopNotification } from "~/features/orders/shop-notifications.server";
import { createTestDatabase, type TestDatabase } from "../tests/support/databases";
import type { CliContext } from "./cli-context";
import { ordersCommand } from "./orders";

describe("orders CLI", () => {
  let database: TestDatabase;
  let stdout: string[];
  let stderr: string[];
  const products = [{ id: 446894, slug: "studio", name: "Kestrel Studio" }];
  const run = (...argv: string[]) => {
    stdout = [];
    stderr = [];
    const context: CliContext = {
      db: database.handle.db,
      products,
      out: (t) => stdout.push(t),
      err: (t) => stderr.push(t),
    };
    return ordersCommand(argv, context);
  };
  const notify = async (invoiceId: string, key: string) => {
    const raw = Buffer.from(
      JSON.stringify({ event: "NOTIFICATION.SHOP_INVOICE_PROCESSED", data: { invoice_id: invoiceId } }),
    );
    const secret = "cli-test-secret";
    await receiveShopNotification({ db: database.handle.db, secret, provider: "sellauth", shopId: "151480" }, raw, {
      signature: signShopNotification(raw, secret),
      timestamp: String(Math.floor(Date.now() / 1000)),
      idempotencyKey: key,
    });
  };
  let paidId: string;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    const cart = {
      productId: 446894,
      productName: "Kestrel Studio",
      variantId: 653023,
      durationLabel: "Lifetime",
      quantity: 1,
      amountCents: 29993,
    };
    paidId = await createPendingOrder(database.handle.db, { provider: "sellauth", invoiceId: "5001", cart });
    await createPendingOrder(database.handle.db, { provider: "sellauth", invoiceId: "5002", cart });
    await notify("5001", "evt-5001");
    await notify("999", `evt-${crypto.randomUUID()}`);
  });
  afterAll(async () => {
    await database.drop();
  });

  it("lists orders with product names and amounts, filtered by status", async () => {
    expect(await run("list")).toBe(0);
    const table = stdout.join("\n");
    expect(table).toMatch(/^ID\s+CREATED\s+STATUS\s+AMOUNT/);
    expect(table).toContain("$299.93");
    expect(table).toContain("Kestrel Studio");
    expect(await run("list", "--status", "completed", "--json")).toBe(0);
    expect(JSON.parse(stdout.join("\n")).map((o: { id: string }) => o.id)).toEqual([paidId]);
    expect(await run("list", "--status", "shipped")).toBe(2);
  });

  it("shows one order with the notifications that changed it", async () => {
    expect(await run("show", paidId)).toBe(0);
    expect(stdout.join("\n")).toContain("Status:     completed at");
    expect(stdout.join("\n")).toContain("NOTIFICATION.SHOP_INVOICE_PROCESSED  → completed  (evt-5001)");
    expect(await run("show", "nope", "--json")).toBe(1);
    expect(JSON.parse(stderr.join(""))).toEqual({ error: "No order with id nope" });
  });

  it("lists notifications for unknown invoices", async () => {
    expect(await run("notifications", "--unknown", "--json")).toBe(0);
    expect(JSON.parse(stdout.join("\n"))).toMatchObject([
      { invoice_id: "999", outcome: "unknown_invoice", order_id: null },
    ]);
  });
});

describe("orders sessions revoke", () => {
  it("signs an address out of /orders on every browser, and refuses a missing or malformed --email", async () => {
    const { createBuyerSession, buyerSessionEmail } = await import("~/features/buyer-orders/sign-in-store.server");
    const database = await createTestDatabase("sqlite");
    try {
      const out: string[] = [];
      const err: string[] = [];
      const context: CliContext = {
        db: database.handle.db,
        products: [],
        out: (t) => out.push(t),
        err: (t) => err.push(t),
      };
      const a = await createBuyerSession(database.handle.db, { email: "revoke@example.com" });
      const b = await createBuyerSession(database.handle.db, { email: "revoke@example.com" });
      const other = await createBuyerSession(database.handle.db, { email: "keep@example.com" });
      expect(await ordersCommand(["sessions", "revoke", "--email", "Revoke@Example.com"], context)).toBe(0);
      expect(out.join("\n")).toMatch(/^2 sessions ended for id:[0-9a-f]{16}\.$/);
      expect(out.join("\n")).not.toContain("revoke@example.com");
      expect(await buyerSessionEmail(database.handle.db, a)).toBeUndefined();
      expect(await buyerSessionEmail(database.handle.db, b)).toBeUndefined();
      expect(await buyerSessionEmail(database.handle.db, other)).toBe("keep@example.com");
      expect(await ordersCommand(["sessions", "revoke"], context)).toBe(2);
      expect(await ordersCommand(["sessions", "revoke", "--email", "nope"], context)).toBe(2);
    } finally {
      await database.drop();
    }
  });
});
