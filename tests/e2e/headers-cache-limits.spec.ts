import { createHash } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { type AppServer, freePort, startAppServer } from "../support/app-server";
import { secretsInLog } from "../support/server-log";

const nonceOf = (csp: string) => /'nonce-([^']+)'/.exec(csp)?.[1];

test.describe("HTML responses", () => {
  test("carry the security headers and a CSP whose nonce matches every script in that response", async ({
    request,
  }) => {
    for (let i = 0; i < 2; i++) {
      const res = await request.get("/");
      const headers = res.headers();
      expect(headers["x-content-type-options"]).toBe("nosniff");
      expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
      expect(headers["cross-origin-opener-policy"]).toBe("same-origin");
      expect(headers["permissions-policy"]).toContain("payment=(self)");
      expect(headers["strict-transport-security"]).toBeUndefined();
      const nonce = nonceOf(headers["content-security-policy"] ?? "");
      expect(nonce).toBeTruthy();
      const html = await res.text();
      const scriptNonces = [...html.matchAll(/<script[^>]*\snonce="([^"]+)"/g)].map((m) => m[1]);
      expect(scriptNonces.length).toBeGreaterThan(0);
      expect(new Set(scriptNonces)).toEqual(new Set([nonce]));
      // A cached page's other inline scripts and its stylesheet are allowed by hash instead (ADR 019).
      const csp = headers["content-security-policy"] ?? "";
      for (const [, attributes, text] of html.matchAll(
        /<(?:script|style)([^>]*)>([^<]*(?:<(?!\/(?:script|style)>)[^<]*)*)<\/(?:script|style)>/g,
      )) {
        if (attributes?.includes("nonce=") || attributes?.includes("application/ld+json")) continue;
        expect(csp, (text ?? "").slice(0, 60)).toContain(
          `'sha256-${createHash("sha256")
            .update(text ?? "")
            .digest("base64")}'`,
        );
      }
    }
  });

  test("get a fresh nonce on every response, even when the page comes from the render cache", async ({ request }) => {
    const nonces = new Set<string | undefined>();
    for (let i = 0; i < 5; i++)
      nonces.add(nonceOf((await request.get("/faq")).headers()["content-security-policy"] ?? ""));
    expect(nonces.size).toBe(5);
  });

  test("answer 304 Not Modified to a matching ETag, without a CSP that would disagree with the stored page", async ({
    request,
  }) => {
    const first = await request.get("/products");
    const etag = first.headers().etag;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers()["cache-control"]).toBe("public, max-age=0, s-maxage=300, stale-while-revalidate=86400");
    const again = await request.get("/products", { headers: { "If-None-Match": etag ?? "" } });
    expect(again.status()).toBe(304);
    expect(again.headers()["content-security-policy"]).toBeUndefined();
    expect(await again.body()).toHaveLength(0);
  });

  test("of a shareable page are rendered whole, whichever client's request renders them for the cache", async ({
    request,
  }) => {
    // A browser's request would get React's streamed form (boundary templates and their scripts); stored, everyone would.
    const url = `/product/446894?rendered-by=browser-${Date.now()}`;
    const chrome =
      "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/135.0.0.0 Mobile Safari/537.36";
    for (let i = 0; i < 2; i++) {
      const html = await (await request.get(url, { headers: { "User-Agent": chrome } })).text();
      expect(html).toContain("Kestrel Studio");
      expect(html).not.toContain('<template id="B:');
      expect(html).not.toContain("$RC");
    }
  });

  test("are never stored for the success page and the 404 page", async ({ request }) => {
    for (const path of ["/purchase/success", "/no-such-page"]) {
      const res = await request.get(path);
      expect(res.headers()["cache-control"]).toBe("no-store");
      expect(res.headers().etag).toBeUndefined();
    }
  });
});

