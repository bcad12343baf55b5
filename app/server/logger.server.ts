import pino from "pino";
import { getEnv } from "./env.server";

export const logger = pino({
  level: process.env.LOG_LEVEL ?? "info",
  // Secrets and personal data must never reach logs.
  redact: {
    paths: ["req.headers.authorization", "req.headers.cookie", "req.headers['x-signature']", "*.SHOP_API_KEY", "*.SHOP_WEBHOOK_SECRET", "*.SUPPORT_WEBHOOK_URL"],
    censor: "[redacted]",
  },
  base: undefined,
});

export function configureLogger() {
  logger.level = getEnv().LOG_LEVEL;
}
