import crypto from "node:crypto";
import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "../../../db/schema";
import { shopNotificationOutcomes } from "~/platform/metrics.server";
import { classifyInvoiceEvent, type InvoiceLookupResult, type InvoiceOutcome, nextOrderStatus } from "./orders";
import { findOrderByInvoice } from "./orders.server";

/** Notifications older (or further in the future) than this are refused as replays. */
export const MAX_NOTIFICATION_AGE_MS = 5 * 60 * 1000;

const invoiceIdSchema = z.union([z.string().min(1).max(200), z.number().int().nonnegative()]).transform(String);

/** The shop's notification body (SellAuth wire format); only these fields are read. */
export const shopNotificationSchema = z.object({
  event: z.string().min(1).max(200),
  data: z.object({ invoice_id: invoiceIdSchema.optional() }).loose(),
  shop_id: z.union([z.string(), z.number()]).transform(String).optional(),
});

/** Invoice events settle orders; every other event (products, stock, feedback, unknown ones) concerns the catalogue. */
export function isInvoiceEvent(event: string): boolean {
  return /INVOICE/i.test(event);
}

export function signShopNotification(rawBody: string | Buffer, secret: string): string {
  return crypto.createHmac("sha256", secret).update(rawBody).digest("hex");
}

/** X-Signature must be the hex HMAC-SHA256 of the exact body bytes; compared in constant time. */
export function verifyShopSignature(rawBody: Buffer, signature: string | undefined, secret: string): boolean {
  if (!signature || !/^[0-9a-fA-F]{64}$/.test(signature.trim())) return false;
  const expected = Buffer.from(signShopNotification(rawBody, secret), "hex");
  const given = Buffer.from(signature.trim(), "hex");
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

/** X-Timestamp in Unix seconds (or milliseconds), within five minutes of now either way, so a captured notification cannot be replayed later. */
export function isWithinReplayWindow(header: string | undefined, now: Date): boolean {
  if (!header || !/^\d{1,16}$/.test(header.trim())) return false;
  const value = Number(header.trim());
  const ms = value > 1e12 ? value : value * 1000;
  return Math.abs(now.getTime() - ms) <= MAX_NOTIFICATION_AGE_MS;
}

export interface NotificationContext {
  db: Kysely<Database>;
  secret: string;
  /** The provider whose invoices these are (orders.provider). */
  provider: string;
  shopId: string;
  /** With an API key the shop is asked for the invoice's real state instead of trusting the event name (the checkout provider's lookupInvoice). */
  lookupInvoice?: (invoiceId: string) => Promise<InvoiceLookupResult>;
  /**
   * A notification about the catalogue (or a paid invoice, whose product's stock changed): the catalogue resyncs what
   * it names. False when the catalogue does not come from the shop.
   */
  onCatalogueEvent?: (event: string, data: Record<string, unknown>) => Promise<boolean>;
  now?: () => Date;
}

export interface NotificationHeaders {
  signature?: string;
  timestamp?: string;
  idempotencyKey?: string;
}

export type NotificationOutcome =
  | "completed"
  | "refunded"
  | "failed"
  | "unchanged"
  | "ignored"
  | "unknown_invoice"
  | "wrong_shop"
  | "catalogue_sync";

export interface NotificationReply {
  status: number;
  body: { ok: true; outcome: NotificationOutcome; duplicate?: boolean } | { error: string };
}

/** The one path every shop notification takes: the HTTP endpoint and the demo checkout's Pay button both call it. */
export async function receiveShopNotification(
  ctx: NotificationContext,
  rawBody: Buffer | undefined,
  headers: NotificationHeaders,
): Promise<NotificationReply> {
  const reply = await applyShopNotification(ctx, rawBody, headers).catch((error: unknown) => {
    shopNotificationOutcomes.inc({ outcome: "error" });
    throw error;
  });
  shopNotificationOutcomes.inc({ outcome: notificationMetricOutcome(reply) });
  return reply;
}

/** The counted outcome: refused as unsigned or stale, a repeat, an invoice we have no order for, applied, or an error. */
function notificationMetricOutcome(
  reply: NotificationReply,
): "applied" | "duplicate" | "bad_signature" | "unknown_order" | "error" {
  if (reply.status === 401) return "bad_signature";
  if (!("ok" in reply.body)) return "error";
  if (reply.body.duplicate) return "duplicate";
  return reply.body.outcome === "unknown_invoice" || reply.body.outcome === "wrong_shop" ? "unknown_order" : "applied";
}

async function applyShopNotification(
  ctx: NotificationContext,
  rawBody: Buffer | undefined,
  headers: NotificationHeaders,
): Promise<NotificationReply> {
  const now = ctx.now?.() ?? new Date();
  if (!rawBody || rawBody.length === 0) return { status: 400, body: { error: "Expected a JSON body" } };
  if (!isWithinReplayWindow(headers.timestamp, now))
    return { status: 401, body: { error: "Missing or stale X-Timestamp" } };
  if (!verifyShopSignature(rawBody, headers.signature, ctx.secret))
    return { status: 401, body: { error: "Invalid signature" } };

  let parsed: z.infer<typeof shopNotificationSchema>;
  try {
    const result = shopNotificationSchema.safeParse(JSON.parse(rawBody.toString("utf8")));
    if (!result.success || (isInvoiceEvent(result.data.event) && result.data.data.invoice_id === undefined))
      return { status: 400, body: { error: "Expected {event, data: {invoice_id}}" } };
    parsed = result.data;
  } catch {
    return { status: 400, body: { error: "Malformed JSON body" } };
  }

  const givenKey = headers.idempotencyKey?.trim();
  if (givenKey !== undefined && (givenKey.length === 0 || givenKey.length > 200))
    return { status: 400, body: { error: "Invalid Idempotency-Key" } };
  // Without a key, the body itself identifies the delivery (retries resend the same bytes).
  const key = givenKey ?? `sha256:${crypto.createHash("sha256").update(rawBody).digest("hex")}`;

  const seen = await ctx.db
    .selectFrom("shop_notifications")
    .select("outcome")
    .where("idempotency_key", "=", key)
    .executeTakeFirst();
  if (seen) return { status: 200, body: { ok: true, outcome: seen.outcome as NotificationOutcome, duplicate: true } };

  if (!isInvoiceEvent(parsed.event)) {
    if (parsed.shop_id !== undefined && parsed.shop_id !== ctx.shopId)
      return recordOutcome(ctx, key, parsed.event, null, "wrong_shop", now);
    const synced = (await ctx.onCatalogueEvent?.(parsed.event, parsed.data)) ?? false;
    return recordOutcome(ctx, key, parsed.event, null, synced ? "catalogue_sync" : "ignored", now);
  }
  const invoiceId = parsed.data.invoice_id ?? "";
  const order = await findOrderByInvoice(ctx.db, ctx.provider, invoiceId);
  let outcome: NotificationOutcome;
  let nextStatus: ReturnType<typeof nextOrderStatus>;
  let shopStatus: string | undefined;
  if (parsed.shop_id !== undefined && parsed.shop_id !== ctx.shopId) {
    outcome = "wrong_shop";
  } else if (!order) {
    outcome = "unknown_invoice";
  } else {
    const claimed = classifyInvoiceEvent(parsed.event);
    if (claimed === "other") {
      outcome = "ignored";
      // An event that changes nothing still tells us how far the invoice is (e.g. `confirming`), when the shop can be asked.
      const lookup = ctx.lookupInvoice ? await ctx.lookupInvoice(invoiceId) : undefined;
      if (lookup && "outcome" in lookup) shopStatus = lookup.shopStatus;
    } else {
      let actual: InvoiceOutcome = claimed;
      if (ctx.lookupInvoice) {
        const lookup = await ctx.lookupInvoice(invoiceId);
        // The shop retries failed deliveries, so an unanswered lookup is a 502, not a guess.
        if ("error" in lookup) return { status: 502, body: { error: lookup.error } };
        actual = lookup.outcome;
        shopStatus = lookup.shopStatus;
      }
      nextStatus = actual === "other" ? undefined : nextOrderStatus(order.status, actual);
      outcome = nextStatus === undefined || nextStatus === "pending" ? "unchanged" : nextStatus;
    }
  }

  const recorded = await ctx.db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto("shop_notifications")
      .values({
        idempotency_key: key,
        invoice_id: invoiceId,
        event: parsed.event,
        received_at: now.toISOString(),
        outcome,
        order_id: order?.id ?? null,
      })
      .onConflict((oc) => oc.column("idempotency_key").doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 1) return false;
    if (order && nextStatus) {
      await trx
        .updateTable("orders")
        .set({
          status: nextStatus,
          raw_event_id: key,
          ...(nextStatus === "completed" ? { completed_at: now.toISOString() } : {}),
          ...(shopStatus ? { shop_status: shopStatus } : {}),
        })
        .where("id", "=", order.id)
        .where("status", "=", order.status)
        .execute();
    } else if (order && shopStatus) {
      await trx.updateTable("orders").set({ shop_status: shopStatus }).where("id", "=", order.id).execute();
    }
    return true;
  });
  if (!recorded) return { status: 200, body: { ok: true, outcome, duplicate: true } };
  // A paid (or refunded) invoice changed its product's stock: the catalogue reads that product again.
  if (order && nextStatus && nextStatus !== "pending")
    await ctx.onCatalogueEvent?.(parsed.event, { product_id: order.product_id });
  return { status: 200, body: { ok: true, outcome } };
}

/** A notification that settles no order, recorded under its key so a repeat is answered as one. */
async function recordOutcome(
  ctx: NotificationContext,
  key: string,
  event: string,
  invoiceId: string | null,
  outcome: NotificationOutcome,
  now: Date,
): Promise<NotificationReply> {
  const inserted = await ctx.db
    .insertInto("shop_notifications")
    .values({
      idempotency_key: key,
      invoice_id: invoiceId,
      event,
      received_at: now.toISOString(),
      outcome,
      order_id: null,
    })
    .onConflict((oc) => oc.column("idempotency_key").doNothing())
    .executeTakeFirst();
  const duplicate = Number(inserted.numInsertedOrUpdatedRows ?? 0n) !== 1;
  return { status: 200, body: duplicate ? { ok: true, outcome, duplicate: true } : { ok: true, outcome } };
}
