import express from "express";
import { verifyPayloadOnce } from "~/features/captcha/captcha.server";
import { supportRequestSchema } from "./support-chat";
import { acceptSupportRequest } from "./support-chat.server";

const CAPTCHA_ERRORS = {
  malformed: "Captcha payload is malformed",
  invalid: "Captcha verification failed",
  expired: "Captcha expired. Please try again.",
  reused: "Captcha already used. Please try again.",
} as const;

/** `POST /api/support`: validates, checks the captcha once, stores the request, then answers 202 with its id. */
export function createSupportChatApi() {
  const router = express.Router();
  router.post("/support", async (req, res) => {
    const parsed = supportRequestSchema.safeParse(req.body);
    if (!parsed.success) {
      res.status(400).json({ error: parsed.error.issues[0]?.message ?? "Invalid support request" });
      return;
    }
    const verdict = await verifyPayloadOnce(parsed.data.altcha);
    if (!verdict.ok) {
      res.status(403).json({ error: CAPTCHA_ERRORS[verdict.reason] });
      return;
    }
    const request = await acceptSupportRequest(parsed.data);
    res.status(202).json({ id: request.id, status: request.deliveryStatus });
  });
  return router;
}
