// Scenario b: signed shop notifications for 200 orders, each delivered twice at once to two different instances.
// Scenario c: the support rate limit and captcha replay protection hold whichever instance answers.
import crypto from "node:crypto";
import type pg from "pg";
import type { ChatWebhookReceiver } from "../fakes/chat-webhook-receiver";
import {
  type Checks,
  type Cluster,
  clientAddresses,
  figuresLine,
  forEachConcurrently,
  requestIdOf,
  send,
  solvedCaptcha,
  supportRequest,
  waitFor,
} from "./cluster";

const ORDERS = 200;
/** Kestrel Studio, Lifetime: any product of the demo catalogue does. */
const CART = { productId: 446894, variantId: 653023, quantity: 1 };

export async function shopNotifications(opts: {
  cluster: Cluster;
  balancer: string;
  db: pg.Client;
  secret: string;
  checks: Checks;
}) {
  const { cluster, balancer, db, secret, checks } = opts;
  const nextClient = clientAddresses();
  const orders: Array<{ orderId: string; invoiceId: string }> = [];
  await forEachConcurrently(ORDERS, 6, async () => {
    const client = nextClient();
    const altcha = await solvedCaptcha(balancer, "/api/checkout/challenge");
    const reply = await send(`${balancer}/api/checkout`, { json: { ...CART, altcha }, client });
    if (reply.status !== 200) throw new Error(`checkout answered ${reply.status}: ${reply.text}`);
    const { url, orderId } = reply.body as { url: string; orderId: string };
    orders.push({ orderId, invoiceId: url.split("/").at(-1) as string });
  });

  const started = Date.now();
  const replies: Array<{ status: number; duplicate: boolean; outcome?: string }> = [];
  const appliedPerOrder = new Map<string, number>();
  await forEachConcurrently(orders.length, 6, async (i) => {
    const { orderId, invoiceId } = orders[i] as (typeof orders)[number];
    const raw = JSON.stringify({
      event: "NOTIFICATION.SHOP_INVOICE_PROCESSED",
      data: { invoice_id: invoiceId },
      shop_id: 151480,
    });
    const headers = {
      "Content-Type": "application/json",
      "X-Signature": crypto.createHmac("sha256", secret).update(raw).digest("hex"),
      "X-Timestamp": String(Math.floor(Date.now() / 1000)),
      "Idempotency-Key": `cluster-${crypto.randomUUID()}`,
    };
    // The shop redelivers the same notification; here both copies arrive together at two different instances.
    const targets = [i % cluster.ports.length, (i + 1) % cluster.ports.length];
    const pair = await Promise.all(
      targets.map((t) => send(`${cluster.url(t)}/api/shop/notifications`, { raw, headers })),
    );
    for (const reply of pair) {
      const body = reply.body as { outcome?: string; duplicate?: boolean } | undefined;
      replies.push({ status: reply.status, duplicate: body?.duplicate === true, outcome: body?.outcome });
      if (reply.status === 200 && body?.duplicate !== true && body?.outcome === "completed")
        appliedPerOrder.set(orderId, (appliedPerOrder.get(orderId) ?? 0) + 1);
    }
  });
  const seconds = (Date.now() - started) / 1000;

  const ids = orders.map((o) => o.orderId);
  const { rows: statuses } = await db.query<{ status: string; n: string }>(
    "SELECT status, count(*) AS n FROM orders WHERE id = ANY($1) GROUP BY status",
    [ids],
  );
  const completed = Number(statuses.find((s) => s.status === "completed")?.n ?? 0);
  const { rows: records } = await db.query<{ n: string }>(
    "SELECT count(*) AS n FROM shop_notifications WHERE invoice_id = ANY($1)",
    [orders.map((o) => o.invoiceId)],
  );
  const twice = [...appliedPerOrder.values()].filter((n) => n > 1).length;
  const acknowledged = replies.filter((r) => r.status === 200).length;
  console.log(
    figuresLine(
      "b. shop notifications",
      {
        submitted: replies.length,
        acknowledged,
        delivered: completed,
        duplicates: twice,
        lost: ORDERS - completed,
        drainSeconds: seconds,
      },
      {
        orders: orders.length,
        applied_once: [...appliedPerOrder.values()].filter((n) => n === 1).length,
        answered_duplicate: replies.filter((r) => r.duplicate).length,
        recorded: Number(records[0]?.n),
      },
    ),
  );
  checks.that(orders.length === ORDERS, `b: ${orders.length} of ${ORDERS} checkouts created an order`);
  checks.that(acknowledged === replies.length, `b: ${replies.length - acknowledged} notification(s) not answered 200`);
  checks.that(completed === ORDERS, `b: ${completed} of ${ORDERS} orders completed (${JSON.stringify(statuses)})`);
  checks.that(
    twice === 0 && appliedPerOrder.size === ORDERS,
    `b: applied once for ${appliedPerOrder.size} orders, twice for ${twice}`,
  );
  checks.that(replies.filter((r) => r.duplicate).length === ORDERS, "b: every second copy is answered as a duplicate");
  checks.that(
    Number(records[0]?.n) === ORDERS,
    `b: ${records[0]?.n} notifications recorded for ${ORDERS} orders (one each expected)`,
  );
}

