import express from "express";
import { isReviewSource } from "./reviews";
import { getReviews } from "./reviews.server";

/**
 * `GET /api/reviews?source=page|product[&productId=]` → {reviews, fetchedAt, stale, error?, summary?}; the browser
 * never calls the vouch page. `productId` narrows the shop's verified feedback to one product.
 */
export function createReviewsApi() {
  const router = express.Router();
  router.get("/reviews", async (req, res) => {
    const source = req.query.source ?? "page";
    if (!isReviewSource(source)) {
      res.status(400).json({ error: 'source must be "page" or "product"' });
      return;
    }
    const productId =
      typeof req.query.productId === "string" && /^\d{1,15}$/.test(req.query.productId)
        ? Number(req.query.productId)
        : undefined;
    const payload = await getReviews(source, { wait: true, productId });
    // Shared caches may keep it briefly: the server cache is the source of truth and refreshes every 60 s.
    res.set("Cache-Control", "public, max-age=15").json(payload);
  });
  return router;
}
