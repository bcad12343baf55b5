import type { z } from "zod";
import type { reviewSchema, vouchParseRulesSchema } from "./reviews.schemas";

/** Shown when a reviewer has no usable (https:) avatar. */
export const DEFAULT_AVATAR = "/images/avatar-default.svg";
export const MAX_RATING = 5;
/** How long a fetched vouch page stays current, and how often the /reviews page asks again. */
export const REVIEWS_TTL_MS = 60_000;

/** Reasons the /reviews page shows when it falls back to sample data. */
export const FETCH_FAILED_REASON = "Failed to fetch vouches";
export const EMPTY_BODY_REASON = "No content received from API";

export const reviewSources = ["page", "product"] as const;
export type ReviewSource = (typeof reviewSources)[number];

export type Review = z.infer<typeof reviewSchema>;

/** The JSON answer of `GET /api/reviews`. `fetchedAt` is null for the curated list (no vouch page configured). */
export interface ReviewsPayload {
  reviews: Review[];
  fetchedAt: string | null;
  stale: boolean;
  error?: string;
  /** The shop's own average and count of all its feedback (the verified-reviews source). */
  summary?: { average: number; count: number };
  /** Where the reviews come from, said in one sentence wherever they are shown (UCPD Art. 7(6); docs/shop.md). */
  origin?: ReviewOrigin;
}

/** The shop's verified feedback from buyers, the vouch page, or quotes the shop chose itself (content/reviews.json). */
export type ReviewOrigin = "shop" | "vouch" | "curated";

/** How reviews written by the shop's buyers are signed (the shop gives no names). */
export const VERIFIED_BUYER = "Verified buyer";

export type VouchParseRules = z.infer<typeof vouchParseRulesSchema>;

export function isReviewSource(value: unknown): value is ReviewSource {
  return typeof value === "string" && (reviewSources as readonly string[]).includes(value);
}

/** "4 out of 5 stars" — the accessible name of a star rating. */
export function ratingLabel(rating: number): string {
  return `${rating} out of ${MAX_RATING} stars`;
}

/** Today's date (UTC) as YYYY-MM-DD. */
export function isoDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** schema.org AggregateRating for a product's JSON-LD, or undefined when there is nothing to aggregate. */
export function aggregateRating(all: ReadonlyArray<Pick<Review, "rating" | "automatic">>) {
  // Feedback the shop left itself (the buyer wrote none) is shown, never counted in the rating.
  const reviews = all.filter((r) => !r.automatic);
  if (reviews.length === 0) return undefined;
  const sum = reviews.reduce((acc, r) => acc + r.rating, 0);
  return {
    "@type": "AggregateRating",
    ratingValue: Math.round((sum / reviews.length) * 10) / 10,
    reviewCount: reviews.length,
    bestRating: MAX_RATING,
    worstRating: 0,
  } as const;
}

/** `{aggregateRating}` to spread into a Product JSON-LD object; empty when there are no reviews. */
export function aggregateRatingProperty(payload: Pick<ReviewsPayload, "reviews"> | null): {
  aggregateRating?: NonNullable<ReturnType<typeof aggregateRating>>;
} {
  const rating = aggregateRating(payload?.reviews ?? []);
  return rating ? { aggregateRating: rating } : {};
}

export interface CacheTimes {
  fetchedAt: string | null;
  lastAttemptAt: string | null;
}

/** A cached list stays current for the TTL after the last successful fetch. */
export function isFetchedWithinTtl(times: CacheTimes, now: Date, ttlMs = REVIEWS_TTL_MS): boolean {
  return times.fetchedAt !== null && now.getTime() - Date.parse(times.fetchedAt) < ttlMs;
}

/** A refresh is due when nothing was tried within the TTL (failures back off as long as successes stay current). */
export function isRefreshDue(times: CacheTimes, now: Date, ttlMs = REVIEWS_TTL_MS): boolean {
  if (isFetchedWithinTtl(times, now, ttlMs)) return false;
  return times.lastAttemptAt === null || now.getTime() - Date.parse(times.lastAttemptAt) >= ttlMs;
}
