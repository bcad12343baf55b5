// SellAuth's shop API as the catalogue reads it (docs/shop.md): products with their variants, groups, feedback and
// the shop's settings. Its wire format stays in this module; the rest of the shop sees our Shop* types.
import { z } from "zod";
import { retryAfterHeaderMs } from "~/platform/retry-after";
import { parsePriceCents } from "../pricing";
import { readShopExtras, type ShopProductExtras } from "./sellauth-extras.server";

export interface ShopVariant {
  id: number;
  name: string;
  description: string | null;
  priceCents: number;
  /** Keys left; null when the shop does not say or sells without limit (−1). */
  stock: number | null;
}

export interface ShopProduct {
  id: number;
  name: string;
  /** The shop's URL slug. */
  path: string | null;
  /** As the shop stores it: HTML, unsanitised. */
  description: string;
  currency: string;
  /** `public` products are listed; anything else (hidden, private, on_hold) is not. */
  visibility: string;
  groupId: number | null;
  sold: number;
  variants: ShopVariant[];
  /** The shop's own product images, in its order; empty when it has none (or none could be read). */
  images: ShopImage[];
  /** What the owner set up in the dashboard (volume discounts, tabs, badges…): absent when nothing could be read. */
  extras?: ShopProductExtras;
}

export interface ShopImage {
  /** Absolute http(s) URL the browser loads. */
  url: string;
}

/** Where SellAuth's Cloudflare Images are delivered: `{deliveryUrl}/{accountHash}/{image id}/{variant}`. */
export interface ShopImageDelivery {
  deliveryUrl: string;
  accountHash: string;
}

/** SellAuth's Cloudflare Images account and the one variant its docs show (docs/shop.md, "Product images"). */
export const SELLAUTH_IMAGE_DELIVERY: ShopImageDelivery = {
  deliveryUrl: "https://imagedelivery.net",
  accountHash: "HL_Fwm__tlvUGLZF2p74xw",
};
const CLOUDFLARE_VARIANT = "public";
/** More would only lengthen the gallery's thumbnail row. */
const MAX_IMAGES = 10;

export interface ShopGroup {
  id: number;
  name: string;
}

export interface ShopFeedback {
  id: number;
  productId: number | null;
  message: string;
  rating: number;
  reply: string | null;
  /** Left by the shop when the buyer left none. */
  automatic: boolean;
  createdAt: string;
}

export interface ShopSettings {
  name: string | null;
  subdomain: string | null;
  averageRating: number | null;
  totalFeedbacks: number | null;
  hideAutomaticFeedbacks: boolean;
  hideStockCounts: boolean;
}

/** A product the shop sent that could not be read: skipped and reported, never a crash. */
export interface SkippedProduct {
  id: number | null;
  reason: string;
}

export class ShopApiError extends Error {
  constructor(
    message: string,
    /** 429: when the shop says to come back (Retry-After), in ms. */
    readonly retryAfterMs?: number,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** Laravel sends integers as numbers or strings, and booleans as 0/1 or "1". */
const id = z.union([
  z.number().int().positive(),
  z
    .string()
    .regex(/^\d{1,15}$/)
    .transform(Number),
]);
const count = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^-?\d{1,15}$/)
      .transform(Number),
  ])
  .nullish();
const flag = z
  .union([z.boolean(), z.number(), z.string()])
  .nullish()
  .transform((v) => v === true || v === 1 || v === "1" || v === "true");
const text = z
  .string()
  .nullish()
  .transform((v) => v ?? null);
const price = z.unknown().transform((value, ctx) => {
  const cents = parsePriceCents(value);
  if (cents === null)
    ctx.addIssue({
      code: "custom",
      message: `expected a price (number or decimal string), got ${JSON.stringify(value)}`,
    });
  return cents ?? 0;
});

/** −1 is "unlimited" and a missing stock is "not counted": neither means sold out. */
function stockOf(...values: Array<number | null | undefined>): number | null {
  const known = values.find((v): v is number => typeof v === "number" && Number.isFinite(v));
  return known === undefined || known < 0 ? null : Math.trunc(known);
}

const variantSchema = z
  .object({ id, name: z.string().trim().min(1), description: text, price, stock: count, stock_count: count })
  .loose()
  .transform(
    (v): ShopVariant => ({
      id: v.id,
      name: v.name,
      description: v.description,
      priceCents: v.price,
      stock: stockOf(v.stock_count, v.stock),
    }),
  );

