import crypto from "node:crypto";
import { LRUCache } from "lru-cache";
import { z } from "zod";
import { parsePriceCents } from "~/features/catalog/pricing";
import { logger } from "~/platform/logger.server";
import { hashIdentityForLog } from "~/platform/log-identity.server";
import { retryAfterHeaderMs } from "~/platform/retry-after";
import type { BuyerOrder, BuyerOrderSource, BuyerOrderStatus, DeliveredItem } from "../buyer-orders";

/** The shop could not be read (down, slow, 429, refused, not JSON): the page says "try again", never "no orders". */
export class BuyerOrdersUnavailableError extends Error {
  constructor(
    message: string,
    /** 429: when the shop says to come back, in ms. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = "BuyerOrdersUnavailableError";
  }
}

/** SellAuth's spelling of an invoice status → our words. Statuses from the Invoices docs and the notification events. */
const STATUS_WORDS: Readonly<Record<string, Exclude<BuyerOrderStatus, { kind: "unknown" }>["kind"]>> = {
  completed: "paid",
  paid: "paid",
  processed: "paid",
  confirming: "waiting",
  partially_completed: "partly-delivered",
  refunded: "refunded",
  cancelled: "cancelled",
  canceled: "cancelled",
  failed: "cancelled",
  expired: "expired",
  pending: "pending",
};

/** An invoice status in our words; one the shop does not document keeps its own spelling. */
export function buyerOrderStatus(shopStatus: string): BuyerOrderStatus {
  const spelling = shopStatus.trim().slice(0, 64);
  const kind = STATUS_WORDS[spelling.toLowerCase()];
  return kind ? { kind } : { kind: "unknown", shopSpelling: spelling };
}

const PER_PAGE = 100;
/** Pages read at most for one address (10,000 invoices): a broken `last_page` must not loop forever. */
const MAX_PAGES = 100;
/** The longest the answer for one address is kept. */
export const BUYER_ORDERS_CACHE_MS = 60_000;
const MAX_DELIVERED_PER_ORDER = 200;
const MAX_VALUE_LENGTH = 2_000;

const pageSchema = z
  .object({
    data: z.array(z.unknown()),
    current_page: z.coerce.number().int().positive().nullish().catch(null),
    last_page: z.coerce.number().int().positive().nullish().catch(null),
  })
  .loose();

const wireId = z
  .union([
    z.number().int().nonnegative(),
    z
      .string()
      .trim()
      .regex(/^[\w-]{1,64}$/),
  ])
  .transform(String);
const optionalText = z
  .string()
  .trim()
  .min(1)
  .max(300)
  .nullish()
  .catch(null)
  .transform((v) => v ?? null);
const named = z
  .object({ name: optionalText })
  .loose()
  .nullish()
  .catch(null)
  .transform((v) => v?.name ?? null);
const quantity = z.coerce.number().int().min(1).max(100_000).nullish().catch(null);
/** A delivered thing as the shop may send it: one string (lines), a list of strings, or objects naming the value. */
const deliveredValues = z
  .unknown()
  .transform((raw): string[] => {
    const values: string[] = [];
    const add = (value: unknown) => {
      if (typeof value === "string" || typeof value === "number") {
        for (const line of String(value).split(/\r?\n/)) {
          const trimmed = line.trim();
          if (trimmed && trimmed.length <= MAX_VALUE_LENGTH) values.push(trimmed);
        }
      } else if (value && typeof value === "object" && !Array.isArray(value)) {
        const o = value as Record<string, unknown>;
        add(o.value ?? o.serial ?? o.deliverable ?? o.key ?? o.url);
      }
    };
    if (Array.isArray(raw)) for (const value of raw) add(value);
    else add(raw);
    return values;
  })
  .catch([]);

const itemSchema = z
  .object({
    product: named,
    variant: named,
    quantity,
    serials: deliveredValues,
    delivered: deliveredValues,
    deliverables: deliveredValues,
  })
  .loose();

const invoiceSchema = z
  .object({
    id: wireId,
    unique_id: optionalText,
    status: z.string().trim().min(1).max(64),
    email: z.string().trim().max(320).nullish().catch(null),
    created_at: z.string().refine((v) => !Number.isNaN(Date.parse(v))),
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/)
      .nullish()
      .catch(null),
    price: z.unknown().optional(),
    total: z.unknown().optional(),
    price_usd: z.unknown().optional(),
    invoice_url: z.string().nullish().catch(null),
    refunded_at: z.unknown().optional(),
    product: named,
    variant: named,
    quantity,
    items: z.array(z.unknown()).nullish().catch(null),
    serials: deliveredValues,
    delivered: deliveredValues,
    deliverables: deliveredValues,
  })
  .loose();

/** A completed invoice the shop later refunded carries `refunded_at`: it is refunded, whatever its status says. */
function wasRefunded(refundedAt: unknown): boolean {
  return typeof refundedAt === "string" ? refundedAt.trim() !== "" : typeof refundedAt === "number";
}

function httpsUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" && !url.username && !url.password ? url.href : null;
  } catch {
    return null;
  }
}

