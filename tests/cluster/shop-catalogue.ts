// Scenario e: three instances serving a connected shop's catalogue. A price changed at the shop reaches every instance
// within 5 s of the notification (which lands on one of them), and a variant that sold out is refused by each.
import crypto from "node:crypto";
import { updateVariant } from "../fakes/shop-catalogue";
import type { ShopEmulator } from "../fakes/shop-emulator";
import { type Checks, type Cluster, clientAddresses, figuresLine, send, waitFor } from "./cluster";

const STUDIO = { productId: 446894, lifetimeVariant: 653023 };
const VAULT = { productId: 446889, lifetimeVariant: 652997 };
const PROPAGATION_LIMIT_MS = 5_000;

/** The Total the product page shows for `?duration=lifetime`, as the server rendered it. */
async function lifetimeTotal(base: string, productId: number): Promise<string | undefined> {
  const reply = await send(`${base}/product/${productId}?duration=lifetime`);
  return /<output[^>]*>([^<]+)<\/output>/.exec(reply.text)?.[1];
}

async function notify(url: string, secret: string, event: string, data: Record<string, unknown>, shopId: string) {
  const raw = JSON.stringify({ event, data, shop_id: Number(shopId) });
  const headers = {
    "Content-Type": "application/json",
    "X-Signature": crypto.createHmac("sha256", secret).update(raw).digest("hex"),
    "X-Timestamp": String(Math.floor(Date.now() / 1000)),
    "Idempotency-Key": `cluster-catalogue-${crypto.randomUUID()}`,
  };
  return send(`${url}/api/shop/notifications`, { raw, headers });
}

export async function shopCatalogue(opts: {
  cluster: Cluster;
  balancer: string;
  shop: ShopEmulator;
  secret: string;
  checks: Checks;
}) {
  const { cluster, balancer, shop, secret, checks } = opts;
  const instances = cluster.ports.map((_port, i) => cluster.url(i));
  await waitFor(
    async () =>
      (await Promise.all(instances.map((u) => send(`${u}/readyz`)))).every((r) => r.status === 200) ? true : undefined,
    20_000,
    "every instance to read the shop's catalogue",
  );
  for (const url of instances)
    checks.that(
      (await lifetimeTotal(url, STUDIO.productId)) === "$299.93",
      `${url} serves the shop's price before the change`,
    );

  // A price change, notified to one instance through the balancer.
  updateVariant(shop.catalogue, STUDIO.productId, STUDIO.lifetimeVariant, { price: "279.00" });
  const notified = Date.now();
  const reply = await notify(
    balancer,
    secret,
    "NOTIFICATION.SHOP_PRODUCT_UPDATED",
    { product_id: STUDIO.productId },
    shop.shopId,
  );
  checks.that(reply.status === 200, `the price notification was accepted (${reply.status} ${reply.text})`);
  const reached = await Promise.all(
    instances.map(async (url) => {
      await waitFor(
        async () => ((await lifetimeTotal(url, STUDIO.productId)) === "$279.00" ? true : undefined),
        15_000,
        `${url} to show the new price`,
        50,
      );
      return Date.now() - notified;
    }),
  );
  const slowest = Math.max(...reached);
  checks.that(
    slowest <= PROPAGATION_LIMIT_MS,
    `the new price reached every instance within ${PROPAGATION_LIMIT_MS / 1000} s (slowest ${slowest} ms)`,
  );

  // A variant sells out: whichever instance answers, checkout refuses it.
  updateVariant(shop.catalogue, VAULT.productId, VAULT.lifetimeVariant, { stock: 0 });
  await notify(balancer, secret, "NOTIFICATION.SHOP_STOCK_UPDATED", { product_id: VAULT.productId }, shop.shopId);
  const nextClient = clientAddresses();
  const refusals = await Promise.all(
    instances.map(async (url) => {
      const checkout = await send(`${url}/api/checkout`, {
        json: { productId: VAULT.productId, variantId: VAULT.lifetimeVariant, quantity: 1, altcha: "unused" },
        client: nextClient(),
      });
      return checkout.status === 409 &&
        (checkout.body as { error?: string })?.error === "This licence has just sold out."
        ? 1
        : 0;
    }),
  );
  const refused = refusals.reduce<number>((a, b) => a + b, 0);
  checks.that(
    refused === instances.length,
    `every instance refused the sold-out variant (${refused} of ${instances.length})`,
  );
  const soldOutShown = await Promise.all(
    instances.map((url) =>
      waitFor(
        async () =>
          (await send(`${url}/product/${VAULT.productId}?duration=lifetime`)).text.includes("Sold out")
            ? true
            : undefined,
        10_000,
        `${url} to show Sold out`,
        50,
      ),
    ),
  );
  console.log(
    figuresLine(
      "e. shop catalogue",
      {
        submitted: 1,
        acknowledged: reply.status === 200 ? 1 : 0,
        delivered: reached.length,
        duplicates: 0,
        lost: instances.length - reached.length,
        drainSeconds: slowest / 1000,
      },
      {
        priceReachedMs: reached.join("/"),
        soldOutRefused: `${refused}/${instances.length}`,
        soldOutShown: soldOutShown.length,
      },
    ),
  );
}
