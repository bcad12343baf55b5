import { expect, test } from "@playwright/test";
import fc from "fast-check";
import { type AppServer, startAppServer } from "../support/app-server";
import { type OpenedThroughApi, openConversationThroughApi } from "../support/support-conversation-client";

// Property: whatever arrives at an API route (method, query, headers, body), the answer is never a 5xx, and a 4xx
// is JSON `{error: string}` without a stack trace. Runs against its own production server, so rate limits that the
// fuzz trips cannot disturb other specs; random X-Forwarded-For spreads requests over many client addresses.
// Routes marked `conversation` are sent with the cookie of a real conversation (or none, a random or a malformed one),
// from our origin or another, so the fuzz reaches past the cookie check into each handler.
const ROUTES: Array<{ name: string; methods: string[]; path: fc.Arbitrary<string>; conversation?: boolean }> = [
  { name: "/api/status", methods: ["GET", "HEAD"], path: fc.constant("/api/status") },
  { name: "/api/checkout", methods: ["POST", "GET"], path: fc.constant("/api/checkout") },
  {
    name: "/api/checkout/challenge and /api/captcha/challenge",
    methods: ["GET"],
    path: fc.constantFrom("/api/checkout/challenge", "/api/captcha/challenge"),
  },
  {
    name: "/api/orders/:id",
    methods: ["GET", "DELETE"],
    path: fc.string({ maxLength: 80 }).map((id) => `/api/orders/${encodeURIComponent(id) || "x"}`),
  },
  { name: "/api/shop/notifications", methods: ["POST"], path: fc.constant("/api/shop/notifications") },
  { name: "/api/support", methods: ["POST", "GET"], path: fc.constant("/api/support") },
  { name: "/api/reviews", methods: ["GET"], path: fc.constant("/api/reviews") },
  {
    name: "/api/support/conversation and its events stream",
    methods: ["GET", "HEAD", "POST"],
    path: fc.constantFrom("/api/support/conversation", "/api/support/conversation/events"),
    conversation: true,
  },
  {
    name: "/api/support/conversation/messages and /seen",
    methods: ["POST", "GET", "PUT"],
    path: fc.constantFrom("/api/support/conversation/messages", "/api/support/conversation/seen"),
    conversation: true,
  },
  {
    name: "/api/language-suggestion and /api/status?locale=",
    methods: ["GET", "HEAD"],
    path: fc
      .tuple(fc.constantFrom("/api/language-suggestion?path=", "/api/status?locale="), fc.string({ maxLength: 80 }))
      .map(([route, value]) => route + encodeURIComponent(value)),
  },
  {
    name: "/api/releases/:product/latest and /:channel.yml (the update feeds)",
    methods: ["GET", "HEAD"],
    path: fc
      .tuple(
        fc.oneof(fc.constantFrom("446889", "vault", "0"), fc.string({ maxLength: 40 })),
        fc.oneof(fc.constantFrom("latest", "stable.yml", "beta.yml", "nightly.yml"), fc.string({ maxLength: 40 })),
      )
      .map(
        ([product, feed]) => `/api/releases/${encodeURIComponent(product) || "x"}/${encodeURIComponent(feed) || "x"}`,
      ),
  },
  {
    name: "unknown /api paths",
    methods: ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"],
    path: fc.webPath().map((p) => `/api${p.startsWith("/") ? p : `/${p}`}`),
  },
];
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 400);

const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 60,
});
const ipv4 = fc
  .tuple(fc.integer({ min: 1, max: 223 }), fc.nat(255), fc.nat(255), fc.integer({ min: 1, max: 254 }))
  .map((p) => p.join("."));

