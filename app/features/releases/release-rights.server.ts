// Which releases a buyer's orders may download (issue 45, ADR 032): every release published before the order's
// licence ends (completed time plus the duration's days; lifetime never ends), none after; a refunded or failed
// order downloads nothing.
import type { Kysely } from "kysely";
import { getProduct } from "~/features/catalog/catalogue.server";
import type { Database } from "../../../db/schema";
import { type LicenceEnd, licenceCovers, licenceEnd } from "./releases";
import type { Release } from "./releases.server";

export interface OrderRight {
  orderId: string;
  productId: number;
  completedAt: string;
  end: LicenceEnd;
  /** The duration bought (its `value`), to renew the same one; undefined when the catalogue no longer has it. */
  durationValue: string | undefined;
}

/** A duration's days as the catalogue says: undefined or 0 lifetime, null a length we cannot tell. */
export type DurationDays = (
  productId: number,
  variantId: number,
) => { days: number | null | undefined; value?: string };

const catalogueDays: DurationDays = (productId, variantId) => {
  const duration = getProduct(productId)?.durations.find((d) => d.variantId === variantId);
  // A duration the catalogue no longer lists is a length we cannot tell.
  return duration ? { days: duration.days, value: duration.value } : { days: null };
};

/** The completed orders of a proven address (only those: refunded, failed and pending orders open nothing). */
export async function rightsOf(
  db: Kysely<Database>,
  email: string,
  daysOf: DurationDays = catalogueDays,
): Promise<OrderRight[]> {
  const rows = await db
    .selectFrom("orders")
    .select(["id", "product_id", "variant_id", "completed_at"])
    .where("buyer_email", "=", email.trim().toLowerCase())
    .where("status", "=", "completed")
    .where("completed_at", "is not", null)
    .orderBy("completed_at", "desc")
    .limit(500)
    .execute();
  return rows.map((row) => {
    const completedAt = new Date(row.completed_at ?? 0).toISOString();
    const { days, value } = daysOf(row.product_id, row.variant_id);
    return {
      orderId: row.id,
      productId: row.product_id,
      completedAt,
      end: licenceEnd(completedAt, days),
      durationValue: value,
    };
  });
}

/** What a release's button does for this visitor. */
export type DownloadRight =
  | { kind: "download"; orderId: string | null }
  | { kind: "sign-in" }
  | { kind: "renew"; durationValue: string | undefined }
  | { kind: "length-unknown" }
  | { kind: "buy" };

/**
 * A release for anyone downloads without an order; otherwise a signed-in buyer with an order whose licence covers
 * it downloads; one whose licences all ended before it came out renews; one without an order buys.
 */
export function rightTo(release: Release, rights: readonly OrderRight[] | undefined): DownloadRight {
  if (release.access === "anyone") return { kind: "download", orderId: null };
  if (rights === undefined) return { kind: "sign-in" };
  const orders = rights.filter((r) => r.productId === release.productId);
  if (orders.length === 0) return { kind: "buy" };
  const publishedAt = release.publishedAt ?? release.createdAt;
  const covering = orders.find((r) => licenceCovers(r.end, r.completedAt, publishedAt));
  if (covering) return { kind: "download", orderId: covering.orderId };
  if (orders.every((r) => r.end.kind === "unknown")) return { kind: "length-unknown" };
  // The licence that ended last is the one to renew.
  const ended = orders
    .filter((r) => r.end.kind === "ends")
    .sort((a, b) => (a.end.kind === "ends" && b.end.kind === "ends" ? b.end.at.localeCompare(a.end.at) : 0))[0];
  return { kind: "renew", durationValue: ended?.durationValue };
}
