import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { openDatabase } from "../../db/client";
import { startChatWebhookReceiver } from "../fakes/chat-webhook-receiver";
import { type AppServer, freePort, makeDataDir, startAppServer } from "../support/app-server";
import { solveCaptchaPayload } from "../support/captcha-solver";

const root = path.resolve(import.meta.dirname, "../..");

/** Runs `node server.ts` until it exits by itself (or `limitMs` passes, then kills it); its output split by stream. */
async function runServerUntilExit(env: Record<string, string>, limitMs = 20_000) {
  const child = spawn(process.execPath, ["server.ts"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      DATA_DIR: makeDataDir(),
      LOG_LEVEL: "info",
      NODE_NO_WARNINGS: "1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const limit = setTimeout(() => child.kill("SIGKILL"), limitMs);
  const code = await new Promise<number | null>((resolve) => child.once("exit", (exitCode) => resolve(exitCode)));
  clearTimeout(limit);
  return { code, stdout, stderr };
}

test.describe("starting on an address it cannot listen on", () => {
  let first: AppServer;
  test.beforeAll(async () => {
    first = await startAppServer();
  });
  test.afterAll(async () => {
    await first?.stop();
  });

  test("a second shop on a port in use exits non-zero with one line saying so, and never says it is ready", async () => {
    const second = await runServerUntilExit({ PORT: String(first.port) });
    expect(second.code, `${second.stdout}${second.stderr}`).toBe(1);
    expect(second.stderr.trim().split("\n")).toEqual([
      `Port ${first.port} is already in use (set PORT to another port)`,
    ]);
    expect(`${second.stdout}${second.stderr}`).not.toMatch(/listening|storefront ready/i);
    expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
  });

  test("a METRICS_PORT in use exits non-zero with one line saying so", async () => {
    const run = await runServerUntilExit({ PORT: String(await freePort()), METRICS_PORT: String(first.port) });
    expect(run.code, `${run.stdout}${run.stderr}`).toBe(1);
    expect(run.stderr.trim().split("\n")).toEqual([
      `Metrics port ${first.port} is already in use (set METRICS_PORT to another port)`,
    ]);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/listening|storefront ready/i);
  });

  test("a HOST that is not an address of this machine exits non-zero with one line naming it", async () => {
    const run = await runServerUntilExit({ PORT: String(await freePort()), HOST: "192.0.2.1" });
    expect(run.code, `${run.stdout}${run.stderr}`).toBe(1);
    expect(run.stderr.trim().split("\n")).toEqual([
      "HOST 192.0.2.1 is not an address of this machine (set HOST to one of its addresses, or 0.0.0.0 for all)",
    ]);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/listening|storefront ready/i);
  });
});

/** A hosted shop whose checkout answers only when the test says so: a request that stays in flight on our server. */
async function startHeldShop() {
  let arrived!: () => void;
  let release!: () => void;
  const arrival = new Promise<void>((resolve) => (arrived = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const shop = http.createServer((req, res) => {
    req.resume();
    arrived();
    void released.then(() =>
      res
        .writeHead(200, { "Content-Type": "application/json" })
        .end(JSON.stringify({ url: `${url}/checkout/inv_held`, invoice_id: "inv_held" })),
    );
  });
  await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
  return { url, arrival, release, close: () => new Promise<void>((resolve) => shop.close(() => resolve())) };
}

test("on SIGTERM /readyz answers 503 at once, a request in flight still completes, and the process exits 0", async () => {
  const shop = await startHeldShop();
  const server = await startAppServer({
    env: { CHECKOUT_PROVIDER: "sellauth", SHOP_API_BASE: shop.url, SHOP_CHECKOUT_ORIGIN: shop.url, LOG_LEVEL: "info" },
  });
  try {
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const exit = new Promise<number | null>((resolve) => server.process.once("exit", (code) => resolve(code)));
    const checkout = fetch(`${server.url}/api/checkout`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ productId: 446889, variantId: 652996, quantity: 1, altcha: "solved-by-the-shop" }),
    });
    await shop.arrival;
    server.process.kill("SIGTERM");
    // Load balancers keep polling readiness while the drain runs: they must see 503, not a refused connection.
    await expect.poll(async () => (await fetch(`${server.url}/readyz`)).status, { timeout: 10_000 }).toBe(503);
    expect(server.process.exitCode).toBeNull();
    shop.release();
    const answer = await checkout;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ url: `${shop.url}/checkout/inv_held` });
    expect(await exit, server.logs()).toBe(0);
    expect(server.logs()).toContain('"msg":"stopped"');
  } finally {
    await server.kill();
    await shop.close();
  }
});

test("on SIGTERM a support request being posted to the chat channel is finished, recorded as delivered, and its claim released", async () => {
  // The channel takes 3 s to answer, so the post is still in flight when the signal arrives.
  const receiver = await startChatWebhookReceiver({ defaultAnswer: { kind: "204", delayMs: 3_000 } });
  const dataDir = makeDataDir();
  const server = await startAppServer({ dataDir, env: { SUPPORT_WEBHOOK_URL: receiver.url, LOG_LEVEL: "info" } });
  try {
    const altcha = await solveCaptchaPayload(await (await fetch(`${server.url}/api/captcha/challenge`)).json());
    const accepted = await fetch(`${server.url}/api/support`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ category: "Key Reset", answers: ["Kestrel Vault", "New PC", "me@example.com"], altcha }),
    });
    expect(accepted.status).toBe(202);
    const { id } = (await accepted.json()) as { id: string };
    await receiver.waitForRequests(1);
    const exit = new Promise<number | null>((resolve) => server.process.once("exit", (code) => resolve(code)));
    server.process.kill("SIGTERM");
    expect(await exit, server.logs()).toBe(0);
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]?.answeredAt).toBeDefined();
    const handle = openDatabase({ dataDir });
    try {
      const row = await handle.db
        .selectFrom("support_requests")
        .selectAll()
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ delivery_status: "delivered", attempts: 1, claimed_by: null, claimed_until: null });
    } finally {
      await handle.close();
    }
  } finally {
    await server.kill();
    await receiver.close();
  }
});