const productSchema = z
  .object({
    id,
    name: z.string().trim().min(1),
    path: text,
    description: text,
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/)
      .nullish(),
    visibility: z.string().nullish(),
    group_id: id.nullish(),
    products_sold: count,
    price: z.unknown().optional(),
    stock: count,
    stock_count: count,
    variants: z.array(z.unknown()).nullish(),
  })
  .loose();

/** One product of the shop's answer, read defensively: unknown fields ignored, a broken variant skips the product. */
export function readShopProduct(
  raw: unknown,
  delivery: ShopImageDelivery = SELLAUTH_IMAGE_DELIVERY,
): { product: ShopProduct } | { skipped: SkippedProduct } {
  const rawId = (raw as { id?: unknown } | null)?.id;
  const fallbackId =
    typeof rawId === "number" ? rawId : typeof rawId === "string" && /^\d+$/.test(rawId) ? Number(rawId) : null;
  const parsed = productSchema.safeParse(raw);
  if (!parsed.success) return { skipped: { id: fallbackId, reason: describeIssues(parsed.error) } };
  const p = parsed.data;
  const variants: ShopVariant[] = [];
  for (const [index, rawVariant] of (p.variants ?? []).entries()) {
    const variant = variantSchema.safeParse(rawVariant);
    if (!variant.success)
      return { skipped: { id: p.id, reason: `variants[${index}]: ${describeIssues(variant.error)}` } };
    variants.push(variant.data);
  }
  if (variants.length === 0) {
    // A product without variants is sold at its own price (the docs' example always has variants, but the API allows it).
    const own = parsePriceCents(p.price);
    if (own === null) return { skipped: { id: p.id, reason: "no variants and no price of its own" } };
    variants.push({
      id: p.id,
      name: p.name,
      description: null,
      priceCents: own,
      stock: stockOf(p.stock_count, p.stock),
    });
  }
  return {
    product: {
      id: p.id,
      name: p.name,
      path: p.path,
      description: p.description ?? "",
      currency: (p.currency ?? "USD").toUpperCase(),
      visibility: p.visibility ?? "public",
      groupId: p.group_id ?? null,
      sold: Math.max(0, p.products_sold ?? 0),
      variants,
      images: readShopImages(raw, delivery),
      ...extrasOf(raw, p.id),
    },
  };
}

/** The dashboard's fields, each read alone (sellauth-extras.server.ts): a malformed one never costs the product. */
function extrasOf(raw: unknown, id: number): { extras?: ShopProductExtras } {
  const { extras } = readShopExtras(raw, id);
  return Object.keys(extras).length > 0 ? { extras } : {};
}

/** An absolute http(s) URL without credentials; anything else (javascript:, data:, relative, junk) is not an image. */
const imageUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "https:" || url.protocol === "http:") && !url.username && !url.password;
    } catch {
      return false;
    }
  });
/** Cloudflare Images ids are UUIDs or custom ids: path-safe characters only, so one can never leave its URL segment. */
const cloudflareImageId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9._-]{1,100}$/)
  .refine((id) => id !== "." && id !== "..");
/** One entry of `images`: an object as the Images API shows it (`url`, `cloudflare_image_id`), or a bare URL. */
const imageEntry = z.union([
  imageUrl.transform((url) => ({ url, cloudflare_image_id: undefined })),
  z
    .object({
      url: imageUrl.optional().catch(undefined),
      cloudflare_image_id: cloudflareImageId.optional().catch(undefined),
    })
    .loose(),
]);
/** Each image field alone: a malformed one reads as absent and never costs the product its place. */
const imageFields = z
  .object({
    images: z.array(z.unknown()).optional().catch(undefined),
    image_url: imageUrl.optional().catch(undefined),
    cloudflare_image_id: cloudflareImageId.optional().catch(undefined),
  })
  .loose()
  .catch({ images: undefined, image_url: undefined, cloudflare_image_id: undefined });

function deliveryUrlOf(id: string, delivery: ShopImageDelivery): string {
  return `${delivery.deliveryUrl.replace(/\/+$/, "")}/${delivery.accountHash}/${id}/${CLOUDFLARE_VARIANT}`;
}

