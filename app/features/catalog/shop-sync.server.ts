// Keeps the connected shop's catalogue current (docs/shop.md): a full sync at boot and every CATALOG_REFRESH_SECONDS,
// a product's resync when a notification names it. One instance (the lease holder) talks to the shop and writes a new
// snapshot; every instance serves the newest snapshot it has read, and a failed sync leaves the last good one in place.
import crypto from "node:crypto";
import type { Kysely } from "kysely";
import { logger } from "~/platform/logger.server";
import { startLeasedJob } from "~/platform/leases.server";
import { catalogueProductsSkipped, catalogueSyncs, catalogueSyncSeconds } from "~/platform/metrics.server";
import type { Database } from "../../../db/schema";
import { withPriceHistory } from "./price-history.server";
import { withSalesCounts } from "./sales-counts.server";
import type { ShopSnapshot } from "./shop-catalogue.server";
import { type SellAuthCatalogue, ShopApiError } from "./sources/sellauth.server";

export const SYNC_LEASE = "catalogue-sync";
/** How often each instance looks for a newer snapshot and the lease holder for requested resyncs. */
export const SYNC_POLL_MS = 1_000;
/** A lease not renewed for this long is free: a killed instance's syncing is taken over. */
export const SYNC_LEASE_MS = 15_000;
/** An unknown event asks for a full sync; several in a row make one. */
export const FULL_SYNC_DEBOUNCE_MS = 2_000;
/** Snapshots kept besides the newest (the rest are deleted after each sync). */
const SNAPSHOTS_KEPT = 3;

export type SyncRequest = { kind: "product"; productId: number } | { kind: "feedback" } | { kind: "full" };

export interface LoadedSnapshot {
  version: number;
  snapshot: ShopSnapshot;
}

export interface ShopSyncOptions {
  db: Kysely<Database>;
  api: SellAuthCatalogue;
  refreshMs: number;
  /** Called with each newer snapshot this instance reads, in order. */
  onSnapshot(loaded: LoadedSnapshot): void;
  instanceId?: string;
  pollMs?: number;
  leaseMs?: number;
  now?: () => Date;
}

/** Asks the lease holder for a resync: any instance may, whichever one the shop's notification reached. */
export async function requestCatalogueSync(db: Kysely<Database>, request: SyncRequest, now = new Date()) {
  await db
    .insertInto("catalogue_sync_requests")
    .values({
      kind: request.kind,
      product_id: request.kind === "product" ? request.productId : null,
      requested_at: now.toISOString(),
    })
    .execute();
}