function deliveredOf(
  source: { serials: string[]; delivered: string[]; deliverables: string[] },
  label: string | undefined,
): DeliveredItem[] {
  const items: DeliveredItem[] = [];
  const push = (kind: DeliveredItem["kind"], value: string) =>
    items.push(
      label
        ? { kind: httpsUrl(value) ? "link" : kind, value, label }
        : { kind: httpsUrl(value) ? "link" : kind, value },
    );
  for (const value of source.serials) push("serial", value);
  for (const value of [...source.delivered, ...source.deliverables]) push("key", value);
  return items;
}

/** Why an invoice was skipped, without anything of the buyer's or the shop's secrets. */
type ReadInvoice = { order: BuyerOrder; email: string | null } | { skipped: string };

/** One invoice of the shop's answer, read field by field: a malformed optional field reads as absent. */
export function readShopInvoice(raw: unknown): ReadInvoice {
  const parsed = invoiceSchema.safeParse(raw);
  if (!parsed.success)
    return { skipped: parsed.error.issues.map((i) => `${i.path.join(".") || "(invoice)"}: ${i.message}`).join("; ") };
  const d = parsed.data;
  const status = wasRefunded(d.refunded_at) ? ({ kind: "refunded" } as const) : buyerOrderStatus(d.status);
  const cents = parsePriceCents(d.price) ?? parsePriceCents(d.total) ?? parsePriceCents(d.price_usd);
  if (cents === null) return { skipped: "price: expected a number or decimal string" };
  const currency = d.currency?.toUpperCase() ?? "USD";
  const lines = (d.items ?? []).flatMap((rawItem) => {
    const item = itemSchema.safeParse(rawItem);
    return item.success ? [item.data] : [];
  });
  const items =
    lines.length > 0
      ? lines.map((l) => ({
          productName: l.product ?? d.product ?? "",
          durationLabel: l.variant,
          quantity: l.quantity ?? 1,
        }))
      : [{ productName: d.product ?? "", durationLabel: d.variant, quantity: d.quantity ?? 1 }];
  // Keys only for a complete order, never for a refunded (or any other) one.
  const delivered =
    status.kind === "paid"
      ? [
          ...lines.flatMap((l) => deliveredOf(l, l.product ?? undefined)),
          ...deliveredOf(d, d.product ?? undefined),
        ].slice(0, MAX_DELIVERED_PER_ORDER)
      : [];
  return {
    email: d.email ? d.email.toLowerCase() : null,
    order: {
      id: d.id,
      createdAt: new Date(d.created_at).toISOString(),
      items,
      amount: (cents / 100).toFixed(2),
      currency,
      status,
      // Only the shop's own invoice page: a bare `url` may be a payment gateway's (docs/checkout.md).
      invoiceUrl: httpsUrl(d.invoice_url),
      delivered,
    },
  };
}

/** The single invoice (`GET …/invoices/{id}`), bare or under `data`: only what says what was delivered, and to whom. */
const singleInvoiceSchema = z
  .object({
    id: wireId,
    status: z.string().trim().min(1).max(64),
    email: z.string().trim().max(320).nullish().catch(null),
    refunded_at: z.unknown().optional(),
    product: named,
    items: z.array(z.unknown()).nullish().catch(null),
    serials: deliveredValues,
    delivered: deliveredValues,
    deliverables: deliveredValues,
  })
  .loose();

/**
 * What the single invoice says was delivered: its items' serials, keys and links, or `undefined` when it is not the
 * invoice asked for, not this address's, or no longer complete (refunded since the list was read: nothing is shown).
 */
