import express from "express";
import { verifyPayloadOnce } from "~/features/captcha/captcha.server";
import { supportRequestSchema } from "~/features/support-chat/support-chat";
import { jsonBody } from "~/platform/json-body.server";
import { rateLimit } from "~/platform/rate-limit.server";
import { conversationCookies, conversationLink } from "~/features/support-conversation/support-conversation.server";
import { buyerSessionEmail } from "~/features/buyer-orders/sign-in-store.server";
import { SESSION_COOKIE } from "~/features/buyer-orders/sign-in";
import { getDb } from "~/platform/db.server";
import { cookieValue } from "~/platform/form-input";
import { acceptSupportRequest } from "./support-relay.server";

const CAPTCHA_ERRORS = {
  malformed: "Captcha payload is malformed",
  invalid: "Captcha verification failed",
  expired: "Captcha expired. Please try again.",
  reused: "Captcha already used. Please try again.",
} as const;

/** `POST /api/support`: validates, checks the captcha once, stores the request, then answers 202 with its id. */
export function createSupportChatApi() {
  const router = express.Router();
  // Per client address; the limit comes before the body is read, so a flood costs no parsing.
  router.post(
    ["/support", "/support/{*rest}"],
    rateLimit({
      name: "support",
      points: 5,
      durationSeconds: 600,
      error: "Too many support requests. Please wait a few minutes and try again.",
    }),
    jsonBody,
  );
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
    // A visitor signed in at /orders proves the address they give when it is the one they signed in with.
    const buyerSession = cookieValue(req.get("cookie") ?? null, SESSION_COOKIE);
    const signedInEmail = buyerSession ? ((await buyerSessionEmail(getDb().db, buyerSession)) ?? null) : null;
    const { request, conversation, token, linkKey } = await acceptSupportRequest(parsed.data, signedInEmail);
    // The conversation is this browser's from now on (HttpOnly cookie, and the chat's hint); the link opens it on any other.
    res.append("Set-Cookie", conversationCookies(token, req.secure));
    res.set("Cache-Control", "no-store");
    res.status(202).json({
      id: request.id,
      status: request.deliveryStatus,
      conversation: { id: conversation.id, link: conversationLink(linkKey, parsed.data.locale) },
    });
  });
  return router;
}
