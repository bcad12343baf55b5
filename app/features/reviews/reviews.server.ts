import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "../../../db/schema";
import { getContent } from "~/features/content/content.server";
import { getDb } from "~/platform/db.server";
import { currentShopSnapshot } from "~/features/catalog/catalogue.server";
import { visibleFeedback } from "~/features/catalog/shop-catalogue.server";
import { getEnv, reviewsSource } from "~/platform/env.server";
import { logger } from "~/platform/logger.server";
import { reviewsRefreshOutcomes } from "~/platform/metrics.server";
import {
  DEFAULT_AVATAR,
  FETCH_FAILED_REASON,
  isFetchedWithinTtl,
  isRefreshDue,
  REVIEWS_TTL_MS,
  type Review,
  type ReviewSource,
  type ReviewsPayload,
  VERIFIED_BUYER,
  type VouchParseRules,
} from "./reviews";
import { reviewSchema } from "./reviews.schemas";
import { fetchVouchPage, parseVouchPage, VOUCH_FETCH_TIMEOUT_MS, VouchPageError } from "./vouch-page.server";

export interface ReviewsCacheDeps {
  db: Kysely<Database>;
  rules: VouchParseRules;
  now?: () => Date;
  ttlMs?: number;
  fetchPage?: typeof fetchVouchPage;
}

const cachedListSchema = z.array(reviewSchema);
/** One refresh per source URL at a time in this process; the database claim extends that across instances. */
const refreshesInFlight = new Map<string, Promise<void>>();
/** Aborted at shutdown so a slow vouch page never holds the process open. */
const shutdownController = new AbortController();

/**
 * Reviews of one vouch page, stale-while-revalidate: a cached list comes back at once (a due refresh runs in the
 * background); with nothing cached yet, `wait` decides between waiting for the first fetch and answering null.
 */
export async function readVouchReviews(
  deps: ReviewsCacheDeps,
  url: string,
  options: { wait: boolean },
): Promise<ReviewsPayload | null> {
  const now = (deps.now ?? (() => new Date()))();
  const row = await readRow(deps.db, url);
  const hasList = row?.payload != null;
  if (isRefreshDue(times(row), now, deps.ttlMs)) {
    const refresh = refreshVouchReviews(deps, url);
    // Callers get the cached list at once; the refresh finishes in the background.
    if (hasList) return toPayload(row, now, deps.ttlMs);
    if (!options.wait) return null;
    await refresh;
    return toPayload(await waitForOtherInstance(deps, url), now, deps.ttlMs);
  }
  if (!hasList && !row?.last_error && !options.wait) return null;
  if (!hasList && !row?.last_error) return toPayload(await waitForOtherInstance(deps, url), now, deps.ttlMs);
  return toPayload(row, now, deps.ttlMs);
}

/** Fetches and parses the vouch page if a refresh is due and nobody else is doing it; never throws. */
export function refreshVouchReviews(deps: ReviewsCacheDeps, url: string): Promise<void> {
  const running = refreshesInFlight.get(url);
  if (running) return running;
  const refresh = runRefresh(deps, url)
    .catch((error: unknown) => logger.error({ err: error }, "reviews refresh crashed"))
    .finally(() => refreshesInFlight.delete(url));
  refreshesInFlight.set(url, refresh);
  return refresh;
}

