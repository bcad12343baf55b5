import { useEffect, useRef, useState } from "react";
import { ReviewList } from "./review-card";
import { REVIEWS_TTL_MS, type Review, type ReviewsPayload } from "./reviews";
import { fetchReviews, ReviewsLoadError } from "./reviews-api";

export const FALLBACK_MESSAGE = "Failed to load vouches. Using sample data.";

type VouchesState =
  | { kind: "loading" }
  | { kind: "list"; reviews: Review[]; summary?: ReviewsPayload["summary"] }
  | { kind: "fallback"; reason: string };

/** A list (even a stale one) beats samples; samples only when there is nothing real to show. */
function fromPayload(payload: ReviewsPayload): VouchesState {
  if (payload.reviews.length === 0 && payload.error) return { kind: "fallback", reason: payload.error };
  return { kind: "list", reviews: payload.reviews, summary: payload.summary };
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
        const reason = error instanceof ReviewsLoadError ? error.reason : "Failed to fetch vouches";
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
  return (
    <section aria-labelledby="vouches-heading" aria-busy={state.kind === "loading"}>
      <h2 id="vouches-heading" className="sr-only">
        Vouches
      </h2>
      {state.kind === "loading" ? (
        <div role="status" className="flex items-center justify-center gap-3 py-16 text-slate-200">
          <span
            aria-hidden="true"
            className="size-6 animate-spin rounded-full border-2 border-sky-400/30 border-t-sky-400"
          />
          Loading vouches...
        </div>
      ) : null}
      {state.kind === "fallback" ? (
        <>
          <div role="status" className="mb-8 rounded-2xl border border-amber-400/40 bg-amber-500/10 p-4 text-center">
            <p className="font-medium text-amber-100">{FALLBACK_MESSAGE}</p>
            <p className="mt-1 text-sm text-slate-300">{state.reason}</p>
          </div>
          <ReviewList reviews={samples} />
        </>
      ) : null}
      {state.kind === "list" && state.reviews.length === 0 ? (
        <p className="py-16 text-center text-slate-300">No vouches yet.</p>
      ) : null}
      {state.kind === "list" && state.summary ? (
        <p className="mb-6 text-center text-slate-300">
          Average {state.summary.average.toFixed(1)} out of 5 from {state.summary.count} verified{" "}
          {state.summary.count === 1 ? "purchase" : "purchases"}
        </p>
      ) : null}
      {state.kind === "list" && state.reviews.length > 0 ? <ReviewList reviews={state.reviews} /> : null}
    </section>
  );
}