const body = fc.oneof(
  fc.jsonValue().map((v) => ({ text: JSON.stringify(v), json: true })),
  fc
    .record(
      {
        cart: fc.array(
          fc.record({
            productId: fc.oneof(fc.integer(), fc.string()),
            variantId: fc.anything(),
            quantity: fc.oneof(fc.integer(), fc.double()),
          }),
          { maxLength: 5 },
        ),
        altcha: fc.string(),
        shopId: fc.anything(),
      },
      { requiredKeys: [] },
    )
    .map((v) => ({ text: JSON.stringify(v), json: true })),
  fc
    .record({
      event: fc.string(),
      data: fc.record({ invoice_id: fc.oneof(fc.string(), fc.integer()) }),
      shop_id: fc.anything(),
    })
    .map((v) => ({ text: JSON.stringify(v), json: true })),
  fc
    .record({ category: fc.string(), answers: fc.dictionary(fc.string(), fc.string()), altcha: fc.string() })
    .map((v) => ({ text: JSON.stringify(v), json: true })),
  fc
    .record(
      {
        text: fc.oneof(fc.string({ maxLength: 3000 }), fc.anything()),
        seq: fc.oneof(fc.integer(), fc.double(), fc.anything()),
      },
      { requiredKeys: [] },
    )
    .map((v) => ({ text: JSON.stringify(v), json: true })),
  fc.string({ maxLength: 200 }).map((text) => ({ text, json: false })),
  fc.constantFrom("{", '{"a":', "[1,2", "nul", '"\\u12"', "{}}", "\u0000").map((text) => ({ text, json: true })),
  fc
    .integer({ min: 16 * 1024, max: 40 * 1024 })
    .map((n) => ({ text: JSON.stringify({ pad: "x".repeat(n) }), json: true })),
  fc.constant(undefined),
);

const headers = fc.record(
  {
    "content-type": fc.constantFrom(
      "application/json",
      "application/json; charset=utf-8",
      "application/json; charset=latin-9",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/jsonx",
      "",
    ),
    accept: fc.constantFrom("application/json", "text/html", "*/*", "image/*"),
    "x-signature": printable,
    "x-timestamp": fc.oneof(printable, fc.integer().map(String)),
    "idempotency-key": printable,
    "accept-encoding": fc.constantFrom("gzip", "br", "identity", "deflate, gzip;q=0"),
    "if-none-match": printable,
    "x-custom": printable,
  },
  { requiredKeys: [] },
);

const query = fc.dictionary(
  fc.string({ maxLength: 12 }),
  fc.oneof(fc.string({ maxLength: 40 }), fc.constant("%E0%A4%A"), fc.integer().map(String)),
  { maxKeys: 4 },
);

/** How a conversation route's request authenticates and where it says it comes from. */
const visitor = fc.record({
  cookie: fc.constantFrom("valid", "valid", "none", "random", "malformed"),
  origin: fc.constantFrom("same", "none", "foreign"),
  lastEventId: fc.option(fc.oneof(printable, fc.integer().map(String)), { nil: undefined }),
});

let server: AppServer;
let conversation: OpenedThroughApi;
test.describe.configure({ mode: "serial" });
test.beforeAll(async () => {
  server = await startAppServer({ env: { LOG_LEVEL: "silent" } });
  conversation = await openConversationThroughApi(server.url);
});
test.afterAll(async () => {
  await server?.stop();
});

for (const route of ROUTES) {
  test(`fuzzed requests to ${route.methods.join("/")} ${route.name} never get a 5xx or a malformed error`, async () => {
    test.setTimeout(120_000);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...route.methods),
        route.path,
        query,
        headers,
        body,
        ipv4,
        visitor,
        async (method, path, params, hdrs, payload, ip, who) => {
          const search = Object.entries(params)
            .map(([k, v]) => `${encodeURIComponent(k)}=${v.startsWith("%") ? v : encodeURIComponent(v)}`)
            .join("&");
          const sendsBody = payload !== undefined && !["GET", "HEAD"].includes(method);
          const requestHeaders: Record<string, string> = { ...hdrs, "x-forwarded-for": ip };
          if (!sendsBody) delete requestHeaders["content-type"];
          if (route.conversation) {
            const cookies = {
              valid: conversation.cookie,
              none: undefined,
              random: `kestrel_support_conversation=${"A".repeat(43)}`,
              malformed: "kestrel_support_conversation=../x;%%",
            };
            const cookie = cookies[who.cookie as keyof typeof cookies];
            if (cookie) requestHeaders.cookie = cookie;
            if (who.origin !== "none")
              requestHeaders.origin = who.origin === "same" ? server.url : "https://evil.example";
            if (who.lastEventId !== undefined) requestHeaders["last-event-id"] = who.lastEventId;
          }
          const abort = new AbortController();
          const res = await fetch(`${server.url}${path}${search ? `?${search}` : ""}`, {
            method,
            headers: requestHeaders,
            body: sendsBody ? payload.text : undefined,
            signal: abort.signal,
          });
          if (method !== "HEAD" && (res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
            // A stream stays open: its first bytes are the retry line; then the request is abandoned.
            expect(res.status).toBe(200);
            const reader = res.body?.getReader();
            const first = await reader?.read();
            expect(new TextDecoder().decode(first?.value)).toContain("retry: 3000");
            abort.abort();
            return;
          }
          const text = await res.text();
          expect(res.status, `${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`).toBeLessThan(500);
          expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);
          if (res.status >= 400 && method !== "HEAD") {
            expect(res.headers.get("content-type") ?? "", `${method} ${path} ${res.status}`).toContain(
              "application/json",
            );
            const parsed = JSON.parse(text) as { error?: unknown };
            expect(typeof parsed.error, `${method} ${path} ${res.status}: ${text.slice(0, 200)}`).toBe("string");
          }
        },
      ),
      { numRuns: RUNS_PER_ROUTE, endOnFailure: true },
    );
  });
}

