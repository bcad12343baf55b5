import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { buttonStyles } from "~/components/ui/button-styles";
import { ReviewList } from "./review-card";
import { aggregateRating, REVIEWS_TTL_MS, type ReviewsPayload } from "./reviews";
import { fetchReviews } from "./reviews-api";
import { ReviewsOrigin } from "./reviews-origin";

const PAGE_SIZE = 6;
const ONE_DECIMAL = { minimumFractionDigits: 1, maximumFractionDigits: 1 } as const;

type SectionState = { kind: "loading" } | { kind: "error" } | { kind: "ready"; payload: ReviewsPayload };

/** Failed only when there is nothing to show: a last good (stale) list still beats an error. */
function fromPayload(payload: ReviewsPayload): SectionState {
  return payload.reviews.length === 0 && payload.error ? { kind: "error" } : { kind: "ready", payload };
}

/** True when the server-rendered list may be older than the cache TTL (pages can sit in a CDN for minutes). */
function mayBeOutdated(initial: ReviewsPayload, now: number): boolean {
  return initial.stale || (initial.fetchedAt !== null && now - Date.parse(initial.fetchedAt) >= REVIEWS_TTL_MS);
}

/**
 * Reviews for product pages, from the product vouch account. `initial` is the server's cached list (rendered with
 * the page); without one, or when it may be outdated, the browser asks our API (never the vouch page).
 */
function useProductReviews(initial: ReviewsPayload | null, productId: number): SectionState {
  const [state, setState] = useState<SectionState>(() => (initial ? fromPayload(initial) : { kind: "loading" }));

  useEffect(() => {
    if (initial && !mayBeOutdated(initial, Date.now())) return;
    const controller = new AbortController();
    fetchReviews("product", controller.signal, productId).then(
      (payload) =>
        setState((current) =>
          current.kind === "ready" && payload.reviews.length === 0 && payload.error ? current : fromPayload(payload),
        ),
      () => {
        if (!controller.signal.aborted) setState((current) => (current.kind === "ready" ? current : { kind: "error" }));
      },
    );
    return () => controller.abort();
  }, [initial, productId]);

  return state;
}

/** The Reviews section of a product page. */
export function ProductReviews({ productId, initial = null }: { productId: number; initial?: ReviewsPayload | null }) {
  const state = useProductReviews(initial, productId);
  const [shown, setShown] = useState(PAGE_SIZE);
  const headingId = `reviews-${productId}`;
  const reviews = state.kind === "ready" ? state.payload.reviews : [];
  const rating = aggregateRating(reviews);
  const { i18n } = useLingui();
  const average = rating ? i18n.number(rating.ratingValue, ONE_DECIMAL) : "";
  const count = rating?.reviewCount ?? 0;

  return (
    <section aria-labelledby={headingId} aria-busy={state.kind === "loading"} className="space-y-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={headingId} className="text-2xl font-bold text-foreground">
          <Trans comment="Heading of a product page's reviews section">Reviews</Trans>
        </h2>
        {rating ? (
          <p className="text-sm text-soft">
            <Trans>
              Average {average} out of 5 from <Plural value={count} one="# review" other="# reviews" />
            </Trans>
          </p>
        ) : null}
      </div>
      {state.kind === "loading" ? (
        <p role="status" className="text-soft">
          <Trans>Loading reviews...</Trans>
        </p>
      ) : null}
      {state.kind === "error" ? (
        <p role="alert" className="text-soft">
          <Trans>Failed to load reviews.</Trans>
        </p>
      ) : null}
      {state.kind === "ready" && reviews.length === 0 ? (
        <p className="text-soft">
          <Trans>No reviews yet.</Trans>
        </p>
      ) : null}
      {reviews.length > 0 ? (
        <>
          <ReviewsOrigin origin={state.kind === "ready" ? state.payload.origin : undefined} />
          <ReviewList reviews={reviews.slice(0, shown)} />
          {reviews.length > shown ? (
            <div className="text-center">
              <button type="button" className={buttonStyles.secondary} onClick={() => setShown((n) => n + PAGE_SIZE)}>
                <Trans>Show more reviews</Trans>
              </button>
            </div>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
