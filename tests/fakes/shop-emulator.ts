// A SellAuth-compatible hosted shop on 127.0.0.1: ALTCHA challenges, storefront and API checkouts, invoices,
// hosted invoice pages (with a Pay button), a separate "gateway" origin whose page refuses to be framed, 429s with
// Retry-After, shop notifications signed like SellAuth's (3 attempts, a fixed interval apart), and the catalogue API
// (products, groups, feedback, settings: shop-catalogue.ts) whose stock a paid invoice takes from, buyers' invoices listed
// by email over several pages (shop-invoices.ts), and the bytes of its product images: by URL under /images/, and by
// Cloudflare image id under /imagedelivery/ (SHOP_IMAGE_DELIVERY_URL).
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createChallenge, randomInt, verifySolution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import {
  answerCatalogueRequest,
  chargeFor,
  createShopCatalogueState,
  EMULATED_IMAGE_ACCOUNT_HASH,
  EMULATED_IMAGE_DELIVERY_PATH,
  emulatedImageSvg,
  type ShopCatalogueState,
  takeStock,
} from "./shop-catalogue.ts";
import { buyerInvoices, recentRelaySales, type WireInvoice } from "./shop-invoices.ts";

/** How POST /v1/checkout (and the API checkout) answer next. */
export type ShopCheckoutMode =
  | { kind: "url" }
  /** The API answers only `url`, the payment gateway's page (which refuses framing), as some gateways make it do. */
  | { kind: "gateway-only" }
  | { kind: "error"; message: string; status?: number }
  | { kind: "no-url" }
  | { kind: "500" }
  | { kind: "not-json" }
  | { kind: "slow"; delayMs: number }
  /** The checkout is created, but its hosted invoice page never answers (a shop having a bad day). */
  | { kind: "hanging-page" };

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

/** Invoice statuses SellAuth's docs show, and one they do not (the storefront must keep it and read it as pending). */
export const INVOICE_STATUSES = {
  pending: "pending",
  confirming: "confirming",
  completed: "completed",
  refunded: "refunded",
  cancelled: "cancelled",
  unknown: "on_hold_review",
} as const;

/** An invoice as the emulator keeps it: the cart and coupon it was created with, and its status. */
export interface ShopInvoice {
  status: string;
  cart: unknown;
  coupon?: string;
  /** What the shop charges for the cart (volume discount and coupon taken off), in cents. */
  amountCents?: number;
}

/** The shop's own words when it refuses a coupon (the storefront shows them as they are). */
export const SHOP_COUPON_REFUSAL = "The coupon code is invalid or has expired.";
/** Coupon codes the emulated shop accepts, with their percent off. */
export const SHOP_COUPONS: Readonly<Record<string, number>> = { SHOP15: 15 };

export interface ShopEmulator {
  /** Base URL to configure as SHOP_API_BASE (and SHOP_CHECKOUT_ORIGIN: invoice pages are served here too). */
  url: string;
  /** Where this shop delivers Cloudflare image ids: SHOP_IMAGE_DELIVERY_URL in tests. */
  imageDeliveryUrl: string;
  /** The payment gateway's origin (another port): its pages answer X-Frame-Options DENY and frame-ancestors 'none'. */
  gatewayUrl: string;
  shopId: string;
  apiKey: string;
  requests: ShopRequest[];
  setCheckoutMode(mode: ShopCheckoutMode): void;
  /** Invoices created by checkouts, with the status the invoice API reports. */
  invoices: Map<string, ShopInvoice>;
  setInvoiceStatus(invoiceId: string, status: string): void;
  /** Where the invoice page's Pay button sends its signed notification (our /api/shop/notifications), and with which secret. */
  notifyOnPay(target: string, secret: string): void;
  /** Buyers' invoices the list API serves (shop-invoices.ts); tests add, change or remove them. */
  buyerInvoices: WireInvoice[];
  /**
   * How `GET …/invoices?email=` matches: `exact` (case-insensitive, the default), `contains` (a loose filter that also
   * answers other addresses containing it), or `ignored` (every invoice, as if the filter were unknown).
   */
  setInvoiceEmailMatch(mode: "exact" | "contains" | "ignored"): void;
  /**
   * Single invoices (`GET …/invoices/{id}`) whose read answers 500 until removed: the buyer's page must say their key
   * could not be loaded, and load it on "Try again" once the shop answers.
   */
  failingInvoiceReads: Set<string>;
  /**
   * Single invoice reads: how long each takes (ms, default 0), the most ever answered at once, and how many of the next
   * are answered 429 with Retry-After: `retryAfterSeconds`.
   */
  singleInvoiceReads: { delayMs: number; maxAtOnce: number; limitNext: number; retryAfterSeconds: number };
  /** The next `count` API requests are answered 429 with Retry-After: `retryAfterSeconds`. */
  rateLimitNext(count: number, retryAfterSeconds: number): void;
  /** Sets the status and sends the matching signed notification (retried like SellAuth: 3 attempts), as a payment does. */
  settleInvoice(invoiceId: string, status: string): Promise<SentNotification | undefined>;
  /** The catalogue the API serves; tests change it, then send a catalogue notification. */
  catalogue: ShopCatalogueState;
  /** Sends a signed notification about the catalogue (e.g. `NOTIFICATION.SHOP_PRODUCT_UPDATED`, `{product_id}`) to the `notifyOnPay` target. */
  notifyCatalogue(event: string, data: Record<string, unknown>): Promise<SentNotification | undefined>;
  /** Posts a signed notification to `target` (our /api/shop/notifications), as the shop does after a payment. */
  sendNotification(
    target: string,
    input: {
      event: string;
      invoiceId: string;
      secret: string;
      timestamp?: number;
      idempotencyKey?: string;
      signature?: string;
      shopId?: string;
    },
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
    const result = await verifySolution({
      challenge: payload.challenge,
      solution: payload.solution,
      deriveKey,
      hmacSignatureSecret: HMAC_KEY,
    });
    return result.verified;
  } catch {
    return false;
  }
}