async function runRefresh(deps: ReviewsCacheDeps, url: string) {
  const clock = deps.now ?? (() => new Date());
  if (!(await claimRefresh(deps.db, url, clock(), deps.ttlMs ?? REVIEWS_TTL_MS))) return;
  const row = await readRow(deps.db, url);
  const fetchPage = deps.fetchPage ?? fetchVouchPage;
  try {
    const result = await fetchPage(url, {
      etag: row?.payload != null ? row.etag : null,
      signal: shutdownController.signal,
    });
    if (result.kind === "not-modified") {
      await deps.db
        .updateTable("reviews_cache")
        .set({ fetched_at: clock().toISOString(), last_error: null })
        .where("source", "=", url)
        .execute();
      reviewsRefreshOutcomes.inc({ outcome: "unchanged" });
      return;
    }
    const reviews = parseVouchPage(result.html, deps.rules, { now: clock(), truncated: result.truncated });
    if (result.truncated)
      logger.warn({ reviews: reviews.length }, "vouch page exceeded the size cap; parsed the first part only");
    // An empty list from a non-empty page usually means the page markup changed: content/reviews.json parseRules.
    if (reviews.length === 0)
      logger.warn({ card: deps.rules.card }, "vouch page has no cards matching parseRules.card");
    await deps.db
      .updateTable("reviews_cache")
      .set({ payload: JSON.stringify(reviews), fetched_at: clock().toISOString(), etag: result.etag, last_error: null })
      .where("source", "=", url)
      .execute();
    reviewsRefreshOutcomes.inc({ outcome: "updated" });
  } catch (error) {
    // Shutting down is not a vouch page failure: nothing to record.
    if (shutdownController.signal.aborted) return;
    // The last good list stays; shoppers see it (stale) or the reason when there never was one.
    const reason = error instanceof VouchPageError ? error.reason : FETCH_FAILED_REASON;
    logger.warn(
      { reason, detail: error instanceof Error ? error.message : String(error) },
      "vouch page refresh failed",
    );
    reviewsRefreshOutcomes.inc({ outcome: "failed" });
    await deps.db.updateTable("reviews_cache").set({ last_error: reason }).where("source", "=", url).execute();
  }
}

