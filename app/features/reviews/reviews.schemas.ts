import { z } from "zod";
import { DEFAULT_AVATAR, MAX_RATING } from "./reviews";

// Apart from reviews.ts so that pages showing reviews do not load zod: the browser needs these only to read an answer.

const isoDate = z.iso.date({ message: "expected a date YYYY-MM-DD" });
const avatar = z
  .string()
  .refine((v) => v === DEFAULT_AVATAR || v.startsWith("https://") || /^\/[^\s/][^\s]*$/.test(v), {
    message: "expected an https: URL or a site path starting with /",
  });

export const reviewSchema = z.object({
  id: z.string().trim().min(1).max(80),
  user: z.string().trim().min(1).max(80),
  avatar,
  comment: z.string().max(2000),
  rating: z.number().int().min(0).max(MAX_RATING),
  date: isoDate,
  /** From the shop's own feedback: a buyer of a real, paid invoice. */
  verified: z.literal(true).optional(),
  /** The shop's answer to the review. */
  reply: z.string().max(2000).optional(),
  /** Left by the shop when the buyer left none: shown, not counted in the rating. */
  automatic: z.literal(true).optional(),
});

/** The JSON answer of `GET /api/reviews` (ReviewsPayload). */
export const reviewsPayloadSchema = z.object({
  reviews: z.array(reviewSchema),
  fetchedAt: z.string().nullable(),
  stale: z.boolean(),
  error: z.string().optional(),
  summary: z.object({ average: z.number(), count: z.number().int().nonnegative() }).optional(),
  origin: z.enum(["shop", "vouch", "curated"]).optional(),
});

const selector = z.string().trim().min(1, { message: "expected a CSS selector" });

/** How to read a vouch page: CSS selectors, relative to each card except `card` itself. */
export const vouchParseRulesSchema = z.object({
  card: selector,
  /** Attribute on the card holding a stable id; when absent an id is derived from the content. */
  idAttribute: z.string().trim().min(1).optional(),
  /** Element whose text holds the reviewer as `@name`. */
  user: selector,
  text: selector,
  /** Every star icon of a card; the filled ones carry `filledStarClass`. */
  star: selector,
  filledStarClass: z.string().regex(/^[A-Za-z0-9_:-]+$/, { message: "expected one class name" }),
  /** Element with a `datetime` attribute or a date in its text. */
  date: selector,
  avatar: selector,
});
