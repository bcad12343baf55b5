import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { ReviewsOrigin } from "./reviews-origin";
import { useEffect, useRef, useState } from "react";
import { DEFAULT_LOCALE, localeInfo } from "~/features/i18n/locales";
import { ReviewList } from "./review-card";
import { EMPTY_BODY_REASON, FETCH_FAILED_REASON, REVIEWS_TTL_MS, type Review, type ReviewsPayload } from "./reviews";
import { fetchReviews, ReviewsLoadError } from "./reviews-api";

const ONE_DECIMAL = { minimumFractionDigits: 1, maximumFractionDigits: 1 } as const;

/** Why the vouches could not be loaded, in the page's language; a reason we do not know stays as the server wrote it. */
function FallbackReason({ reason }: { reason: string }) {
  const { t } = useLingui();
  const className = "mt-1 text-sm text-soft";
  if (reason === FETCH_FAILED_REASON) return <p className={className}>{t`Failed to fetch vouches`}</p>;
  if (reason === EMPTY_BODY_REASON) return <p className={className}>{t`No content received from API`}</p>;
  return (
    <p lang={localeInfo(DEFAULT_LOCALE).tag} className={className}>
      {reason}
    </p>
  );
}

type VouchesState =
  | { kind: "loading" }
  | { kind: "list"; reviews: Review[]; summary?: ReviewsPayload["summary"]; origin?: ReviewsPayload["origin"] }
  | { kind: "fallback"; reason: string };

/** A list (even a stale one) beats samples; samples only when there is nothing real to show. */
function fromPayload(payload: ReviewsPayload): VouchesState {
  if (payload.reviews.length === 0 && payload.error) return { kind: "fallback", reason: payload.error };
  return { kind: "list", reviews: payload.reviews, summary: payload.summary, origin: payload.origin };
}

/**
 * The shop's vouches from our API, asked again every 60 s while the tab is visible (hidden tabs pause; coming back
 * after the interval asks at once). A failed later refresh keeps the reviews already shown.
 */
function useVouches(initial: ReviewsPayload | null): VouchesState {
  const [state, setState] = useState<VouchesState>(() => (initial ? fromPayload(initial) : { kind: "loading" }));
  const hadInitial = useRef(initial !== null);

  useEffect(() => {
    const controller = new AbortController();
    let lastLoadAt = hadInitial.current ? Date.now() : 0;
    let timer: ReturnType<typeof setInterval> | undefined;

    async function load() {
      lastLoadAt = Date.now();
      try {
        const payload = await fetchReviews("page", controller.signal);
        setState((current) => {
          const next = fromPayload(payload);
          return next.kind === "fallback" && current.kind === "list" && current.reviews.length > 0 ? current : next;
        });
      } catch (error) {
        if (controller.signal.aborted) return;
        const reason = error instanceof ReviewsLoadError ? error.reason : FETCH_FAILED_REASON;
        setState((current) =>
          current.kind === "list" && current.reviews.length > 0 ? current : { kind: "fallback", reason },
        );
      }
    }

    function startInterval() {
      clearInterval(timer);
      timer = setInterval(() => void load(), REVIEWS_TTL_MS);
    }

    function onVisibilityChange() {
      if (document.visibilityState === "hidden") {
        clearInterval(timer);
        timer = undefined;
        return;
      }
      if (Date.now() - lastLoadAt >= REVIEWS_TTL_MS) void load();
      startInterval();
    }

    if (!hadInitial.current) void load();
    if (document.visibilityState !== "hidden") startInterval();
    document.addEventListener("visibilitychange", onVisibilityChange);
    return () => {
      controller.abort();
      clearInterval(timer);
      document.removeEventListener("visibilitychange", onVisibilityChange);
    };
  }, []);

  return state;
}

/**
 * The /reviews page body: the shop's vouches, with sample reviews when the vouch page cannot be loaded.
 * `initial` is the server's cached list (null: nothing cached yet, load in the browser).
 */
export function ReviewsPage({ initial = null, samples = [] }: { initial?: ReviewsPayload | null; samples?: Review[] }) {
  const state = useVouches(initial);
  const { i18n } = useLingui();
  const summary = state.kind === "list" ? state.summary : undefined;
  const average = summary ? i18n.number(summary.average, ONE_DECIMAL) : "";
  const count = summary?.count ?? 0;
  return (
    <section aria-labelledby="vouches-heading" aria-busy={state.kind === "loading"}>
      <h2 id="vouches-heading" className="sr-only">
        <Trans comment="Vouches: reviews the shop's customers post in its community">Vouches</Trans>
      </h2>
      {state.kind === "loading" ? (
        <div role="status" className="flex items-center justify-center gap-3 py-16 text-foreground">
          <span
            aria-hidden="true"
            className="size-6 animate-spin rounded-full border-2 border-accent/30 border-t-accent"
          />
          <Trans>Loading vouches...</Trans>
        </div>
      ) : null}
      {state.kind === "fallback" ? (
        <>
          <div role="status" className="mb-8 rounded-2xl border border-warning/40 bg-warning/10 p-4 text-center">
            <p className="font-medium text-warning-soft">
              <Trans>Failed to load vouches. Using sample data.</Trans>
            </p>
            <FallbackReason reason={state.reason} />
          </div>
          <ReviewList reviews={samples} />
        </>
      ) : null}
      {state.kind === "list" && state.reviews.length === 0 ? (
        <p className="py-16 text-center text-soft">
          <Trans>No vouches yet.</Trans>
        </p>
      ) : null}
      {summary ? (
        <p className="mb-6 text-center text-soft">
          <Trans>
            Average {average} out of 5 from{" "}
            <Plural value={count} one="# verified purchase" other="# verified purchases" />
          </Trans>
        </p>
      ) : null}
      {state.kind === "list" && state.reviews.length > 0 ? (
        <>
          <ReviewsOrigin origin={state.origin} className="mb-6 text-center" />
          <ReviewList reviews={state.reviews} />
        </>
      ) : null}
    </section>
  );
}
