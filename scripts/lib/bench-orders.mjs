// The buyer-orders section of `npm run bench` (alone: BENCH_ONLY=orders; left out: BENCH_SKIP_ORDERS=1), issue 29:
// how long a sign-in code takes from the POST to a real SMTP server on 127.0.0.1, the signed-in /orders page (its
// document against the first round trip, one Lighthouse run), and sign-in requests per second against the limits.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import autocannon from "autocannon";
import * as chromeLauncher from "chrome-launcher";
import { startSmtpReceiver } from "../../tests/fakes/smtp-receiver.ts";
import { startAppServer } from "../../tests/support/app-server.ts";
import { ensureChromium } from "../ensure-chromium.mjs";
import {
  CHROME_FLAGS,
  CONNECTIONS,
  DURATION,
  documentSize,
  FIRST_ROUND_TRIP_BYTES,
  lighthouseRun,
  loadAverage,
  sleep,
} from "./bench-measure.mjs";

/** Sequential code requests timed to the mail, each from its own client address (10 per client per 15 min). */
const CODE_REQUESTS = 30;
/** Demo orders of the signed-in address whose page is measured. */
const ORDERS_ON_PAGE = 3;

/** A paid demo order of `email`, as the demo checkout records it (the row tests/e2e/buyer-orders.spec.ts inserts). */
function insertOrder(dataDir, email, createdAt) {
  const id = crypto.randomUUID();
  const db = new DatabaseSync(path.join(dataDir, "store.db"));
  try {
    // The running server's mail worker writes to the same file.
    db.exec("PRAGMA busy_timeout = 5000");
    db.prepare(
      `INSERT INTO orders (id, provider, provider_invoice_id, product_id, variant_id, quantity, amount_cents, status,
         created_at, buyer_email, delivered_key) VALUES (?, 'demo', ?, 446894, 653023, 1, 29993, 'completed', ?, ?, ?)`,
    ).run(id, `demo-${id}`, createdAt, email, `DEMO-${id.slice(0, 8).toUpperCase()}`);
  } finally {
    db.close();
  }
}

/** Nearest-rank percentile of `values` (ms). */
function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** The mail to `email` once the SMTP server has it. */
async function mailTo(smtp, email, timeoutMs = 30_000) {
  const started = Date.now();
  for (;;) {
    const mail = smtp.received.find((m) => m.rcptTo.includes(email));
    if (mail) return mail;
    if (Date.now() - started > timeoutMs) throw new Error("no mail reached the SMTP server in time");
    await sleep(1);
  }
}

function postForm(server, fields, headers = {}) {
  return fetch(`${server.url}/orders`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url, ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

/** `name=value` of the cookie `name` a response sets. */
function cookieSet(response, name) {
  const found = response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  if (!found) throw new Error(`the answer set no ${name} cookie (status ${response.status})`);
  return found.split(";")[0];
}

/** autocannon POSTing send-code from one client address for DURATION s; `email(n)` is the nth request's address. */
async function sendCodeLoad(server, clientAddress, email) {
  let n = 0;
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [
      {
        method: "POST",
        path: "/orders",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          origin: server.url,
          "x-forwarded-for": clientAddress,
        },
        setupRequest: (request) => ({
          ...request,
          body: new URLSearchParams({ intent: "send-code", email: email(n++) }).toString(),
        }),
      },
    ],
  });
  const count = (status) => result.statusCodeStats?.[status]?.count ?? 0;
  const other = result.requests.total - count(200) - count(429);
  return {
    rps: Math.round(result.requests.average),
    ok: count(200),
    limited: count(429),
    other,
    errors: result.errors,
  };
}