test.describe("compression and asset caching", () => {
  // Bodies under 1 KB (e.g. /api/status) are sent as they are: compressing them saves nothing.
  test("HTML, JavaScript, CSS and JSON are compressed with brotli or gzip", async ({ request }) => {
    const html = await (await request.get("/")).text();
    // The page's modules are named only inside its held module script (ADR 012), not in preloads.
    const script = /"(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeTruthy();
    // A page inlines the rules it uses (ADR 013, covered by "/"); the whole stylesheet, and any CSS file a feature
    // brings, are checked too.
    const whole = /data-whole-stylesheet="([^"]+)"/.exec(html)?.[1];
    expect(whole).toMatch(/^\/assets\/site-[\w-]+\.css$/);
    const stylesheets = fs
      .readdirSync(path.join(process.env.BUILD_DIR ?? "build", "client/assets"))
      .filter((f) => f.endsWith(".css"));
    for (const [path, encoding] of [
      ["/", "br"],
      [script, "br"],
      [whole, "br"],
      [whole, "gzip"],
      ...stylesheets.map((file) => [`/assets/${file}`, "gzip"] as const),
      ["/api/reviews", "gzip"],
    ] as const) {
      const res = await request.get(path ?? "", { headers: { "Accept-Encoding": encoding } });
      expect(res.headers()["content-encoding"], path).toBe(encoding);
    }
  });

  test("a browser's Accept-Encoding gets cached pages brotli-encoded (gzip without br), each response with its own nonce", async ({
    request,
  }) => {
    const nonces = new Set<string>();
    for (const acceptEncoding of ["gzip, deflate, br, zstd", "gzip, deflate, br, zstd", "gzip", "gzip"]) {
      const res = await request.get("/faq", { headers: { "Accept-Encoding": acceptEncoding } });
      expect(res.headers()["content-encoding"]).toBe(acceptEncoding === "gzip" ? "gzip" : "br");
      expect(res.headers().vary).toMatch(/Accept-Encoding/i);
      const nonce = nonceOf(res.headers()["content-security-policy"] ?? "") ?? "";
      const html = await res.text();
      expect(html).toContain('<style id="site-css" data-whole-stylesheet="');
      expect(html).toContain("Frequently Asked Questions");
      // The nonce is on the last script only, near the end: the rest of the page is the same bytes for everyone.
      const lastScript = html.slice(html.lastIndexOf("<script"));
      expect(lastScript).toMatch(/^<script nonce="[^"]+">[^<]*<\/script>(<!--\/?\$-->)*<\/body><\/html>$/);
      expect(lastScript).toContain(`nonce="${nonce}"`);
      nonces.add(nonce);
    }
    expect(nonces.size).toBe(4);
  });

  test("the site stylesheet is inline, allowed by its hash, and nothing else blocks rendering", async ({ request }) => {
    const res = await request.get("/faq");
    const html = await res.text();
    const csp = res.headers()["content-security-policy"] ?? "";
    const head = html.slice(0, html.indexOf("</head>"));
    const styleOpen = '<style id="site-css" data-whole-stylesheet="';
    expect(head).toContain(styleOpen);
    const inline = head.slice(head.indexOf(styleOpen), head.indexOf("</style>"));
    // Allowed by its hash in this response's CSP (ADR 019).
    const text = inline.slice(inline.indexOf(">") + 1);
    expect(csp).toContain(`'sha256-${createHash("sha256").update(text).digest("base64")}'`);
    expect(inline).toContain(".sr-only{");
    // Only the rules this page uses (ADR 013): the video pages' `aspect-video` is in the whole stylesheet alone.
    const whole = await (await request.get(/data-whole-stylesheet="([^"]+)"/.exec(head)?.[1] ?? "")).text();
    expect(whole).toContain(".sr-only{");
    expect(whole).toContain(".aspect-video{");
    expect(html.includes("aspect-video")).toBe(false);
    expect(inline.length).toBeLessThan(whole.length * 0.6);
    expect(head).not.toMatch(/<link[^>]+rel="stylesheet"/);
    expect(head).not.toMatch(/<script(?![^>]*(type="module"|type="application\/ld\+json"|async))[^>]*src=/);
  });

  test("hashed assets are cacheable forever", async ({ request }) => {
    const html = await (await request.get("/")).text();
    const asset = /"(\/assets\/[^"]+\.(?:js|css))"/.exec(html)?.[1] ?? "";
    expect((await request.get(asset)).headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  test("APIs are never stored", async ({ request }) => {
    expect((await request.get("/api/orders/does-not-exist")).headers()["cache-control"]).toBe("no-store");
  });
});

