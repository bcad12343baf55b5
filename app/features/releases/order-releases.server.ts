// The releases /orders shows beside each order (issue 45): on the list, its product's latest release with its
// button; on the order's own page, every release the order may download.
import type { Kysely } from "kysely";
import type { AnyLocale } from "~/features/i18n/locales";
import type { Database } from "../../../db/schema";
import { type ReleaseView, releaseView } from "./downloads-page.server";
import { rightsOf } from "./release-rights.server";
import { latestOf, publishedReleases, type Release } from "./releases.server";

/** Releases by order id, for the orders of this (proven) address that are ours, completed and not refunded. */
export async function releasesForOrders(
  db: Kysely<Database>,
  email: string,
  orderIds: readonly string[],
  { locale, every }: { locale: AnyLocale; every: boolean },
): Promise<Map<string, ReleaseView[]>> {
  const rights = await rightsOf(db, email);
  const byProduct = new Map<number, Release[]>();
  const shown = new Map<string, ReleaseView[]>();
  for (const right of rights) {
    if (!orderIds.includes(right.orderId)) continue;
    let releases = byProduct.get(right.productId);
    if (!releases) {
      releases = await publishedReleases(db, right.productId);
      byProduct.set(right.productId, releases);
    }
    // Only this order's right: another order of the same product is shown on its own card.
    const own = [right];
    const wanted = every
      ? releases
      : [latestOf(releases, "stable") ?? latestOf(releases, "beta")].filter((r) => r !== undefined);
    const views = wanted
      .map((release) => releaseView(release, own, locale))
      .filter((view): view is ReleaseView => view !== undefined)
      // The order's page lists what it downloads; the list also says Renew for a latest release past the licence.
      .filter((view) => view.files.every((f) => f.action.kind === "download" || (!every && f.action.kind === "renew")));
    if (views.length > 0) shown.set(right.orderId, views);
  }
  return shown;
}
