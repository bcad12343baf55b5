import express from "express";
import { getCatalogue, liveStock } from "~/features/catalog/catalogue.server";
import { getDb } from "~/platform/db.server";
import { jsonBody } from "~/platform/json-body.server";
import { checkoutOutcomes } from "~/platform/metrics.server";
import { type RateLimitPolicy, rateLimit } from "~/platform/rate-limit.server";
import { checkoutRequestSchema } from "./checkout";
import { CHECKOUT_MESSAGES } from "./checkout-messages";
import { getCheckoutProvider, startCheckout } from "./checkout.server";

/** Per client address: enough for a buyer retrying a failed payment, not for a script. */
const CHECKOUT_LIMIT: RateLimitPolicy = {
  name: "checkout",
  points: 10,
  durationSeconds: 60,
  error: CHECKOUT_MESSAGES.tooManyAttempts,
};

/** POST /api/checkout, GET /api/checkout/challenge (the active provider's). */
export function createCheckoutApi() {
  const router = express.Router();
  // The limit comes first: a flood is turned away before its body is read.
  router.post("/checkout", rateLimit(CHECKOUT_LIMIT), jsonBody);

  router.get("/checkout/challenge", async (_req, res) => {
    const answer = await getCheckoutProvider().challenge();
    if ("error" in answer) {
      res.status(502).json({ error: answer.error });
      return;
    }
    res.json(answer.challenge);
  });

  router.post("/checkout", async (req, res) => {
    const parsed = checkoutRequestSchema.safeParse(req.body ?? {});
    if (!parsed.success) {
      checkoutOutcomes.inc({ outcome: "invalid" });
      res.status(400).json({ error: parsed.error.issues[0]?.message ?? "Invalid checkout request" });
      return;
    }
    // req.ip honours TRUST_PROXY, so it is the buyer's address, not a proxy's.
    const buyer = { ip: req.ip, userAgent: req.get("User-Agent") };
    const result = await startCheckout(
      { db: getDb().db, products: getCatalogue().all(), provider: getCheckoutProvider(), liveStock },
      parsed.data,
      buyer,
    );
    checkoutOutcomes.inc({
      outcome:
        result.status === 200
          ? "created"
          : result.status === 422
            ? "refused"
            : result.status < 500
              ? "invalid"
              : "error",
    });
    res.status(result.status).json(result.body);
  });

  return router;
}
