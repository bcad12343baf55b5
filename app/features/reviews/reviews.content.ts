import { z } from "zod";
import { reviewSchema, vouchParseRulesSchema } from "./reviews.schemas";

/** `content/reviews.json`: how to read the vouch page, and the reviews shown without one. */
export const reviewsFileSchema = z.object({
  parseRules: vouchParseRulesSchema,
  /** Shown when no vouch page is configured (the embedded default). */
  curated: z.array(reviewSchema),
  /** Shown on /reviews when the vouch page cannot be loaded. */
  samples: z.array(reviewSchema).length(2, { message: "expected exactly two sample reviews" }),
});
export type ReviewsFile = z.infer<typeof reviewsFileSchema>;