export function readDeliveredInvoice(
  raw: unknown,
  expected: { id: string; email: string },
): { delivered: DeliveredItem[] } | { unreadable: string } {
  const body =
    raw && typeof raw === "object" && "data" in raw && !("id" in raw) ? (raw as { data: unknown }).data : raw;
  const parsed = singleInvoiceSchema.safeParse(body);
  if (!parsed.success) return { unreadable: "not an invoice" };
  const d = parsed.data;
  if (d.id !== expected.id) return { unreadable: "another invoice" };
  // Never another address's keys, even if the shop answered the wrong invoice.
  if (d.email && d.email.toLowerCase() !== expected.email) return { unreadable: "another address" };
  if (wasRefunded(d.refunded_at) || buyerOrderStatus(d.status).kind !== "paid") return { delivered: [] };
  const lines = (d.items ?? []).flatMap((rawItem) => {
    const item = itemSchema.safeParse(rawItem);
    return item.success ? [item.data] : [];
  });
  return {
    delivered: [
      ...lines.flatMap((l) => deliveredOf(l, l.product ?? d.product ?? undefined)),
      ...deliveredOf(d, d.product ?? undefined),
    ].slice(0, MAX_DELIVERED_PER_ORDER),
  };
}

/** Single invoices read at once for one address: SellAuth documents no rate limit, so a few, and none after a 429. */
export const SINGLE_INVOICE_READS_AT_ONCE = 4;
/** The least time between two tries of an unreadable delivered invoice (a reload or "Try again" a second later retries). */
export const DELIVERED_RETRY_MS = 1_000;

export interface SellAuthBuyerOrdersOptions {
  apiBase: string;
  shopId: string;
  apiKey: string;
  timeoutMs?: number;
  /** How long one address's answer is kept (at most 60 s). */
  cacheMs?: number;
  /** The cache's clock in ms (tests move it). */
  now?: () => number;
}

/** A digest of the address: the cache's key, so no address sits in memory as a key and none shares another's entry. */
function cacheKeyOf(email: string): string {
  return crypto.createHash("sha256").update(`kestrel-buyer-orders:${email}`).digest("hex");
}

/**
 * Every invoice SellAuth holds for an address (`GET /v1/shops/{shopId}/invoices?email=…`, every page), as our orders,
 * newest first. Answers are kept per address for at most 60 s, with concurrent reads of one address sharing one fetch.
 */