export async function limitsAcrossInstances(opts: {
  cluster: Cluster;
  balancer: string;
  receiver: ChatWebhookReceiver;
  checks: Checks;
}) {
  const { cluster, balancer, receiver, checks } = opts;
  const nextClient = clientAddresses();
  const size = cluster.ports.length;
  const started = Date.now();
  const acknowledged: string[] = [];
  let submitted = 0;
  const post = async (base: string, client: string, altcha: string, n: number) => {
    submitted++;
    const reply = await send(`${base}/api/support`, { json: supportRequest(n, altcha), client });
    if (reply.status === 202) acknowledged.push((reply.body as { id: string }).id);
    return reply;
  };

  // One client: five requests spread over the instances are taken, the sixth is refused by each of them and by nginx.
  const client = nextClient();
  const firstFive: number[] = [];
  for (let n = 0; n < 5; n++) {
    const base = cluster.url(n % size);
    firstFive.push((await post(base, client, await solvedCaptcha(base), n)).status);
  }
  const sixth: number[] = [];
  for (const base of [...cluster.ports.map((_p, i) => cluster.url(i)), balancer]) {
    sixth.push((await post(base, client, await solvedCaptcha(base), 5)).status);
  }

  // One captcha: spent on one instance, refused on every other and on the one that took it.
  const payload = await solvedCaptcha(cluster.url(0));
  const spent = await post(cluster.url(1), nextClient(), payload, 100);
  const replays = [];
  for (const i of [2, 0, 1]) replays.push(await post(cluster.url(i % size), nextClient(), payload, 101));

  const delivered = await waitFor(
    () => {
      const shown = new Set(receiver.delivered().map((b) => requestIdOf(b as Parameters<typeof requestIdOf>[0])));
      return acknowledged.every((id) => shown.has(id)) ? acknowledged.length : undefined;
    },
    30_000,
    "the accepted requests to reach the channel",
  ).catch(() => 0);
  const rateLimited = sixth.filter((s) => s === 429).length;
  const replayRefused = replays.filter(
    (r) => r.status === 403 && (r.body as { error?: string }).error === "Captcha already used. Please try again.",
  ).length;
  console.log(
    figuresLine(
      "c. limits across instances",
      {
        submitted,
        acknowledged: acknowledged.length,
        delivered,
        duplicates: 0,
        lost: acknowledged.length - delivered,
        drainSeconds: (Date.now() - started) / 1000,
      },
      { sixth_refused: `${rateLimited}/${sixth.length}`, replay_refused: `${replayRefused}/${replays.length}` },
    ),
  );
  checks.that(
    firstFive.every((s) => s === 202),
    `c: the first five requests of one client were answered ${firstFive.join(",")}`,
  );
  checks.that(
    rateLimited === sixth.length,
    `c: the sixth request of one client was answered ${sixth.join(",")} by instances 0..${size - 1} and nginx (429 expected from each)`,
  );
  checks.that(spent.status === 202, `c: a fresh captcha spent on instance 1 was answered ${spent.status}`);
  checks.that(
    replayRefused === replays.length,
    `c: a spent captcha was answered ${replays.map((r) => r.status).join(",")} on instances 2, 0, 1 (403 reused expected)`,
  );
  checks.that(
    delivered === acknowledged.length,
    `c: ${acknowledged.length - delivered} accepted request(s) not delivered`,
  );
}
