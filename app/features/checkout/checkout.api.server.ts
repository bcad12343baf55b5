import express from "express";
import { issueChallenge } from "~/features/captcha/captcha.server";
import { getContent } from "~/features/content/content.server";
import { getDb } from "~/server/db.server";
import { checkoutRequestSchema } from "./checkout";
import { getCheckoutProvider, startCheckout } from "./checkout.server";

/** POST /api/checkout, GET /api/checkout/challenge (the active provider's), GET /api/captcha/challenge (our own). */
export function createCheckoutApi() {
  const router = express.Router();

  router.get("/checkout/challenge", async (_req, res) => {
    const answer = await getCheckoutProvider().challenge();
    if ("error" in answer) {
      res.status(502).json({ error: answer.error });
      return;
    }
    res.json(answer.challenge);
  });

  // Our own challenge, for features that verify with verifyPayloadOnce() (e.g. the support chat).
  router.get("/captcha/challenge", async (_req, res) => {
    res.json(await issueChallenge());
  });

  router.post("/checkout", async (req, res) => {
    const parsed = checkoutRequestSchema.safeParse(req.body ?? {});
    if (!parsed.success) {
      res.status(400).json({ error: parsed.error.issues[0]?.message ?? "Invalid checkout request" });
      return;
    }
    const result = await startCheckout({ db: getDb().db, products: getContent().products, provider: getCheckoutProvider() }, parsed.data);
    res.status(result.status).json(result.body);
  });

  return router;
}