/** SellAuth's event names for the statuses a payment settles in. */
const EVENT_FOR_STATUS: Record<string, string> = {
  completed: "NOTIFICATION.SHOP_INVOICE_PROCESSED",
  refunded: "NOTIFICATION.SHOP_INVOICE_REFUNDED",
  cancelled: "NOTIFICATION.SHOP_INVOICE_CANCELLED",
  expired: "NOTIFICATION.SHOP_INVOICE_EXPIRED",
};

const DELIVERED_FIELDS = ["serials", "delivered", "deliverables"];

/** An invoice as the list shows it: without what was delivered, at its top or in its items. */
function withoutDelivered(invoice: WireInvoice): WireInvoice {
  const row: WireInvoice = Object.fromEntries(Object.entries(invoice).filter(([k]) => !DELIVERED_FIELDS.includes(k)));
  if (Array.isArray(invoice.items))
    row.items = invoice.items.map((item) =>
      item && typeof item === "object"
        ? Object.fromEntries(Object.entries(item).filter(([k]) => !DELIVERED_FIELDS.includes(k)))
        : item,
    );
  return row;
}

function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export async function startShopEmulator(
  options: {
    shopId?: string;
    apiKey?: string;
    checkCaptcha?: boolean;
    retryIntervalMs?: number;
    extraProducts?: number;
  } = {},
): Promise<ShopEmulator> {
  const shopId = options.shopId ?? "151480";
  const apiKey = options.apiKey ?? `sk_test_${crypto.randomBytes(8).toString("hex")}`;
  let mode: ShopCheckoutMode = { kind: "url" };
  const requests: ShopRequest[] = [];
  const invoices = new Map<string, ShopInvoice>();
  const hangingPages = new Set<string>();
  const sockets = new Set<import("node:net").Socket>();
  let base = "";
  let gatewayBase = "";
  let notifyTarget: { url: string; secret: string } | undefined;
  let rateLimited = { count: 0, retryAfterSeconds: 0 };
  let emailMatch: "exact" | "contains" | "ignored" = "exact";
  const listedInvoices: WireInvoice[] = [];
  const failingInvoiceReads = new Set<string>();
  const singleInvoiceReads = { delayMs: 0, maxAtOnce: 0, limitNext: 0, retryAfterSeconds: 0 };
  let singleReadsNow = 0;
  const retryIntervalMs = options.retryIntervalMs ?? 5_000;
  // Seeded once the port is known: its product images are served from here.
  let catalogue: ShopCatalogueState;

  async function postNotification(
    target: string,
    raw: string,
    secret: string,
    headers: { timestamp?: number; idempotencyKey?: string; signature?: string } = {},
  ) {
    const response = await fetch(target, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Signature": headers.signature ?? crypto.createHmac("sha256", secret).update(raw).digest("hex"),
        "X-Timestamp": String(headers.timestamp ?? Math.floor(Date.now() / 1000)),
        "Idempotency-Key":
          headers.idempotencyKey ?? crypto.createHash("sha256").update(`${raw}:${Date.now()}`).digest("hex"),
      },
      body: raw,
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {}
    return { status: response.status, body: parsed };
  }

  /** One event, delivered like SellAuth's: the same key on every attempt, up to 3 attempts while the answer is not 2xx. */
  async function deliver(invoiceId: string, event: string): Promise<SentNotification | undefined> {
    return deliverEvent(event, { invoice_id: Number(invoiceId) });
  }

  async function deliverEvent(event: string, data: Record<string, unknown>): Promise<SentNotification | undefined> {
    if (!notifyTarget) return undefined;
    const raw = JSON.stringify({ event, data, shop_id: Number(shopId) });
    const idempotencyKey = crypto.randomBytes(32).toString("hex");
    let last: SentNotification | undefined;
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        last = await postNotification(notifyTarget.url, raw, notifyTarget.secret, { idempotencyKey });
        if (last.status >= 200 && last.status < 300) return last;
      } catch {}
      if (attempt < 3) await new Promise((resolve) => setTimeout(resolve, retryIntervalMs));
    }
    return last;
  }

  async function settle(invoiceId: string, status: string) {
    const found = invoices.get(invoiceId);
    invoices.set(invoiceId, { cart: undefined, ...found, status });
    // A paid invoice takes its keys from stock, and the shop says so for each product whose stock changed.
    const changed = status === "completed" && found?.status !== "completed" ? takeStock(catalogue, found?.cart) : [];
    const sent = await deliver(invoiceId, EVENT_FOR_STATUS[status] ?? "NOTIFICATION.SHOP_INVOICE_UPDATED");
    for (const productId of changed) await deliverEvent("NOTIFICATION.SHOP_STOCK_UPDATED", { product_id: productId });
    return sent;
  }

  async function answerCheckout(res: http.ServerResponse, body: unknown, api: boolean) {
    const current = mode;
    if (current.kind === "slow") await new Promise((resolve) => setTimeout(resolve, current.delayMs));
    if (res.destroyed) return;
    if (current.kind === "error")
      return send(
        res,
        current.status ?? 400,
        api ? { success: false, message: current.message, error: current.message } : { error: current.message },
      );
    if (current.kind === "no-url") return send(res, 200, api ? { success: true } : {});
    if (current.kind === "500") return send(res, 500, { message: "Server Error" });
    const coupon = (body as { coupon?: unknown })?.coupon;
    if (coupon !== undefined && (typeof coupon !== "string" || !(coupon.toUpperCase() in SHOP_COUPONS))) {
      return send(res, 400, api ? { success: false, message: SHOP_COUPON_REFUSAL } : { error: SHOP_COUPON_REFUSAL });
    }
    const charge = chargeFor(
      catalogue,
      (body as { cart?: unknown })?.cart,
      typeof coupon === "string" ? SHOP_COUPONS[coupon.toUpperCase()] : undefined,
    );
    if (typeof charge === "string")
      return send(res, 400, api ? { success: false, message: charge } : { error: charge });
    const priced = charge === undefined ? {} : { amountCents: charge };
    if (current.kind === "gateway-only") {
      const invoiceId = String(randomInt(9_999_999, 1_000_000));
      invoices.set(invoiceId, {
        status: "pending",
        cart: (body as { cart?: unknown })?.cart,
        ...(typeof coupon === "string" ? { coupon } : {}),
        ...priced,
      });
      const url = `${gatewayBase}/pay/${invoiceId}`;
      return send(res, 200, api ? { success: true, invoice_id: Number(invoiceId), url } : { url });
    }
    if (current.kind === "not-json") {
      res.writeHead(502, { "Content-Type": "text/html" }).end("<html><body>Bad gateway</body></html>");
      return;
    }
    const invoiceId = String(randomInt(9_999_999, 1_000_000));
    invoices.set(invoiceId, {
      status: "pending",
      cart: (body as { cart?: unknown })?.cart,
      ...(typeof coupon === "string" ? { coupon } : {}),
      ...priced,
    });
    if (current.kind === "hanging-page") hangingPages.add(invoiceId);
    const invoiceUrl = `${base}/checkout/${invoiceId}`;
    // As documented: invoice_url is the shop's own page, url the payment gateway's.
    return send(
      res,
      200,
      api
        ? {
            success: true,
            invoice_id: Number(invoiceId),
            invoice_url: invoiceUrl,
            url: `${gatewayBase}/pay/${invoiceId}`,
          }
        : { url: invoiceUrl },
    );
  }

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const body = req.method === "POST" ? await readBody(req) : undefined;
    requests.push({ method: req.method ?? "GET", path: url.pathname, headers: req.headers, body });
    const authorized = req.headers.authorization === `Bearer ${apiKey}`;
    if (url.pathname.startsWith("/v1/") && rateLimited.count > 0) {
      rateLimited.count -= 1;
      res
        .writeHead(429, { "Content-Type": "application/json", "Retry-After": String(rateLimited.retryAfterSeconds) })
        .end(JSON.stringify({ message: "Too Many Attempts." }));
      return;
    }

    const image =
      url.pathname.match(/^\/images\/([a-z0-9-]+)\.svg$/) ??
      url.pathname.match(
        new RegExp(`^${EMULATED_IMAGE_DELIVERY_PATH}/${EMULATED_IMAGE_ACCOUNT_HASH}/([A-Za-z0-9._-]+)/public$`),
      );
    if (req.method === "GET" && image) {
      res.writeHead(200, { "Content-Type": "image/svg+xml", "Cache-Control": "public, max-age=60" });
      res.end(emulatedImageSvg(image[1] ?? ""));
      return;
    }

    const catalogueAnswer = req.method === "GET" ? answerCatalogueRequest(catalogue, shopId, url) : undefined;
    if (catalogueAnswer) {
      if (!authorized) return send(res, 401, { message: "Unauthenticated." });
      if (catalogue.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, catalogue.delayMs));
      if (!res.destroyed) send(res, catalogueAnswer.status, catalogueAnswer.body);
      return;
    }

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
      if (!Array.isArray(b?.cart) || String(b?.shopId) !== shopId)
        return send(res, 400, { error: "Invalid cart or shop" });
      if (options.checkCaptcha !== false && mode.kind === "url" && !(await captchaIsValid(b?.altcha)))
        return send(res, 400, { error: "Captcha verification failed" });
      return answerCheckout(res, body, false);
    }
    const apiCheckout = url.pathname.match(/^\/v1\/shops\/([^/]+)\/checkout$/);
    if (req.method === "POST" && apiCheckout) {
      if (!authorized) return send(res, 401, { message: "Unauthenticated." });
      if (apiCheckout[1] !== shopId) return send(res, 404, { message: "Shop not found" });
      return answerCheckout(res, body, true);
    }
    const invoiceList = url.pathname.match(/^\/v1\/shops\/([^/]+)\/invoices$/);
    if (req.method === "GET" && invoiceList) {
      if (!authorized) return send(res, 401, { message: "Unauthenticated." });
      if (invoiceList[1] !== shopId) return send(res, 404, { message: "Shop not found" });
      const perPage = Number(url.searchParams.get("perPage") ?? 20);
      const page = Number(url.searchParams.get("page") ?? 1);
      if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100 || !Number.isInteger(page) || page < 1)
        return send(res, 422, { message: "The per page field must not be greater than 100." });
      const email = url.searchParams.get("email")?.toLowerCase();
      const matching = listedInvoices
        .filter((i) => {
          const address = String(i.email ?? "").toLowerCase();
          if (!email || emailMatch === "ignored") return true;
          return emailMatch === "contains" ? address.includes(email) : address === email;
        })
        .sort((a, b) => String(b.created_at).localeCompare(String(a.created_at)));
      const lastPage = Math.max(1, Math.ceil(matching.length / perPage));
      return send(res, 200, {
        current_page: page,
        // As SellAuth documents its Invoice model: the list's rows carry no delivered items; the single invoice does.
        data: matching.slice((page - 1) * perPage, page * perPage).map(withoutDelivered),
        last_page: lastPage,
        per_page: perPage,
        total: matching.length,
      });
    }
    const invoice = url.pathname.match(/^\/v1\/shops\/([^/]+)\/invoices\/([^/]+)$/);
    if (req.method === "GET" && invoice) {
      if (!authorized) return send(res, 401, { message: "Unauthenticated." });
      const id = decodeURIComponent(invoice[2] ?? "");
      if (failingInvoiceReads.has(id)) return send(res, 500, { message: "Server Error" });
      if (singleInvoiceReads.limitNext > 0) {
        singleInvoiceReads.limitNext -= 1;
        res
          .writeHead(429, {
            "Content-Type": "application/json",
            "Retry-After": String(singleInvoiceReads.retryAfterSeconds),
          })
          .end(JSON.stringify({ message: "Too Many Attempts." }));
        return;
      }
      const listed = invoice[1] === shopId ? listedInvoices.find((i) => String(i.id) === id) : undefined;
      if (listed) {
        singleReadsNow += 1;
        singleInvoiceReads.maxAtOnce = Math.max(singleInvoiceReads.maxAtOnce, singleReadsNow);
        if (singleInvoiceReads.delayMs > 0)
          await new Promise((resolve) => setTimeout(resolve, singleInvoiceReads.delayMs));
        singleReadsNow -= 1;
        return send(res, 200, listed);
      }
      const found = invoice[1] === shopId ? invoices.get(id) : undefined;
      if (!found) return send(res, 404, { message: "Invoice not found" });
      return send(res, 200, { id: Number(invoice[2]), status: found.status });
    }
    const page = url.pathname.match(/^\/checkout\/(\d+)$/);
    if (req.method === "GET" && page) {
      const invoiceId = page[1] ?? "";
      // Never answered: the socket stays open until the client or close() ends it.
      if (hangingPages.has(invoiceId)) return;
      const status = invoices.get(invoiceId)?.status ?? "unknown";
      const coupon = invoices.get(invoiceId)?.coupon;
      const couponLine = coupon
        ? `<p>Coupon ${escapeHtml(coupon)}: ${SHOP_COUPONS[coupon.toUpperCase()]}% off</p>`
        : "";
      const charged = invoices.get(invoiceId)?.amountCents;
      const totalLine = charged === undefined ? "" : `<p data-total>Total $${(charged / 100).toFixed(2)}</p>`;
      const payForm =
        status === "pending"
          ? `<form method="post" action="/checkout/${invoiceId}/pay"><button type="submit">Pay</button></form>`
          : `<p role="status">Invoice ${escapeHtml(status)}</p>`;
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Hosted checkout</title></head><body><main><h1>Hosted checkout</h1><p>Invoice ${invoiceId}</p>${couponLine}${totalLine}${payForm}</main></body></html>`,
      );
      return;
    }
    const pay = url.pathname.match(/^\/checkout\/(\d+)\/pay$/);
    if (req.method === "POST" && pay && invoices.has(pay[1] ?? "")) {
      const invoiceId = pay[1] ?? "";
      // The buyer sees the invoice page again; the notification goes out on its own, like SellAuth's.
      void settle(invoiceId, "completed");
      res.writeHead(303, { Location: `/checkout/${invoiceId}` }).end();
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
  catalogue = createShopCatalogueState({ extraProducts: options.extraProducts, imageBase: base });

  // The payment gateway (Stripe and the like) lives on its own origin and refuses to be shown in anyone's frame.
  const gateway = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    requests.push({
      method: req.method ?? "GET",
      path: `gateway:${url.pathname}`,
      headers: req.headers,
      body: undefined,
    });
    const invoiceId = url.pathname.match(/^\/pay\/(\d+)$/)?.[1];
    if (!invoiceId) return send(res, 404, { message: "Not found" });
    res.writeHead(200, {
      "Content-Type": "text/html; charset=utf-8",
      "X-Frame-Options": "DENY",
      "Content-Security-Policy": "frame-ancestors 'none'",
    });
    res.end(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Payment gateway</title></head><body><main><h1>Payment gateway</h1><p>Invoice ${invoiceId}</p></main></body></html>`,
    );
  });
  gateway.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => gateway.listen(0, "127.0.0.1", resolve));
  gatewayBase = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
  listedInvoices.push(...buyerInvoices(), ...recentRelaySales());

  return {
    url: base,
    imageDeliveryUrl: `${base}${EMULATED_IMAGE_DELIVERY_PATH}`,
    gatewayUrl: gatewayBase,
    shopId,
    apiKey,
    requests,
    invoices,
    buyerInvoices: listedInvoices,
    failingInvoiceReads,
    singleInvoiceReads,
    setInvoiceEmailMatch(next) {
      emailMatch = next;
    },
    setCheckoutMode(next) {
      mode = next;
    },
    setInvoiceStatus(invoiceId, status) {
      const found = invoices.get(invoiceId);
      invoices.set(invoiceId, { cart: undefined, ...found, status });
    },
    notifyOnPay(target, secret) {
      notifyTarget = { url: target, secret };
    },
    rateLimitNext(count, retryAfterSeconds) {
      rateLimited = { count, retryAfterSeconds };
    },
    settleInvoice: settle,
    catalogue,
    notifyCatalogue: deliverEvent,
    async sendNotification(target, input) {
      const raw = JSON.stringify({
        event: input.event,
        data: { invoice_id: input.invoiceId },
        shop_id: input.shopId ?? shopId,
      });
      return postNotification(target, raw, input.secret, {
        timestamp: input.timestamp,
        idempotencyKey: input.idempotencyKey ?? crypto.randomUUID(),
        signature: input.signature,
      });
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => server.close(() => resolve())),
        new Promise<void>((resolve) => gateway.close(() => resolve())),
      ]);
    },
  };
}