export function createSellAuthBuyerOrders(options: SellAuthBuyerOrdersOptions): BuyerOrderSource & {
  /** Forgets every kept answer (tests, and an operator's "read the shop again"). */
  clear(): void;
} {
  const base = `${options.apiBase.replace(/\/+$/, "")}/v1/shops/${encodeURIComponent(options.shopId)}/invoices`;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const ttl = Math.min(options.cacheMs ?? BUYER_ORDERS_CACHE_MS, BUYER_ORDERS_CACHE_MS);
  const now = options.now ?? Date.now;
  /** When the delivered items that could not be read may be asked for again (a second on, or the shop's Retry-After). */
  const nextTryAt = new WeakMap<BuyerOrder[], number>();

  async function getJson(url: string, what: string): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { Authorization: `Bearer ${options.apiKey}`, Accept: "application/json" },
        signal: AbortSignal.timeout(timeoutMs),
        redirect: "error",
      });
    } catch (error) {
      const timedOut = (error as Error).name === "TimeoutError";
      throw new BuyerOrdersUnavailableError(
        timedOut ? `the shop did not answer in ${timeoutMs} ms` : "the shop could not be reached",
      );
    }
    if (response.status === 429) {
      await response.body?.cancel();
      throw new BuyerOrdersUnavailableError(
        "the shop answered 429 Too Many Requests",
        retryAfterHeaderMs(response.headers.get("Retry-After")) ?? 60_000,
      );
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new BuyerOrdersUnavailableError(`the shop answered ${response.status} to ${what}`);
    }
    try {
      return await response.json();
    } catch {
      throw new BuyerOrdersUnavailableError(`the shop's ${what} is not JSON`);
    }
  }

  function getPage(email: string, page: number): Promise<unknown> {
    const query = new URLSearchParams({
      email,
      page: String(page),
      perPage: String(PER_PAGE),
      orderColumn: "created_at",
      orderDirection: "desc",
    });
    return getJson(`${base}?${query}`, "its invoices");
  }

  /**
   * Reads the single invoice of every complete order still without its delivered items, a few at a time; after a 429
   * no more are asked for this time. An order whose read failed keeps `deliveredUnreadable` (the next visit tries again).
   */
  async function readDelivered(email: string, orders: BuyerOrder[]): Promise<void> {
    let retryAfterMs = DELIVERED_RETRY_MS;
    const waiting = orders.filter((o) => o.status.kind === "paid" && o.deliveredUnreadable);
    let limited = false;
    let failed = 0;
    const next = () => waiting.shift();
    async function worker() {
      for (let order = next(); order; order = next()) {
        if (limited) continue;
        try {
          const raw = await getJson(`${base}/${encodeURIComponent(order.id)}`, "an invoice");
          const read = readDeliveredInvoice(raw, { id: order.id, email });
          if ("unreadable" in read) throw new BuyerOrdersUnavailableError(`the single invoice is ${read.unreadable}`);
          order.delivered = read.delivered;
          delete order.deliveredUnreadable;
        } catch (error) {
          if (!(error instanceof BuyerOrdersUnavailableError)) throw error;
          failed += 1;
          if (error.retryAfterMs !== undefined) {
            limited = true;
            retryAfterMs = Math.max(retryAfterMs, error.retryAfterMs);
          }
          logger.warn({ err: error.message }, "a delivered invoice could not be read from the shop");
        }
      }
    }
    await Promise.all(Array.from({ length: SINGLE_INVOICE_READS_AT_ONCE }, worker));
    if (failed > 0 || limited) logger.info({ failed, limited }, "some orders' delivered items are not loaded yet");
    nextTryAt.set(orders, now() + retryAfterMs);
  }

  async function readAll(email: string): Promise<BuyerOrder[]> {
    const orders: BuyerOrder[] = [];
    let skipped = 0;
    let foreign = 0;
    for (let page = 1; page <= MAX_PAGES; page++) {
      const raw = await getPage(email, page);
      const answer = Array.isArray(raw) ? { data: raw, last_page: page } : pageSchema.safeParse(raw).data;
      if (!answer) throw new BuyerOrdersUnavailableError(`the shop's invoices page ${page} is not a page of results`);
      for (const rawInvoice of answer.data) {
        const read = readShopInvoice(rawInvoice);
        if ("skipped" in read) {
          skipped += 1;
          logger.warn({ reason: read.skipped.slice(0, 300) }, "shop invoice skipped: malformed");
          // Only an invoice the shop says is this address's is shown: a loose filter must never show another's.
        } else if (read.email !== email) foreign += 1;
        else {
          // The list's rows carry no delivered items (SellAuth's Invoice model): the single invoice says.
          if (read.order.status.kind === "paid") read.order.deliveredUnreadable = true;
          orders.push(read.order);
        }
      }
      if (Array.isArray(raw) || page >= (answer.last_page ?? page) || answer.data.length === 0) break;
    }
    if (foreign > 0) logger.warn({ foreign }, "shop answered invoices of other addresses to an email filter; left out");
    logger.info(
      { buyer: hashIdentityForLog(email), orders: orders.length, skipped },
      "buyer's orders read from the shop",
    );
    orders.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
    await readDelivered(email, orders);
    return orders;
  }

  const cache = new LRUCache<string, BuyerOrder[], string>({
    max: 1_000,
    ttl,
    ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
    // A failed read is not kept: the next visit asks the shop again.
    fetchMethod: (_key, _stale, { context }) => readAll(context),
  });

  const retries = new Map<string, Promise<void>>();
  /** One retry at a time per address (concurrent visits share it), and not before the last one's wait is over. */
  function retryDelivered(address: string, orders: BuyerOrder[]): Promise<void> {
    const key = cacheKeyOf(address);
    let running = retries.get(key);
    if (!running) {
      if (now() < (nextTryAt.get(orders) ?? 0)) return Promise.resolve();
      running = readDelivered(address, orders).finally(() => retries.delete(key));
      retries.set(key, running);
    }
    return running;
  }

  return {
    ordersAvailable: true,
    async ordersOf(email) {
      const address = email.trim().toLowerCase();
      const orders = await cache.fetch(cacheKeyOf(address), { context: address });
      // A delivered invoice that could not be read is asked for again (kept with the list, for the list's 60 s).
      if (orders?.some((o) => o.deliveredUnreadable)) await retryDelivered(address, orders);
      // Each caller gets its own copy: nothing it does reaches the kept answer.
      return structuredClone(orders ?? []);
    },
    clear() {
      cache.clear();
    },
  };
}
