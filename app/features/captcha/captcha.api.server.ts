import express from "express";
import { issueChallenge } from "./captcha.server";

/** `GET /api/captcha/challenge`: our own proof-of-work challenge, for features that verify with verifyPayloadOnce(). */
export function createCaptchaApi() {
  const router = express.Router();
  router.get("/captcha/challenge", async (_req, res) => {
    res.json(await issueChallenge());
  });
  return router;
}
