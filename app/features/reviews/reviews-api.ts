import { EMPTY_BODY_REASON, FETCH_FAILED_REASON, type ReviewSource, type ReviewsPayload } from "./reviews";

// zod comes with the first answer to read, not with the page that shows reviews.
const loadSchemas = () => import("./reviews.schemas");

/** A failed load of our reviews API; `reason` is one of the texts shoppers see. */
export class ReviewsLoadError extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

/** Reviews from our own API (never the vouch page itself): non-OK → "Failed to fetch vouches", empty body → "No content received from API". */
export async function fetchReviews(
  source: ReviewSource,
  signal?: AbortSignal,
  productId?: number,
): Promise<ReviewsPayload> {
  let response: Response;
  try {
    // The page decides when to ask again; the browser cache must not answer for the server.
    response = await fetch(`/api/reviews?source=${source}${productId === undefined ? "" : `&productId=${productId}`}`, {
      headers: { Accept: "application/json" },
      cache: "no-store",
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ReviewsLoadError(FETCH_FAILED_REASON);
  }
  if (!response.ok) throw new ReviewsLoadError(FETCH_FAILED_REASON);
  const text = await response.text();
  if (text.trim() === "") throw new ReviewsLoadError(EMPTY_BODY_REASON);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ReviewsLoadError(FETCH_FAILED_REASON);
  }
  const { reviewsPayloadSchema } = await loadSchemas();
  const parsed = reviewsPayloadSchema.safeParse(body);
  if (!parsed.success) throw new ReviewsLoadError(FETCH_FAILED_REASON);
  return parsed.data;
}
