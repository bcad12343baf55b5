// A SellAuth-compatible hosted shop on 127.0.0.1: ALTCHA challenges, storefront and API checkouts, invoices,
// hosted checkout pages, and signed shop notifications sent to our server.
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createChallenge, randomInt, verifySolution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";

/** How POST /v1/checkout (and the API checkout) answer next. */
export type ShopCheckoutMode =
  | { kind: "url" }
  | { kind: "error"; message: string; status?: number }
  | { kind: "no-url" }
  | { kind: "500" }
  | { kind: "not-json" }
  | { kind: "slow"; delayMs: number };

export interface ShopRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

export interface SentNotification {
  status: number;
  body: unknown;
}

export interface ShopEmulator {
  /** Base URL to configure as SHOP_API_BASE (and SHOP_CHECKOUT_ORIGIN: checkout pages are served here too). */
  url: string;
  shopId: string;
  apiKey: string;
  requests: ShopRequest[];
  setCheckoutMode(mode: ShopCheckoutMode): void;
  /** Invoices created by checkouts, with the status the invoice API reports. */
  invoices: Map<string, { status: string; cart: unknown }>;
  setInvoiceStatus(invoiceId: string, status: string): void;
  /** Posts a signed notification to `target` (our /api/shop/notifications), as the shop does after a payment. */
  sendNotification(
    target: string,
    input: { event: string; invoiceId: string; secret: string; timestamp?: number; idempotencyKey?: string; signature?: string; shopId?: string },
  ): Promise<SentNotification>;
  close(): Promise<void>;
}

const HMAC_KEY = crypto.randomBytes(16).toString("hex");

function send(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
}

async function readBody(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function captchaIsValid(altcha: unknown): Promise<boolean> {
  if (typeof altcha !== "string") return false;
  try {
    const payload = JSON.parse(Buffer.from(altcha, "base64").toString("utf8"));
    const result = await verifySolution({ challenge: payload.challenge, solution: payload.solution, deriveKey, hmacSignatureSecret: HMAC_KEY });
    return result.verified;
  } catch {
    return false;
  }
}

export async function startShopEmulator(options: { shopId?: string; apiKey?: string; checkCaptcha?: boolean } = {}): Promise<ShopEmulator> {
  const shopId = options.shopId ?? "151480";
  const apiKey = options.apiKey ?? `sk_test_${crypto.randomBytes(8).toString("hex")}`;
  let mode: ShopCheckoutMode = { kind: "url" };
  const requests: ShopRequest[] = [];
  const invoices = new Map<string, { status: string; cart: unknown }>();
  const sockets = new Set<import("node:net").Socket>();
  let base = "";

  async function answerCheckout(res: http.ServerResponse, body: unknown, api: boolean) {
    const current = mode;
    if (current.kind === "slow") await new Promise((resolve) => setTimeout(resolve, current.delayMs));
    if (res.destroyed) return;
    if (current.kind === "error") return send(res, current.status ?? 400, api ? { success: false, message: current.message, error: current.message } : { error: current.message });
    if (current.kind === "no-url") return send(res, 200, api ? { success: true } : {});
    if (current.kind === "500") return send(res, 500, { message: "Server Error" });
    if (current.kind === "not-json") {
      res.writeHead(502, { "Content-Type": "text/html" }).end("<html><body>Bad gateway</body></html>");
      return;
    }
    const invoiceId = String(randomInt(9_999_999, 1_000_000));
    invoices.set(invoiceId, { status: "pending", cart: (body as { cart?: unknown })?.cart });
    const url = `${base}/checkout/${invoiceId}`;
    return send(res, 200, api ? { success: true, invoice_id: Number(invoiceId), invoice_url: url, url } : { url });
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const body = req.method === "POST" ? await readBody(req) : undefined;
    requests.push({ method: req.method ?? "GET", path: url.pathname, headers: req.headers, body });
    const authorized = req.headers.authorization === `Bearer ${apiKey}`;

    if (req.method === "GET" && url.pathname === "/v1/altcha") {
      const challenge = await createChallenge({
        algorithm: "SHA-256",
        cost: 1,
        counter: randomInt(3000, 500),
        deriveKey,
        hmacSignatureSecret: HMAC_KEY,
        expiresAt: Math.floor(Date.now() / 1000) + 600,
      });
      return send(res, 200, challenge);
    }
    if (req.method === "POST" && url.pathname === "/v1/checkout") {
      const b = body as { cart?: unknown; shopId?: unknown; altcha?: unknown } | undefined;
      if (!Array.isArray(b?.cart) || String(b?.shopId) !== shopId) return send(res, 400, { error: "Invalid cart or shop" });
      if (options.checkCaptcha !== false && mode.kind === "url" && !(await captchaIsValid(b?.altcha))) return send(res, 400, { error: "Captcha verification failed" });
      return answerCheckout(res, body, false);
    }
    const apiCheckout = url.pathname.match(/^\/v1\/shops\/([^/]+)\/checkout$/);
    if (req.method === "POST" && apiCheckout) {
      if (!authorized) return send(res, 401, { message: "Unauthenticated." });
      if (apiCheckout[1] !== shopId) return send(res, 404, { message: "Shop not found" });
      return answerCheckout(res, body, true);
    }
    const invoice = url.pathname.match(/^\/v1\/shops\/([^/]+)\/invoices\/([^/]+)$/);
    if (req.method === "GET" && invoice) {
      if (!authorized) return send(res, 401, { message: "Unauthenticated." });
      const found = invoice[1] === shopId ? invoices.get(decodeURIComponent(invoice[2] ?? "")) : undefined;
      if (!found) return send(res, 404, { message: "Invoice not found" });
      return send(res, 200, { id: Number(invoice[2]), status: found.status });
    }
    const page = url.pathname.match(/^\/checkout\/(\d+)$/);
    if (req.method === "GET" && page) {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hosted checkout</title></head><body><main><h1>Hosted checkout</h1><p>Invoice ${page[1]}</p></main></body></html>`,
      );
      return;
    }
    send(res, 404, { message: "Not found" });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    shopId,
    apiKey,
    requests,
    invoices,
    setCheckoutMode(next) {
      mode = next;
    },
    setInvoiceStatus(invoiceId, status) {
      const found = invoices.get(invoiceId);
      invoices.set(invoiceId, { status, cart: found?.cart });
    },
    async sendNotification(target, input) {
      const raw = JSON.stringify({ event: input.event, data: { invoice_id: input.invoiceId }, shop_id: input.shopId ?? shopId });
      const response = await fetch(target, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-Signature": input.signature ?? crypto.createHmac("sha256", input.secret).update(raw).digest("hex"),
          "X-Timestamp": String(input.timestamp ?? Math.floor(Date.now() / 1000)),
          "Idempotency-Key": input.idempotencyKey ?? crypto.randomUUID(),
        },
        body: raw,
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {}
      return { status: response.status, body: parsed };
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
