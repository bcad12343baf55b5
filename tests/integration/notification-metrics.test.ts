import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPendingOrder } from "~/features/orders/orders.server";
import {
  type NotificationContext,
  receiveShopNotification,
  signShopNotification,
} from "~/features/orders/shop-notifications.server";
import { shopNotificationOutcomes } from "~/platform/metrics.server";
import { createTestDatabase, type TestDatabase } from "../support/databases";

const SECRET = crypto.randomBytes(32).toString("hex");
const cart = {
  productId: 446894,
  productName: "Kestrel Studio",
  variantId: 653023,
  durationLabel: "Lifetime",
  quantity: 1,
  amountCents: 29993,
};

async function counted(outcome: string): Promise<number> {
  const metric = await shopNotificationOutcomes.get();
  return metric.values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
}

function signed(invoiceId: string, idempotencyKey: string = crypto.randomUUID(), secret = SECRET) {
  const raw = Buffer.from(
    JSON.stringify({ event: "NOTIFICATION.SHOP_INVOICE_PROCESSED", data: { invoice_id: invoiceId }, shop_id: 151480 }),
  );
  return {
    raw,
    headers: {
      signature: signShopNotification(raw, secret),
      timestamp: String(Math.floor(Date.now() / 1000)),
      idempotencyKey,
    },
  };
}

describe("shop notification outcomes metric", () => {
  let database: TestDatabase;
  let context: NotificationContext;
  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    context = { db: database.handle.db, secret: SECRET, provider: "sellauth", shopId: "151480" };
  });
  afterAll(async () => {
    await database.drop();
  });

  it.each([
    [
      "applied",
      async () => {
        await createPendingOrder(database.handle.db, { provider: "sellauth", invoiceId: "m-1", cart });
        const { raw, headers } = signed("m-1", "key-m-1");
        return receiveShopNotification(context, raw, headers);
      },
    ],
    [
      "duplicate",
      async () => {
        const { raw, headers } = signed("m-1", "key-m-1");
        return receiveShopNotification(context, raw, headers);
      },
    ],
    [
      "unknown_order",
      async () => {
        const { raw, headers } = signed("no-such-invoice");
        return receiveShopNotification(context, raw, headers);
      },
    ],
    [
      "bad_signature",
      async () => {
        const { raw, headers } = signed("m-1", undefined, "not-the-secret");
        return receiveShopNotification(context, raw, headers);
      },
    ],
    [
      "error",
      async () => {
        await createPendingOrder(database.handle.db, { provider: "sellauth", invoiceId: "m-2", cart });
        const { raw, headers } = signed("m-2");
        return receiveShopNotification(
          { ...context, lookupInvoice: async () => ({ error: "shop unreachable" }) },
          raw,
          headers,
        );
      },
    ],
  ])("counts a notification that ends as %s", async (outcome, deliver) => {
    const before = await counted(outcome);
    await deliver();
    expect(await counted(outcome)).toBe(before + 1);
  });
});
