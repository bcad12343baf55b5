// Scenario d: PostgreSQL stopped and started again under light load (a throwaway server of the test's own). While it is
// down APIs answer 503 JSON and pages a friendly 503 page, quickly, /readyz says 503; every instance recovers by itself.
import type { ChatWebhookReceiver } from "../fakes/chat-webhook-receiver";
import {
  type Checks,
  type Cluster,
  clientAddresses,
  figuresLine,
  type Reply,
  requestIdOf,
  send,
  sleep,
  solvedCaptcha,
  supportRequest,
  waitFor,
} from "./cluster";
import type { ThrowawayPostgres } from "./throwaway-postgres";

/** Recovery must be this quick once PostgreSQL accepts connections again. */
const RECOVERY_LIMIT_S = 5;
/** A failure must come this quickly: the pool's 3 s connect timeout is the worst case (an address that does not answer). */
const FAIL_FAST_LIMIT_MS = 4_000;
const DOWN_MS = 3_000;

interface Observation {
  what: "support" | "order" | "page";
  status: number;
  ms: number;
  reply?: Reply;
  error?: string;
}

export async function postgresRestart(opts: {
  cluster: Cluster;
  balancer: string;
  receiver: ChatWebhookReceiver;
  postgres: ThrowawayPostgres;
  checks: Checks;
}) {
  const { cluster, balancer, receiver, postgres, checks } = opts;
  const nextClient = clientAddresses();
  const size = cluster.ports.length;

  // One order to look at: its status API and its (demo) checkout page both read the database.
  const altcha = await solvedCaptcha(balancer, "/api/checkout/challenge");
  const checkout = await send(`${balancer}/api/checkout`, {
    json: { productId: 446894, variantId: 653023, quantity: 1, altcha },
    client: nextClient(),
  });
  const { url: checkoutPage, orderId } = checkout.body as { url: string; orderId: string };

  const observations: Observation[] = [];
  const acknowledged: string[] = [];
  let submitted = 0;
  let running = true;
  const observe = async (what: Observation["what"], request: () => Promise<Reply>) => {
    const started = performance.now();
    try {
      const reply = await request();
      observations.push({ what, status: reply.status, ms: reply.ms, reply });
      return reply;
    } catch (error) {
      observations.push({ what, status: 0, ms: performance.now() - started, error: (error as Error).message });
      return undefined;
    }
  };
  // Light load: a support request, an order status and a page about four times a second, through nginx.
  const load = (async () => {
    for (let n = 0; running; n++) {
      const payload = await solvedCaptcha(balancer);
      submitted++;
      const reply = await observe("support", () =>
        send(`${balancer}/api/support`, { json: supportRequest(2000 + n, payload), client: nextClient() }),
      );
      if (reply?.status === 202) acknowledged.push((reply.body as { id: string }).id);
      await observe("order", () => send(`${balancer}/api/orders/${orderId}`, { client: nextClient() }));
      await observe("page", () => send(`${balancer}${checkoutPage}`, { client: nextClient() }));
      await sleep(250);
    }
  })();

  await sleep(1_500);
  postgres.stop();
  const downAt = Date.now();
  // Each instance, asked directly: readiness, an API and a page.
  const direct: Array<{ instance: number; ready: Reply; api: Reply; page: Reply; support: Reply }> = [];
  for (let i = 0; i < size; i++) {
    const base = cluster.url(i);
    direct.push({
      instance: i,
      ready: await send(`${base}/readyz`),
      api: await send(`${base}/api/orders/${orderId}`),
      page: await send(`${base}${checkoutPage}`),
      support: await send(`${base}/api/support`, {
        json: supportRequest(3000 + i, await solvedCaptcha(base)),
        client: nextClient(),
      }),
    });
  }
  await sleep(Math.max(0, DOWN_MS - (Date.now() - downAt)));
  postgres.start();
  const upAt = Date.now();
  const recoveries = await Promise.all(
    cluster.ports.map(async (_p, i) => {
      await waitFor(
        async () => {
          const [ready, api] = await Promise.all([
            send(`${cluster.url(i)}/readyz`),
            send(`${cluster.url(i)}/api/orders/${orderId}`),
          ]);
          return ready.status === 200 && api.status === 200 ? true : undefined;
        },
        30_000,
        `instance ${i} to recover`,
        50,
      );
      return (Date.now() - upAt) / 1000;
    }),
  );
  await sleep(1_500);
  running = false;
  await load;

  const drainStarted = Date.now();
  const delivered = await waitFor(
    () => {
      const shown = new Set(receiver.delivered().map((b) => requestIdOf(b as Parameters<typeof requestIdOf>[0])));
      return acknowledged.every((id) => shown.has(id)) ? acknowledged.length : undefined;
    },
    30_000,
    "requests accepted around the restart to reach the channel",
  ).catch(
    () =>
      acknowledged.filter((id) =>
        receiver.delivered().some((b) => requestIdOf(b as Parameters<typeof requestIdOf>[0]) === id),
      ).length,
  );
  const unavailable = observations.filter((o) => o.status === 503);
  const recovery = Math.max(...recoveries);
  console.log(
    figuresLine(
      "d. postgres restart",
      {
        submitted,
        acknowledged: acknowledged.length,
        delivered,
        duplicates: 0,
        lost: acknowledged.length - delivered,
        drainSeconds: (Date.now() - drainStarted) / 1000,
        recoverySeconds: recovery,
      },
      {
        down_s: ((upAt - downAt) / 1000).toFixed(1),
        answered_503: unavailable.length,
        slowest_503_ms: Math.round(
          Math.max(0, ...unavailable.map((o) => o.ms), ...direct.flatMap((d) => [d.api.ms, d.page.ms, d.support.ms])),
        ),
        per_instance_recovery_s: recoveries.map((r) => r.toFixed(2)).join("/"),
      },
    ),
  );

  for (const d of direct) {
    const at = `d: instance ${d.instance} while PostgreSQL is down`;
    checks.that(d.ready.status === 503, `${at}: /readyz answered ${d.ready.status}`);
    checks.that(
      d.api.status === 503 && typeof (d.api.body as { error?: unknown })?.error === "string",
      `${at}: the order API answered ${d.api.status} ${d.api.text.slice(0, 120)}`,
    );
    checks.that(
      d.support.status === 503 && typeof (d.support.body as { error?: unknown })?.error === "string",
      `${at}: POST /api/support answered ${d.support.status} ${d.support.text.slice(0, 120)}`,
    );
    checks.that(
      d.page.status === 503 && d.page.contentType.startsWith("text/html") && d.page.text.includes("Back in a moment"),
      `${at}: the page answered ${d.page.status} without the friendly text`,
    );
    for (const [name, reply] of [
      ["api", d.api],
      ["page", d.page],
      ["support", d.support],
    ] as const) {
      checks.that(reply.ms < FAIL_FAST_LIMIT_MS, `${at}: ${name} took ${Math.round(reply.ms)} ms to fail`);
    }
  }
  const wrong = observations.filter((o) => o.status !== 200 && o.status !== 202 && o.status !== 503);
  checks.that(
    wrong.length === 0,
    `d: under load, answers other than 200/202/503: ${JSON.stringify(wrong.slice(0, 5).map((o) => ({ what: o.what, status: o.status, error: o.error, text: o.reply?.text.slice(0, 80) })))}`,
  );
  checks.that(
    unavailable.every((o) =>
      o.what === "page"
        ? o.reply?.text.includes("Back in a moment")
        : typeof (o.reply?.body as { error?: unknown })?.error === "string",
    ),
    "d: a 503 under load was neither the friendly page nor JSON {error}",
  );
  checks.that(
    unavailable.every((o) => o.ms < FAIL_FAST_LIMIT_MS),
    "d: a 503 under load took longer than the connect timeout",
  );
  checks.that(
    recovery <= RECOVERY_LIMIT_S,
    `d: slowest instance recovered ${recovery.toFixed(2)} s after PostgreSQL came back (limit ${RECOVERY_LIMIT_S} s)`,
  );
  checks.that(
    delivered === acknowledged.length,
    `d: ${acknowledged.length - delivered} request(s) accepted around the restart not delivered`,
  );
  checks.that(
    observations.some((o) => o.status === 200 || o.status === 202),
    "d: the light load saw no successful answer",
  );
}