export async function benchOrders({ buildDir }) {
  console.log(`\n## Buyer orders: sign-in codes through a real SMTP server (load average ${loadAverage()})`);
  const smtp = await startSmtpReceiver();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kestrel-bench-orders-"));
  let server;
  try {
    server = await startAppServer({
      dataDir,
      env: {
        BUILD_DIR: buildDir,
        LOG_LEVEL: "warn",
        // Each request below says which client it is: the per-client limit counts them apart.
        TRUST_PROXY: "loopback",
        SMTP_URL: smtp.url,
        MAIL_FROM: "Kestrel Software <shop@example.com>",
      },
    });
    while ((await fetch(`${server.url}/readyz`)).status !== 200) await sleep(50);

    // (a) POST /orders → the mail in the SMTP server, one request at a time, each address with a demo order.
    const run = crypto.randomBytes(3).toString("hex");
    const addresses = Array.from({ length: CODE_REQUESTS }, (_, i) => `bench-${run}-${i}@example.com`);
    for (const email of addresses) insertOrder(dataDir, email, new Date().toISOString());
    const buyer = `bench-${run}-signed-in@example.com`;
    for (let i = 0; i < ORDERS_ON_PAGE; i++)
      insertOrder(dataDir, buyer, new Date(Date.UTC(2026, 0, 1 + i)).toISOString());
    const times = [];
    for (const [i, email] of addresses.entries()) {
      const started = performance.now();
      const response = await postForm(
        server,
        { intent: "send-code", email },
        { "X-Forwarded-For": `10.77.${i >> 8}.${(i % 254) + 1}` },
      );
      if (response.status !== 200) throw new Error(`send-code answered ${response.status}`);
      await response.arrayBuffer();
      await mailTo(smtp, email);
      times.push(performance.now() - started);
    }
    console.log(`| code request → mail in the SMTP server (${CODE_REQUESTS} sequential) | p50 | p95 | max |`);
    console.log("|---|---:|---:|---:|");
    const ms = (v) => `${v.toFixed(0)} ms`;
    console.log(
      `| POST /orders (send-code) to the message received | ${ms(percentile(times, 50))} | ${ms(percentile(times, 95))} | ${ms(Math.max(...times))} |`,
    );

    // (b) The signed-in page: a session from a mailed code, then its document and one Lighthouse run.
    const client = { "X-Forwarded-For": "10.78.0.1" };
    const asked = await postForm(server, { intent: "send-code", email: buyer }, client);
    const pending = cookieSet(asked, "kestrel_orders_code");
    const code = /Your code to see your orders: (\d{6})/.exec((await mailTo(smtp, buyer)).text)?.[1] ?? "";
    const checked = await postForm(server, { intent: "check-code", code }, { ...client, Cookie: pending });
    const session = cookieSet(checked, "kestrel_orders_session");
    const page = await (await fetch(`${server.url}/orders`, { headers: { Cookie: session } })).text();
    if (!page.includes("Sign out")) throw new Error("the session cookie did not sign in");
    const document = await documentSize(`${server.url}/orders`, { Cookie: session });
    const total = document.body + document.headers;
    let lighthouse;
    if (!process.env.BENCH_SKIP_LIGHTHOUSE) {
      const chrome = await chromeLauncher.launch({
        chromePath: process.env.CHROME_PATH ?? ensureChromium(),
        chromeFlags: CHROME_FLAGS,
      });
      try {
        lighthouse = await lighthouseRun(chrome, `${server.url.replace("127.0.0.1", "localhost")}/orders`, {
          extraHeaders: { Cookie: session },
        });
      } finally {
        await chrome.kill();
      }
    }
    console.log(
      `| /orders signed in (${ORDERS_ON_PAGE} orders) | document (gzip + headers) | first round trip | perf | FCP | LCP | CLS |`,
    );
    console.log("|---|---:|---|---:|---:|---:|---:|");
    const lh = lighthouse
      ? `${lighthouse.perf ?? "n/a"} | ${ms(lighthouse.fcp ?? Number.NaN)} | ${ms(lighthouse.lcp ?? Number.NaN)} | ${lighthouse.cls?.toFixed(3) ?? "n/a"}`
      : "– | – | – | –";
    console.log(
      `| 1 Lighthouse run${document.status === 200 ? "" : ` (${document.status})`} | ${total.toLocaleString("en-US")} B | ${total <= FIRST_ROUND_TRIP_BYTES ? "fits" : "spills over"} (${FIRST_ROUND_TRIP_BYTES.toLocaleString("en-US")} B) | ${lh} |`,
    );

    // (c) send-code as fast as it goes from one client address: the limits must hold under load.
    const distinct = await sendCodeLoad(server, "10.79.0.1", (n) => `bench-${run}-load-${n}@example.com`);
    const oneAddress = `bench-${run}-one@example.com`;
    const same = await sendCodeLoad(server, "10.79.0.2", () => oneAddress);
    console.log(
      `| send-code from one client address, ${DURATION} s × ${CONNECTIONS} connections | req/s | 200 (code made) | 429 | other | limit | holds |`,
    );
    console.log("|---|---:|---:|---:|---:|---|---|");
    const row = (label, r, limit, max) =>
      console.log(
        `| ${label} | ${r.rps} | ${r.ok} | ${r.limited} | ${r.other + r.errors} | ${limit} | ${r.ok <= max && r.ok > 0 ? "yes" : "NO"} |`,
      );
    row("a new address each request", distinct, "10 per client address / 15 min", 10);
    row("one address every request", same, "3 codes per address / 15 min", 3);
  } finally {
    await server?.stop();
    await smtp.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
