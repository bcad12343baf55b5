import fs from "node:fs";
import { overlayFileSchema, type ProductOverlay } from "~/features/catalog/catalog.content";
import { overlayDrift, type ShopSnapshot, starterOverlay } from "~/features/catalog/shop-catalogue.server";
import { fetchShopSnapshot, readLatestSnapshot, SYNC_LEASE } from "~/features/catalog/shop-sync.server";
import { createSellAuthCatalogue } from "~/features/catalog/sources/sellauth.server";
import { contentDir } from "~/features/content/content.server";
import { getContent } from "~/features/content/content.server";
import { parseContent } from "~/features/content/content";
import { getEnv } from "~/platform/env.server";
import { type CliCommand, formatTable, runWithDatabase, startCommand } from "./cli-context";

export const CATALOG_USAGE = `Usage:
  npm run cli -- catalog status [--json]
  npm run cli -- catalog pull [--out content/products.json] [--force] [--json]
  npm run cli -- catalog diff [--live] [--json]

The connected shop's catalogue (CATALOG_SOURCE=sellauth, docs/shop.md).
"status" shows the last sync (when, how many products, which could not be read, resyncs waiting, who syncs).
"pull" reads the shop now (SHOP_API_KEY) and writes a starter content overlay: one entry per product with the copy the
content may add or replace; without --out it prints it. An existing file is kept unless --force.
"diff" lists overlay entries (content/products.json) whose product or variant the shop no longer has; it reads the last
sync, or the shop itself with --live, and exits 1 when it finds any.`;

/** The flags of this command, besides COMMON_OPTIONS. */
const CATALOG_OPTIONS = {
  out: { type: "string" },
  force: { type: "boolean", default: false },
  live: { type: "boolean", default: false },
} as const;

function shopApi() {
  const env = getEnv();
  if (!env.SHOP_API_KEY) throw new Error("SHOP_API_KEY is not set: the shop's catalogue is read with its API key");
  return createSellAuthCatalogue({
    apiBase: env.SHOP_API_BASE,
    shopId: env.SHOP_ID,
    apiKey: env.SHOP_API_KEY,
    imageDelivery: { deliveryUrl: env.SHOP_IMAGE_DELIVERY_URL, accountHash: env.SHOP_IMAGE_ACCOUNT_HASH },
  });
}

/** content/products.json read as the overlay of the shop's products, whichever source the shop runs on now. */
function readOverlay(): ProductOverlay[] {
  const content = getContent();
  if (content.overlay.length > 0 || content.products.length === 0) return content.overlay;
  return parseContent("content/products.json", overlayFileSchema, content.products);
}

function summary(version: number | null, snapshot: ShopSnapshot) {
  const publicProducts = snapshot.products.filter((p) => p.visibility === "public").length;
  return {
    version,
    syncedAt: snapshot.syncedAt,
    ageSeconds: Math.round((Date.now() - Date.parse(snapshot.syncedAt)) / 1000),
    products: snapshot.products.length,
    listed: publicProducts,
    notListed: snapshot.products.length - publicProducts,
    skipped: snapshot.skipped,
    feedbacks: snapshot.feedbacks.length,
  };
}

