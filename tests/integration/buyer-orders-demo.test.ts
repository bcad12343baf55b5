import { describe, expect, it } from "vitest";
import { createDemoBuyerOrders } from "~/features/buyer-orders/sources/demo.server";
import { createPendingOrder, recordDemoDelivery } from "~/features/orders/orders.server";
import { testDialects } from "../support/databases";
import { useTestDatabase } from "../support/test-environment";

const dialects = await testDialects();
const names = (productId: number, variantId: number) => ({
  productName: productId === 446894 ? "Kestrel Studio" : `Product ${productId}`,
  durationLabel: variantId === 653023 ? "Lifetime" : null,
});

describe.each(dialects)("the demo checkout's orders of one address, on %s", (dialect) => {
  const database = useTestDatabase(dialect);
  const db = () => database().handle.db;

  async function order(invoiceId: string, day: number, status: "pending" | "completed" | "failed" | "refunded") {
    const id = await createPendingOrder(db(), {
      provider: "demo",
      invoiceId,
      cart: { productId: 446894, variantId: 653023, quantity: 1, amountCents: 29993 },
      now: new Date(Date.UTC(2026, 10, day)),
    });
    if (status !== "pending") await db().updateTable("orders").set({ status }).where("id", "=", id).execute();
    return id;
  }

  it("lists every order recorded for the address, newest first, with the key only once paid", async () => {
    const older = await order("demo-a-1", 1, "completed");
    const newer = await order("demo-a-2", 3, "completed");
    const waiting = await order("demo-a-3", 2, "pending");
    await order("demo-other", 4, "completed");
    await recordDemoDelivery(db(), {
      invoiceId: "demo-a-1",
      email: "Ann@Example.com ",
      key: "KESTREL-AAAA-AAAA-AAAA-AAAA",
    });
    await recordDemoDelivery(db(), {
      invoiceId: "demo-a-2",
      email: "ann@example.com",
      key: "KESTREL-BBBB-BBBB-BBBB-BBBB",
    });
    await recordDemoDelivery(db(), {
      invoiceId: "demo-a-3",
      email: "ann@example.com",
      key: "KESTREL-CCCC-CCCC-CCCC-CCCC",
    });
    await recordDemoDelivery(db(), {
      invoiceId: "demo-other",
      email: "bob@example.com",
      key: "KESTREL-DDDD-DDDD-DDDD-DDDD",
    });

    const orders = await createDemoBuyerOrders(db, names).ordersOf("ann@example.com");
    expect(orders.map((o) => o.id)).toEqual([newer, waiting, older]);
    expect(orders[0]).toEqual({
      id: newer,
      createdAt: "2026-11-03T00:00:00.000Z",
      items: [{ productName: "Kestrel Studio", durationLabel: "Lifetime", quantity: 1 }],
      amount: "299.93",
      currency: "USD",
      status: { kind: "paid" },
      invoiceUrl: "/demo-checkout/demo-a-2",
      delivered: [{ kind: "key", value: "KESTREL-BBBB-BBBB-BBBB-BBBB", label: "Kestrel Studio" }],
    });
    expect(orders[1]).toMatchObject({ status: { kind: "pending" }, delivered: [] });
    expect(JSON.stringify(orders)).not.toContain("KESTREL-DDDD");
  });

  it("keeps the first key when an invoice is paid again", async () => {
    await recordDemoDelivery(db(), {
      invoiceId: "demo-a-1",
      email: "ann@example.com",
      key: "KESTREL-ZZZZ-ZZZZ-ZZZZ-ZZZZ",
    });
    const orders = await createDemoBuyerOrders(db, names).ordersOf("ann@example.com");
    expect(orders.at(-1)?.delivered).toEqual([
      { kind: "key", value: "KESTREL-AAAA-AAAA-AAAA-AAAA", label: "Kestrel Studio" },
    ]);
  });

  it("shows a refunded order without its key, and a failed one as cancelled", async () => {
    await order("demo-r", 5, "refunded");
    await order("demo-f", 6, "failed");
    await recordDemoDelivery(db(), {
      invoiceId: "demo-r",
      email: "rita@example.com",
      key: "KESTREL-RRRR-RRRR-RRRR-RRRR",
    });
    await recordDemoDelivery(db(), {
      invoiceId: "demo-f",
      email: "rita@example.com",
      key: "KESTREL-FFFF-FFFF-FFFF-FFFF",
    });
    const orders = await createDemoBuyerOrders(db, names).ordersOf("rita@example.com");
    expect(orders.map((o) => [o.status, o.delivered])).toEqual([
      [{ kind: "cancelled" }, []],
      [{ kind: "refunded" }, []],
    ]);
  });

  it("answers no orders for an address that bought nothing, and ignores an invoice that is not ours", async () => {
    await recordDemoDelivery(db(), { invoiceId: "demo-missing", email: "nobody@example.com", key: "KESTREL-X" });
    expect(await createDemoBuyerOrders(db, names).ordersOf("nobody@example.com")).toEqual([]);
  });
});