test.describe("configuration-dependent headers", () => {
  test("an https PUBLIC_URL adds HSTS, and sellauth adds its checkout origin to frame-src and payment", async () => {
    const server = await startAppServer({
      env: {
        PUBLIC_URL: "https://shop.example.com",
        CHECKOUT_PROVIDER: "sellauth",
        SHOP_CHECKOUT_ORIGIN: "https://checkout.example.com",
        SHOP_API_BASE: "http://127.0.0.1:9",
      },
    });
    try {
      const res = await fetch(`${server.url}/faq`);
      expect(res.headers.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains; preload");
      expect(res.headers.get("content-security-policy")).toContain(
        "frame-src 'self' https://www.youtube-nocookie.com https://checkout.example.com",
      );
      expect(res.headers.get("permissions-policy")).toContain('payment=(self "https://checkout.example.com")');
    } finally {
      await server.stop();
    }
  });
});

test.describe("rate limits", () => {
  let server: AppServer;
  test.beforeAll(async () => {
    server = await startAppServer();
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  const hit = (path: string, ip: string, method = "POST") =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { "content-type": "application/json", "x-forwarded-for": ip },
      body: method === "POST" ? "{}" : undefined,
    });

  for (const { name, path, method, limit } of [
    { name: "checkout", path: "/api/checkout", method: "POST", limit: 10 },
    { name: "support requests", path: "/api/support", method: "POST", limit: 5 },
    { name: "order status polling", path: "/api/orders/some-order", method: "GET", limit: 60 },
    { name: "language suggestions", path: "/api/language-suggestion?path=/faq", method: "GET", limit: 200 },
  ]) {
    test(`${name}: request ${limit + 1} from one address within the window gets 429 JSON with Retry-After`, async () => {
      const ip = `203.0.113.${limit}`;
      for (let i = 0; i < limit; i++) expect((await hit(path, ip, method)).status).not.toBe(429);
      const limited = await hit(path, ip, method);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await limited.json()).toEqual({ error: expect.any(String) });
      // Another client is not affected.
      expect((await hit(path, `198.51.100.${limit}`, method)).status).not.toBe(429);
    });
  }

  test("shop notifications are never rate limited (they are signature-checked instead)", async () => {
    for (let i = 0; i < 40; i++) expect((await hit("/api/shop/notifications", "192.0.2.7")).status).not.toBe(429);
  });
});

test.describe("rate limits across instances", () => {
  test("two app instances sharing REDIS_URL share one allowance per client", async () => {
    const redisUrl = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
    const reachable = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: new URL(redisUrl).hostname, port: Number(new URL(redisUrl).port || 6379) });
      socket.once("connect", () => resolve(socket.end() !== undefined));
      socket.once("error", () => resolve(false));
    });
    test.skip(!reachable, `Redis is not reachable at ${redisUrl}: the shared store cannot be exercised here`);
    const [a, b] = await Promise.all([
      startAppServer({ env: { REDIS_URL: redisUrl } }),
      startAppServer({ env: { REDIS_URL: redisUrl } }),
    ]);
    try {
      // A fresh address per run, so an earlier run's counters (kept 60 s in Redis) cannot interfere.
      const ip = `203.0.113.${Math.floor(Math.random() * 250) + 1}, 198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}`;
      const post = (server: AppServer) =>
        fetch(`${server.url}/api/checkout`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-forwarded-for": ip },
          body: "{}",
        });
      for (let i = 0; i < 5; i++) {
        expect((await post(a)).status).not.toBe(429);
        expect((await post(b)).status).not.toBe(429);
      }
      expect((await post(a)).status).toBe(429);
      expect((await post(b)).status).toBe(429);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});

test("with Redis configured but down, limits still hold through the in-process fallback", async () => {
  const deadRedis = `redis://127.0.0.1:${await freePort()}`;
  const server = await startAppServer({ env: { REDIS_URL: deadRedis } });
  try {
    const post = () =>
      fetch(`${server.url}/api/checkout`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
    for (let i = 0; i < 10; i++) expect((await post()).status).not.toBe(429);
    expect((await post()).status).toBe(429);
    expect(secretsInLog(server.logs(), [deadRedis])).toEqual([]);
  } finally {
    await server.stop();
  }
});