test("rate limits key on X-Forwarded-For only when it comes from a proxy TRUST_PROXY trusts", async () => {
  // 127.0.0.1 (this test) is one trusted hop for the first server, and outside 10.0.0.0/8 for the second.
  const [trusting, distrusting] = await Promise.all([
    startAppServer({ env: { TRUST_PROXY: "1" } }),
    startAppServer({ env: { TRUST_PROXY: "10.0.0.0/8" } }),
  ]);
  const checkout = (server: AppServer, forwardedFor: string) =>
    fetch(`${server.url}/api/checkout`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": forwardedFor },
      body: "{}",
    });
  try {
    for (let i = 0; i < 10; i++) {
      // The client may prepend anything; one trusted hop means only the address our proxy appended counts.
      expect((await checkout(trusting, `192.0.2.${i}, 203.0.113.7`)).status).not.toBe(429);
      expect((await checkout(distrusting, `203.0.113.${i}`)).status).not.toBe(429);
    }
    expect((await checkout(trusting, "192.0.2.99, 203.0.113.7")).status).toBe(429);
    expect((await checkout(trusting, "203.0.113.8")).status).not.toBe(429);
    // Untrusted: every request counts against the connecting address, whatever it claims to forward.
    expect((await checkout(distrusting, "203.0.113.99")).status).toBe(429);
  } finally {
    await Promise.all([trusting.stop(), distrusting.stop()]);
  }
});

/** The TCP ports a process listens on, with the IPv4 address (or "ipv6") each is bound to; read from Linux's /proc. */
function listeningSockets(pid: number): Array<{ address: string; port: number }> {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    const inode = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`, { encoding: "utf8" }))?.[1];
    if (inode) inodes.add(inode);
  }
  return ["/proc/net/tcp", "/proc/net/tcp6"].flatMap((table) =>
    fs
      .readFileSync(table, "utf8")
      .split("\n")
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      // Column 4 is the state (0A: listening), column 10 the socket's inode.
      .filter((columns) => columns[3] === "0A" && inodes.has(columns[9] ?? ""))
      .map((columns) => {
        const [hexAddress = "", hexPort = ""] = (columns[1] ?? "").split(":");
        const address =
          hexAddress.length === 8
            ? (hexAddress.match(/../g) ?? [])
                .reverse()
                .map((byte) => Number.parseInt(byte, 16))
                .join(".")
            : "ipv6";
        return { address, port: Number.parseInt(hexPort, 16) };
      }),
  );
}

test.describe("metrics", () => {
  test("METRICS_PORT serves Prometheus text on 127.0.0.1 with the shop's counters, and the shop's port has no /metrics", async () => {
    const metricsPort = await freePort();
    const server = await startAppServer({ env: { METRICS_PORT: String(metricsPort) } });
    try {
      expect(
        (
          await fetch(`${server.url}/api/checkout`, {
            method: "POST",
            headers: { "Content-Type": "application/json" },
            body: "{}",
          })
        ).status,
      ).toBe(400);
      const unsigned = await fetch(`${server.url}/api/shop/notifications`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: '{"event":"x","data":{"invoice_id":"1"}}',
      });
      expect(unsigned.status).toBe(401);
      expect((await fetch(`${server.url}/`)).status).toBe(200);

      const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(scrape.status).toBe(200);
      expect(scrape.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = await scrape.text();
      expect(text).toContain('kestrel_checkout_outcomes_total{outcome="invalid"} 1');
      expect(text).toContain('kestrel_shop_notifications_total{outcome="bad_signature"} 1');
      // Requests by route id: a page by its React Router route, an API call by its path pattern.
      expect(text).toContain('kestrel_http_requests_total{route="routes/home",method="GET",status="200"} 1');
      expect(text).toContain('kestrel_http_requests_total{route="/api/checkout",method="POST",status="400"} 1');
      expect(text).toMatch(/kestrel_http_request_duration_seconds_count\{route="routes\/home",method="GET"\} 1/);
      // The outbox depth is read from the database at each scrape, every status present.
      for (const status of ["pending", "delivered", "failed", "no_channel"])
        expect(text).toContain(`kestrel_support_outbox_requests{status="${status}"} 0`);
      for (const name of [
        "kestrel_http_requests_total",
        "kestrel_http_request_duration_seconds",
        "kestrel_render_cache_lookups_total",
        "kestrel_support_delivery_attempts_total",
        "kestrel_support_channel_pauses_total",
        "kestrel_reviews_refresh_total",
        "process_cpu_user_seconds_total",
        "nodejs_heap_size_used_bytes",
      ]) {
        expect(text).toContain(`# TYPE ${name} `);
      }

      expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${metricsPort}/`)).status).toBe(404);
      const sockets = listeningSockets(server.process.pid ?? 0);
      expect(sockets).toContainEqual({ address: "127.0.0.1", port: metricsPort });
      expect(sockets).toHaveLength(2);
    } finally {
      await server.stop();
    }
    // Closed at shutdown with the rest.
    await expect(fetch(`http://127.0.0.1:${metricsPort}/metrics`)).rejects.toThrow();
  });

  test("without METRICS_PORT the shop listens on its own port only", async () => {
    const server = await startAppServer();
    try {
      expect(listeningSockets(server.process.pid ?? 0)).toEqual([{ address: "127.0.0.1", port: server.port }]);
      expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});
