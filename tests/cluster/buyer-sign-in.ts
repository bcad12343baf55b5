// Scenario g: a buyer's sign-in at /orders works whichever instance answers each step (issue 29): a demo purchase with
// an email, a code asked for on one instance, mailed through the shared outbox, accepted on another, the orders shown
// on a third; then the operator revokes the address's sessions and all three instances refuse the cookie.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import path from "node:path";
import type pg from "pg";
import { type Checks, type Cluster, clientAddresses, send, solvedCaptcha, waitFor } from "./cluster";

/** Kestrel Studio, Lifetime: any product of the demo catalogue does. */
const CART = { productId: 446894, variantId: 653023, quantity: 1 };
const ROOT = path.resolve(import.meta.dirname, "../..");

/** A plain form POST as a browser without JavaScript sends it; redirects are not followed, so their cookies are seen. */
async function postForm(url: string, fields: Record<string, string>, opts: { cookie?: string; client: string }) {
  const res = await fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: new URL(url).origin,
      "X-Forwarded-For": opts.client,
      ...(opts.cookie ? { Cookie: opts.cookie } : {}),
    },
    body: new URLSearchParams(fields).toString(),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, cookies: cookiesOf(res.headers), text: await res.text() };
}

/** The `name=value` pairs a response sets (cleared ones left out). */
function cookiesOf(headers: Headers): string[] {
  return headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0] ?? "")
    .filter((pair) => !pair.endsWith("="));
}

async function ordersPage(url: string, cookie: string, client: string, retried = false) {
  try {
    const res = await fetch(`${url}/orders`, {
      headers: { Cookie: cookie, "X-Forwarded-For": client },
      signal: AbortSignal.timeout(30_000),
    });
    return { status: res.status, text: await res.text() };
  } catch (error) {
    // A kept-alive connection the instance closed as it was reused (Node closes idle ones after 5 s, and the CLI
    // between two reads can take longer on a busy machine): a browser sends an idempotent GET again, and so does this.
    if (retried || (error as { cause?: { code?: string } }).cause?.code !== "UND_ERR_SOCKET") throw error;
    return ordersPage(url, cookie, client, true);
  }
}

export async function buyerSignInAcrossInstances(opts: {
  cluster: Cluster;
  balancer: string;
  db: pg.Client;
  databaseUrl: string;
  checks: Checks;
}) {
  const { cluster, balancer, db, databaseUrl, checks } = opts;
  const client = clientAddresses()();
  const email = `buyer-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const started = Date.now();

  // A demo purchase with the buyer's email, paid on instance 0.
  const altcha = await solvedCaptcha(balancer, "/api/checkout/challenge");
  const checkout = await send(`${balancer}/api/checkout`, { json: { ...CART, altcha }, client });
  if (checkout.status !== 200) throw new Error(`checkout answered ${checkout.status}: ${checkout.text}`);
  const { url: invoiceUrl, orderId } = checkout.body as { url: string; orderId: string };
  const invoicePath = new URL(invoiceUrl, balancer).pathname;
  const paid = await postForm(`${cluster.url(0)}${invoicePath}`, { email }, { client });
  checks.that(paid.status < 400, `g: paying the demo invoice answered ${paid.status}`);
  const order = await db.query("SELECT status, buyer_email, delivered_key FROM orders WHERE id = $1", [orderId]);
  const key = order.rows[0]?.delivered_key as string | undefined;
  checks.that(
    order.rows[0]?.status === "completed" && order.rows[0]?.buyer_email === email && typeof key === "string",
    `g: the paid order is completed with the buyer's email and a key (${JSON.stringify({ ...order.rows[0], delivered_key: key ? "…" : key })})`,
  );

  // The code is asked for on instance 1 and mailed through the shared outbox (kept in the database: no SMTP here).
  const asked = await postForm(`${cluster.url(1)}/orders`, { intent: "send-code", email }, { client });
  checks.that(asked.status === 200, `g: asking for a code answered ${asked.status}`);
  const pending = asked.cookies.join("; ");
  const mail = await waitFor(
    async () => {
      const rows = await db.query("SELECT text_body FROM mail_outbox WHERE to_address = $1", [email]);
      return rows.rows[0]?.text_body as string | undefined;
    },
    20_000,
    "the sign-in code's mail in the outbox",
  );
  const code = mail?.match(/\b(\d{6})\b/)?.[1];
  checks.that(code !== undefined, "g: the code's mail is in the outbox with a 6-digit code");
  if (!code) return;

  // The code is accepted on instance 2, and the orders are shown on instance 0.
  const signedIn = await postForm(
    `${cluster.url(2)}/orders`,
    { intent: "check-code", code },
    { cookie: pending, client },
  );
  checks.that(signedIn.status === 303, `g: a right code on another instance answered ${signedIn.status}, not 303`);
  const session = signedIn.cookies.find((pair) => pair.startsWith("kestrel_orders_session=")) ?? "";
  checks.that(session !== "", "g: the right code sets the session cookie");
  const shown = await ordersPage(cluster.url(0), session, client);
  checks.that(
    shown.status === 200 && shown.text.includes("Sign out") && Boolean(key && shown.text.includes(key)),
    `g: the orders page on a third instance shows the order and its key (status ${shown.status})`,
  );

  // The operator signs the address out everywhere; every instance refuses the cookie from then on.
  execFileSync(
    path.join(ROOT, "node_modules/.bin/tsx"),
    [
      "--import",
      "./scripts/lib/lingui-macros.register.mjs",
      "cli/index.ts",
      "orders",
      "sessions",
      "revoke",
      "--email",
      email,
    ],
    { cwd: ROOT, env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "warn" }, stdio: "pipe" },
  );
  const afterRevoke = await Promise.all(cluster.ports.map((_p, i) => ordersPage(cluster.url(i), session, client)));
  const stillSignedIn = afterRevoke.filter(
    (page) => page.text.includes("Sign out") || (key && page.text.includes(key)),
  );
  checks.that(
    stillSignedIn.length === 0 && afterRevoke.every((page) => page.status === 200 && page.text.includes("Send code")),
    `g: after the revocation, ${stillSignedIn.length} of ${cluster.ports.length} instances still showed the orders`,
  );
  console.log(
    `g. buyer sign-in across ${cluster.ports.length} instances: paid on 0, code asked on 1, accepted on 2, shown on 0; revoked: refused by ${afterRevoke.length - stillSignedIn.length}/${afterRevoke.length}; ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}