/**
 * The product's images from whichever field the shop filled: the `images` list wins (it is the whole gallery, in the
 * shop's order), then `image_url`, then `cloudflare_image_id`; inside one list entry its `url` wins over its id.
 */
export function readShopImages(raw: unknown, delivery: ShopImageDelivery = SELLAUTH_IMAGE_DELIVERY): ShopImage[] {
  const fields = imageFields.parse(raw ?? {});
  const fromList = (fields.images ?? []).flatMap((entry) => {
    const read = imageEntry.safeParse(entry);
    if (!read.success) return [];
    const { url, cloudflare_image_id: id } = read.data;
    return url ? [url] : id ? [deliveryUrlOf(id, delivery)] : [];
  });
  const urls =
    fromList.length > 0
      ? fromList
      : fields.image_url
        ? [fields.image_url]
        : fields.cloudflare_image_id
          ? [deliveryUrlOf(fields.cloudflare_image_id, delivery)]
          : [];
  return [...new Set(urls)].slice(0, MAX_IMAGES).map((url) => ({ url }));
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join(".") || "(product)"}: ${issue.message}`).join("; ");
}

const pageSchema = z.object({ data: z.array(z.unknown()), current_page: count, last_page: count }).loose();
const groupSchema = z.object({ id, name: z.string() }).loose();
const feedbackSchema = z
  .object({
    id,
    product_id: id.nullish(),
    message: text,
    rating: z.union([
      z.number(),
      z
        .string()
        .regex(/^\d(\.\d+)?$/)
        .transform(Number),
    ]),
    reply: text,
    is_automatic: flag,
    created_at: z.string(),
  })
  .loose();
const shopSchema = z
  .object({
    id: id.optional(),
    name: text,
    subdomain: text,
    average_rating: z
      .union([
        z.number(),
        z
          .string()
          .regex(/^\d+(\.\d+)?$/)
          .transform(Number),
      ])
      .nullish(),
    total_feedbacks: count,
    hide_automatic_feedbacks_on_home: flag,
    // Not documented: read under the names themes use, off when absent.
    hide_stock_count: flag,
    hide_stock: flag,
  })
  .loose();

export interface SellAuthCatalogueOptions {
  apiBase: string;
  shopId: string;
  apiKey: string;
  /** Where image ids are delivered from (tests point it at the emulator). */
  imageDelivery?: ShopImageDelivery;
  timeoutMs?: number;
  signal?: AbortSignal;
}

const PER_PAGE = 100;
/** A shop with more pages than this is read no further (a broken `last_page` must not loop forever). */
const MAX_PAGES = 1_000;

/** The read side of SellAuth's API: every call answers our types or throws a ShopApiError. */
export function createSellAuthCatalogue({
  apiBase,
  shopId,
  apiKey,
  imageDelivery = SELLAUTH_IMAGE_DELIVERY,
  timeoutMs = 10_000,
  signal,
}: SellAuthCatalogueOptions) {
  const shops = `${apiBase.replace(/\/$/, "")}/v1/shops`;
  const base = `${shops}/${encodeURIComponent(shopId)}`;
  const get = (path: string) => request(`${base}${path}`, path);

  async function request(url: string, path: string): Promise<unknown> {
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { Authorization: `Bearer ${apiKey}`, Accept: "application/json" },
        signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new ShopApiError(
        `the shop did not answer ${path.split("?")[0]} (${(error as Error).name === "TimeoutError" ? `no answer in ${timeoutMs} ms` : (error as Error).message})`,
      );
    }
    if (response.status === 429) {
      await response.body?.cancel();
      // Without a readable Retry-After the shop gets a minute.
      throw new ShopApiError(
        "the shop answered 429 Too Many Requests",
        retryAfterHeaderMs(response.headers.get("Retry-After")) ?? 60_000,
        429,
      );
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new ShopApiError(
        `the shop answered ${response.status} to ${path.split("?")[0]}`,
        undefined,
        response.status,
      );
    }
    try {
      return await response.json();
    } catch {
      throw new ShopApiError(`the shop's answer to ${path.split("?")[0]} is not JSON`);
    }
  }

  async function allPages(path: string): Promise<unknown[]> {
    const items: unknown[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const raw = await get(`${path}?page=${page}&perPage=${PER_PAGE}`);
      // Some lists come whole, as a plain array.
      if (Array.isArray(raw)) return raw;
      const answer = pageSchema.safeParse(raw);
      if (!answer.success)
        throw new ShopApiError(
          `the shop's ${path} page ${page} is not a page of results (${describeIssues(answer.error)})`,
        );
      items.push(...answer.data.data);
      const last = answer.data.last_page ?? page;
      if (page >= last || answer.data.data.length === 0) break;
    }
    return items;
  }

  return {
    /** Every product, with those the shop sent malformed set apart. */
    async products(): Promise<{ products: ShopProduct[]; skipped: SkippedProduct[] }> {
      const products: ShopProduct[] = [];
      const skipped: SkippedProduct[] = [];
      for (const raw of await allPages("/products")) {
        const read = readShopProduct(raw, imageDelivery);
        if ("product" in read) products.push(read.product);
        else skipped.push(read.skipped);
      }
      return { products, skipped };
    },

    /** One product, or null when the shop no longer has it. */
    async product(productId: number): Promise<{ product: ShopProduct } | { skipped: SkippedProduct } | null> {
      try {
        return readShopProduct(await get(`/products/${productId}`), imageDelivery);
      } catch (error) {
        if (error instanceof ShopApiError && error.status === 404) return null;
        throw error;
      }
    },

    /** The shop's groups (Laravel pages of 20 in the docs' example, or a plain list). */
    async groups(): Promise<ShopGroup[]> {
      return (await allPages("/groups")).flatMap((g) => {
        const group = groupSchema.safeParse(g);
        return group.success ? [{ id: group.data.id, name: group.data.name }] : [];
      });
    },

    async feedbacks(): Promise<ShopFeedback[]> {
      return (await allPages("/feedbacks")).flatMap((f) => {
        const feedback = feedbackSchema.safeParse(f);
        if (!feedback.success) return [];
        const d = feedback.data;
        const rating = Math.min(5, Math.max(0, Math.round(d.rating)));
        return [
          {
            id: d.id,
            productId: d.product_id ?? null,
            message: d.message ?? "",
            rating,
            reply: d.reply,
            automatic: d.is_automatic,
            createdAt: d.created_at,
          },
        ];
      });
    },

    /**
     * The shop's invoices created since `since`, newest first (`GET /v1/shops/{shopId}/invoices`, pages of 100, read
     * until one reaches past `since`; at most `maxPages`). Raw: the caller reads only what it needs.
     */
    async invoicesSince(since: Date, maxPages = 20): Promise<unknown[]> {
      const found: unknown[] = [];
      for (let page = 1; page <= maxPages; page++) {
        const raw = await get(`/invoices?page=${page}&perPage=${PER_PAGE}`);
        const answer = Array.isArray(raw) ? { data: raw, last_page: page } : pageSchema.safeParse(raw).data;
        if (!answer) throw new ShopApiError(`the shop's /invoices page ${page} is not a page of results`);
        found.push(...answer.data);
        const oldest = answer.data
          .map((i) => Date.parse(String((i as { created_at?: unknown } | null)?.created_at ?? "")))
          .filter(Number.isFinite);
        if (page >= (answer.last_page ?? page) || answer.data.length === 0) break;
        if (oldest.length > 0 && Math.min(...oldest) < since.getTime()) break;
      }
      return found;
    },

    /** This shop's settings, from `GET /v1/shops` (the API lists every shop of the key's owner). */
    async settings(): Promise<ShopSettings> {
      const raw = await request(shops, "/v1/shops");
      const list = Array.isArray(raw) ? raw : ((raw as { data?: unknown } | null)?.data ?? []);
      const shop = (Array.isArray(list) ? list : [])
        .map((s) => shopSchema.safeParse(s))
        .find((s) => s.success && (s.data.id === undefined || String(s.data.id) === shopId));
      const d = shop?.success ? shop.data : undefined;
      return {
        name: d?.name ?? null,
        subdomain: d?.subdomain ?? null,
        averageRating: d?.average_rating ?? null,
        totalFeedbacks: d?.total_feedbacks ?? null,
        hideAutomaticFeedbacks: d?.hide_automatic_feedbacks_on_home ?? false,
        hideStockCounts: (d?.hide_stock_count || d?.hide_stock) ?? false,
      };
    },
  };
}

export type SellAuthCatalogue = ReturnType<typeof createSellAuthCatalogue>;