/** `catalog status|pull|diff`: what the storefront knows of the connected shop's catalogue. */
export const catalogCommand: CliCommand = async (argv, { db, out, err }) => {
  const started = startCommand(argv, CATALOG_OPTIONS, CATALOG_USAGE, { out, err });
  if (typeof started === "number") return started;
  const { values, action, rest, fail } = started;
  if (rest.length > 0) return fail(`"catalog ${action}" takes no arguments (got ${rest.join(" ")})`, 2);

  if (action === "status") {
    const latest = await readLatestSnapshot(db);
    const waiting = await db
      .selectFrom("catalogue_sync_requests")
      .select(["kind", "product_id", "requested_at"])
      .orderBy("id")
      .execute();
    const lease = await db
      .selectFrom("leases")
      .select(["holder", "expires_at"])
      .where("name", "=", SYNC_LEASE)
      .executeTakeFirst();
    const status = {
      source: getEnv().CATALOG_SOURCE,
      lastSync: latest ? summary(latest.version, latest.snapshot) : null,
      waitingResyncs: waiting,
      syncedBy: lease && Date.parse(lease.expires_at) > Date.now() ? lease.holder : null,
      overlayDrift: latest ? overlayDrift(latest.snapshot, readOverlay()) : [],
    };
    if (values.json) {
      out(JSON.stringify(status, null, 2));
      return 0;
    }
    out(
      `Source: ${status.source}${status.source === "content" ? " (content/products.json; set CATALOG_SOURCE=sellauth to read the shop)" : ""}`,
    );
    const last = status.lastSync;
    if (!last) {
      out("No sync yet: the storefront reads the shop at boot and every CATALOG_REFRESH_SECONDS.");
      return 0;
    }
    out(`Last sync: version ${last.version}, ${last.syncedAt} (${last.ageSeconds} s ago)`);
    out(
      `Products: ${last.products} from the shop, ${last.listed} listed, ${last.notListed} not public; ${last.feedbacks} feedbacks`,
    );
    out(`Skipped as malformed: ${last.skipped.length}`);
    for (const skipped of last.skipped) out(`  product ${skipped.id ?? "?"}: ${skipped.reason}`);
    out(`Resyncs waiting: ${status.waitingResyncs.length}; syncing instance: ${status.syncedBy ?? "none right now"}`);
    out(
      `Overlay entries the shop no longer has: ${status.overlayDrift.length}${status.overlayDrift.length ? ' (see "catalog diff")' : ""}`,
    );
    return 0;
  }

  if (action === "pull") {
    const snapshot = await fetchShopSnapshot(shopApi(), new Date());
    const overlay = starterOverlay(snapshot, getContent().site);
    const text = `${JSON.stringify(overlay, null, 2)}\n`;
    if (values.out === undefined) {
      out(
        values.json
          ? JSON.stringify({ products: overlay.length, skipped: snapshot.skipped, overlay }, null, 2)
          : text.trimEnd(),
      );
      return 0;
    }
    if (fs.existsSync(values.out) && !values.force)
      return fail(`${values.out} exists: add --force to replace it (its copy would be lost)`);
    fs.writeFileSync(values.out, text);
    const message = `Wrote ${overlay.length} products to ${values.out}${snapshot.skipped.length ? `; ${snapshot.skipped.length} skipped as malformed` : ""}.`;
    out(
      values.json ? JSON.stringify({ products: overlay.length, skipped: snapshot.skipped, out: values.out }) : message,
    );
    return 0;
  }

  if (action === "diff") {
    const snapshot = values.live
      ? await fetchShopSnapshot(shopApi(), new Date())
      : (await readLatestSnapshot(db))?.snapshot;
    if (!snapshot)
      return fail("No sync yet to compare with: start the storefront with CATALOG_SOURCE=sellauth, or add --live");
    const drift = overlayDrift(snapshot, readOverlay());
    if (values.json) out(JSON.stringify({ drift }, null, 2));
    else if (drift.length === 0)
      out(`Every overlay entry in ${contentDir()}/products.json matches a product of the shop.`);
    else
      out(
        formatTable(
          ["OVERLAY ENTRY THE SHOP NO LONGER HAS"],
          drift.map((line) => [line]),
        ),
      );
    return drift.length === 0 ? 0 : 1;
  }

  return fail(`Unknown catalog command "${action}"\n\n${CATALOG_USAGE}`, 2);
};

/** Entry for the CLI dispatcher (`npm run cli -- catalog ...`). */
export function runCatalogCli(argv: string[]): Promise<number> {
  return runWithDatabase(catalogCommand, argv);
}