/** The newest snapshot, or undefined before the first sync. */
export async function readLatestSnapshot(db: Kysely<Database>): Promise<LoadedSnapshot | undefined> {
  const row = await db
    .selectFrom("catalogue_snapshots")
    .select(["version", "payload"])
    .orderBy("version", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ? { version: row.version, snapshot: JSON.parse(row.payload) as ShopSnapshot } : undefined;
}

async function latestVersion(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom("catalogue_snapshots")
    .select("version")
    .orderBy("version", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.version ?? 0;
}

/** Reads the whole shop: settings, groups, every product page and every feedback page. */
export async function fetchShopSnapshot(api: SellAuthCatalogue, now: Date): Promise<ShopSnapshot> {
  const [settings, groups, { products, skipped }, feedbacks] = await Promise.all([
    api.settings(),
    api.groups(),
    api.products(),
    api.feedbacks(),
  ]);
  return { syncedAt: now.toISOString(), settings, groups, products, feedbacks, skipped };
}

/** The snapshot with some products read again (a product the shop no longer has leaves it). */
async function resyncProducts(
  api: SellAuthCatalogue,
  base: ShopSnapshot,
  productIds: readonly number[],
  withFeedback: boolean,
  now: Date,
): Promise<ShopSnapshot> {
  const products = new Map(base.products.map((p) => [p.id, p]));
  const skipped = base.skipped.filter((s) => s.id === null || !productIds.includes(s.id));
  for (const id of productIds) {
    const read = await api.product(id);
    products.delete(id);
    if (read && "product" in read) products.set(id, read.product);
    else if (read) skipped.push(read.skipped);
  }
  // New products go last, as a full sync would list them; the others keep their place.
  const order = [
    ...base.products.map((p) => p.id),
    ...productIds.filter((id) => !base.products.some((p) => p.id === id)),
  ];
  const feedbacks = withFeedback ? await api.feedbacks() : base.feedbacks;
  return {
    ...base,
    syncedAt: now.toISOString(),
    products: order.flatMap((id) => products.get(id) ?? []),
    skipped,
    feedbacks,
  };
}

async function writeSnapshot(db: Kysely<Database>, snapshot: ShopSnapshot): Promise<number> {
  // One insert: a reader sees the previous snapshot or this one, never half of either.
  const row = await db
    .insertInto("catalogue_snapshots")
    .values({ synced_at: snapshot.syncedAt, payload: JSON.stringify(snapshot) })
    .returning("version")
    .executeTakeFirstOrThrow();
  await db
    .deleteFrom("catalogue_snapshots")
    .where("version", "<=", row.version - SNAPSHOTS_KEPT)
    .execute();
  return row.version;
}

/** Exponential backoff for failed syncs: 1 s, 2 s, 4 s … up to the refresh interval; the shop's Retry-After wins. */
export function syncRetryDelayMs(failures: number, refreshMs: number, error: unknown): number {
  if (error instanceof ShopApiError && error.retryAfterMs !== undefined) return error.retryAfterMs;
  return Math.min(refreshMs, 1_000 * 2 ** Math.max(0, failures - 1));
}

export interface ShopSync {
  /** Resolves once the first snapshot is loaded (from the database or a first sync); never rejects. */
  readonly firstSnapshot: Promise<void>;
  /** The last sync's problem, while the shop cannot be read. */
  lastError(): string | null;
  stop(): Promise<void>;
}

export function startShopSync(options: ShopSyncOptions): ShopSync {
  const { db, api, refreshMs, onSnapshot } = options;
  const instanceId = options.instanceId ?? crypto.randomUUID();
  const pollMs = options.pollMs ?? SYNC_POLL_MS;
  const leaseMs = options.leaseMs ?? SYNC_LEASE_MS;
  const now = options.now ?? (() => new Date());
  let loaded: LoadedSnapshot | undefined;
  let nextFullSyncAt = 0;
  let retryAt = 0;
  let failures = 0;
  let lastError: string | null = null;
  let markLoaded: () => void = () => {};
  const firstSnapshot = new Promise<void>((resolve) => (markLoaded = resolve));

  async function loadNewer() {
    if ((await latestVersion(db)) <= (loaded?.version ?? 0)) return;
    const latest = await readLatestSnapshot(db);
    if (!latest || latest.version <= (loaded?.version ?? 0)) return;
    loaded = latest;
    onSnapshot(latest);
    markLoaded();
  }

  /** The requests due now: product and feedback ones at once, full ones once they stop coming. */
  async function takeRequests(
    at: Date,
  ): Promise<Array<{ id: number; kind: SyncRequest["kind"]; product_id: number | null }>> {
    const rows = await db
      .selectFrom("catalogue_sync_requests")
      .select(["id", "kind", "product_id", "requested_at"])
      .orderBy("id")
      .execute();
    const newestFull = rows.filter((r) => r.kind === "full").at(-1);
    const fullDue =
      newestFull !== undefined && at.getTime() - Date.parse(newestFull.requested_at) >= FULL_SYNC_DEBOUNCE_MS;
    const due = rows.filter((r) => r.kind !== "full" || fullDue);
    if (due.length > 0)
      await db
        .deleteFrom("catalogue_sync_requests")
        .where(
          "id",
          "in",
          due.map((r) => r.id),
        )
        .execute();
    return due;
  }

  async function sync(kind: "full" | "partial", work: () => Promise<ShopSnapshot>) {
    const started = performance.now();
    try {
      // Sales are counted on full syncs (a resync keeps the last counts); every price seen is recorded, and the
      // snapshot carries the counts and the 30-day price references to every instance.
      const read = kind === "full" ? await withSalesCounts(api, await work(), now()) : await work();
      const snapshot = await withPriceHistory(db, read, now());
      const version = await writeSnapshot(db, snapshot);
      catalogueSyncs.inc({ kind, outcome: "ok" });
      catalogueProductsSkipped.set(snapshot.skipped.length);
      if (kind === "full")
        for (const skipped of snapshot.skipped)
          logger.warn({ productId: skipped.id, reason: skipped.reason }, "shop product skipped: malformed");
      if (lastError) logger.info({ version }, "the shop's catalogue syncs again");
      failures = 0;
      lastError = null;
      if (kind === "full") nextFullSyncAt = now().getTime() + refreshMs;
      await loadNewer();
    } catch (error) {
      failures++;
      lastError = error instanceof Error ? error.message : String(error);
      retryAt = now().getTime() + syncRetryDelayMs(failures, refreshMs, error);
      catalogueSyncs.inc({
        kind,
        outcome: error instanceof ShopApiError && error.status === 429 ? "rate_limited" : "failed",
      });
      logger.warn(
        { err: lastError, retryInMs: retryAt - now().getTime(), servingVersion: loaded?.version ?? null },
        loaded
          ? "catalogue sync failed: the last good catalogue stays"
          : "catalogue sync failed: no catalogue yet, /readyz answers 503 until one exists",
      );
      throw error;
    } finally {
      catalogueSyncSeconds.observe({ kind }, (performance.now() - started) / 1000);
    }
  }

  async function syncWhenDue(at: Date) {
    if (at.getTime() < retryAt) return;
    const requests = await takeRequests(at);
    try {
      if (!loaded || at.getTime() >= nextFullSyncAt || requests.some((r) => r.kind === "full")) {
        await sync("full", () => fetchShopSnapshot(api, at));
        return;
      }
      const productIds = [
        ...new Set(requests.flatMap((r) => (r.kind === "product" && r.product_id !== null ? [r.product_id] : []))),
      ];
      const withFeedback = requests.some((r) => r.kind === "feedback");
      if (productIds.length === 0 && !withFeedback) return;
      const base = loaded.snapshot;
      await sync("partial", () => resyncProducts(api, base, productIds, withFeedback, at));
    } catch {
      // Asked-for resyncs are not lost: they wait for the next attempt.
      for (const r of requests)
        await db
          .insertInto("catalogue_sync_requests")
          .values({ kind: r.kind, product_id: r.product_id, requested_at: at.toISOString() })
          .execute();
    }
  }

  const job = startLeasedJob({
    db,
    lease: SYNC_LEASE,
    holder: instanceId,
    leaseMs,
    everyMs: pollMs,
    now,
    beforeLease: loadNewer,
    work: (_signal, at) => syncWhenDue(at),
    onError: (error) => logger.error({ err: error }, "catalogue sync loop failed"),
  });

  return {
    firstSnapshot,
    lastError: () => lastError,
    stop: () => job.stop(),
  };
}