// The buyer's orders pages (issue 29) answer HTML: never a 5xx, never a stack trace, whatever the form or its origin.
const PAGE_ROUTES: Array<{ name: string; methods: string[]; path: fc.Arbitrary<string> }> = [
  {
    name: "/orders, /orders/:id and /demo/mailbox in every locale",
    methods: ["GET", "POST", "HEAD"],
    path: fc
      .tuple(
        fc.constantFrom("", "/de", "/ar", "/pt-br"),
        fc.oneof(
          fc.constant("/orders"),
          fc.constant("/demo/mailbox"),
          fc.string({ maxLength: 60 }).map((id) => `/orders/${encodeURIComponent(id) || "x"}`),
        ),
      )
      .map(([locale, page]) => locale + page),
  },
];
const form = fc.oneof(
  fc
    .record(
      {
        intent: fc.oneof(
          fc.constantFrom("send-code", "check-code", "start-over", "sign-out", "open-conversation"),
          fc.string(),
        ),
        email: fc.oneof(fc.emailAddress(), fc.string({ maxLength: 300 })),
        code: fc.oneof(fc.stringMatching(/^\d{5,7}$/), fc.string({ maxLength: 20 })),
        // A support conversation's id (issue 30): no session here, so never one of this client's.
        conversation: fc.oneof(fc.uuid(), fc.string({ maxLength: 100 })),
      },
      { requiredKeys: [] },
    )
    .map((fields) => ({ text: new URLSearchParams(fields).toString(), json: false })),
  body.filter((b) => b !== undefined),
  fc.integer({ min: 4 * 1024, max: 12 * 1024 }).map((n) => ({ text: `email=${"a".repeat(n)}`, json: false })),
);

for (const route of PAGE_ROUTES) {
  test(`fuzzed requests to ${route.methods.join("/")} ${route.name} never get a 5xx`, async () => {
    test.setTimeout(120_000);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...route.methods),
        route.path,
        query,
        headers,
        form,
        fc.constantFrom("same", "none", "foreign"),
        ipv4,
        async (method, path, params, hdrs, payload, origin, ip) => {
          const search = Object.entries(params)
            .map(([k, v]) => `${encodeURIComponent(k)}=${v.startsWith("%") ? v : encodeURIComponent(v)}`)
            .join("&");
          const requestHeaders: Record<string, string> = { ...hdrs, "x-forwarded-for": ip };
          if (origin !== "none") requestHeaders.origin = origin === "same" ? server.url : "https://evil.example";
          if (method !== "POST") delete requestHeaders["content-type"];
          else requestHeaders["content-type"] ??= "application/x-www-form-urlencoded";
          const res = await fetch(`${server.url}${path}${search ? `?${search}` : ""}`, {
            method,
            headers: requestHeaders,
            body: method === "POST" ? payload.text : undefined,
            redirect: "manual",
          });
          const text = await res.text();
          expect(res.status, `${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`).toBeLessThan(500);
          expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);
        },
      ),
      { numRuns: Math.min(RUNS_PER_ROUTE, 300), endOnFailure: true },
    );
  });
}