/** Marks an attempt in the database; false when the list is current or another attempt started within the TTL. */
async function claimRefresh(db: Kysely<Database>, url: string, now: Date, ttlMs: number): Promise<boolean> {
  const nowIso = now.toISOString();
  const inserted = await db
    .insertInto("reviews_cache")
    .values({ source: url, fetched_at: null, payload: null, etag: null, last_error: null, last_attempt_at: nowIso })
    .onConflict((oc) => oc.column("source").doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0) return true;
  const cutoff = new Date(now.getTime() - ttlMs).toISOString();
  const updated = await db
    .updateTable("reviews_cache")
    .set({ last_attempt_at: nowIso })
    .where("source", "=", url)
    .where((eb) =>
      eb.and([
        eb.or([eb("fetched_at", "is", null), eb("fetched_at", "<=", cutoff)]),
        eb.or([eb("last_attempt_at", "is", null), eb("last_attempt_at", "<=", cutoff)]),
      ]),
    )
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

type CacheRow = Awaited<ReturnType<typeof readRow>>;

function readRow(db: Kysely<Database>, url: string) {
  return db.selectFrom("reviews_cache").selectAll().where("source", "=", url).executeTakeFirst();
}

function times(row: CacheRow) {
  return { fetchedAt: row?.fetched_at ?? null, lastAttemptAt: row?.last_attempt_at ?? null };
}

/** Another instance holds the claim for a first fetch: wait (at most the fetch timeout) for its result. */
async function waitForOtherInstance(deps: ReviewsCacheDeps, url: string): Promise<CacheRow> {
  const deadline = Date.now() + VOUCH_FETCH_TIMEOUT_MS + 1000;
  for (;;) {
    const row = await readRow(deps.db, url);
    if (row?.payload != null || row?.last_error || Date.now() > deadline) return row;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function toPayload(row: CacheRow, now: Date, ttlMs?: number): ReviewsPayload {
  const parsed = row?.payload != null ? cachedListSchema.safeParse(safeJson(row.payload)) : undefined;
  const reviews: Review[] = parsed?.success ? parsed.data : [];
  const payload: ReviewsPayload = {
    reviews,
    fetchedAt: row?.fetched_at ?? null,
    stale: !isFetchedWithinTtl(times(row), now, ttlMs),
  };
  if (row?.last_error) payload.error = row.last_error;
  return payload;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The vouch page configured for a source, if any. */
export function vouchPageUrl(source: ReviewSource): string | undefined {
  const env = getEnv();
  return source === "page" ? env.REVIEWS_SOURCE_URL : env.REVIEWS_PRODUCT_SOURCE_URL;
}

/**
 * Reviews for the /reviews page or product pages: the shop's verified feedback (REVIEWS_SOURCE=shop), a vouch page,
 * or the curated list from content when no vouch page is configured.
 */
export async function getReviews(
  source: ReviewSource,
  options: { wait: boolean; productId?: number } = { wait: true },
): Promise<ReviewsPayload | null> {
  const from = reviewsSource(getEnv());
  if (from === "shop") return shopReviews(source, options.productId);
  // REVIEWS_SOURCE=content keeps the curated list even when a vouch page is configured.
  const url = from === "vouch" ? vouchPageUrl(source) : undefined;
  const content = getContent();
  if (!url) return { reviews: content.reviews.curated, fetchedAt: null, stale: false, origin: "curated" };
  const read = await readVouchReviews({ db: getDb().db, rules: content.reviews.parseRules }, url, options);
  return read ? { ...read, origin: "vouch" } : read;
}

/** True when reviews are the shop's own feedback from paid invoices: only those rate a product in its JSON-LD. */
export function reviewsAreVerified(): boolean {
  return reviewsSource(getEnv()) === "shop";
}

/** The shop's feedback as reviews, newest first: all of it for /reviews, one product's for its page. */
function shopReviews(source: ReviewSource, productId: number | undefined): ReviewsPayload {
  const snapshot = currentShopSnapshot();
  if (!snapshot) return { reviews: [], fetchedAt: null, stale: true, error: FETCH_FAILED_REASON, origin: "shop" };
  const feedback = visibleFeedback(snapshot)
    .filter((f) => source === "page" || productId === undefined || f.productId === productId)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  const reviews: Review[] = feedback.map((f) => ({
    id: `shop-${f.id}`,
    user: VERIFIED_BUYER,
    verified: true,
    avatar: DEFAULT_AVATAR,
    comment: f.message.slice(0, 2000),
    rating: f.rating,
    date: /^\d{4}-\d{2}-\d{2}/.exec(f.createdAt)?.[0] ?? snapshot.syncedAt.slice(0, 10),
    ...(f.reply ? { reply: f.reply.slice(0, 2000) } : {}),
    ...(f.automatic ? { automatic: true as const } : {}),
  }));
  const { averageRating, totalFeedbacks } = snapshot.settings;
  // Pages render again whenever the catalogue changes, so the list is never older than the page: nothing to refetch.
  return {
    reviews,
    fetchedAt: null,
    stale: false,
    origin: "shop",
    ...(source === "page" && averageRating !== null && totalFeedbacks !== null
      ? { summary: { average: averageRating, count: totalFeedbacks } }
      : {}),
  };
}

/** Sample reviews the /reviews page falls back to when the vouch page cannot be loaded. */
export function getSampleReviews(): Review[] {
  return getContent().reviews.samples;
}

/** Keeps configured vouch pages warm so pages rarely serve a stale list; returns the stop function for shutdown. */
export function startReviewsRefresher(intervalMs = 15_000): () => Promise<void> {
  const tick = () => {
    // Only the vouch source reads vouch pages: the shop's feedback and the curated list need no refresh.
    if (reviewsSource(getEnv()) !== "vouch") return;
    const content = getContent();
    for (const url of new Set([vouchPageUrl("page"), vouchPageUrl("product")])) {
      if (url) void refreshVouchReviews({ db: getDb().db, rules: content.reviews.parseRules }, url);
    }
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    shutdownController.abort();
    await Promise.allSettled([...refreshesInFlight.values()]);
  };
}

/** For page loaders: what is cached right now, never waiting on the vouch page; null lets the browser load it. */
export async function cachedReviewsForPage(source: ReviewSource, productId?: number): Promise<ReviewsPayload | null> {
  try {
    return await getReviews(source, { wait: false, productId });
  } catch (error) {
    // A database hiccup must not take the page down: the section loads in the browser instead.
    logger.error({ err: error }, "reading cached reviews failed");
    return null;
  }
}
