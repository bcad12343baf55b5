import pino, { type DestinationStream } from "pino";
import { type Env, getEnv, SECRET_ENV_NAMES } from "./env.server";

/** Secrets and personal data must never reach logs: credentials in headers, and every secret setting at any depth we log. */
export const REDACTED_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  "req.headers['x-signature']",
  ...SECRET_ENV_NAMES,
  ...SECRET_ENV_NAMES.map((name) => `*.${name}`),
];

export function createLogger(level: Env["LOG_LEVEL"], destination?: DestinationStream) {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: "[redacted]" }, base: undefined }, destination);
}

/** The configured level; while the configuration is invalid (boot reports that in one line) logging stays at info. */
function configuredLevel(): Env["LOG_LEVEL"] {
  try {
    return getEnv().LOG_LEVEL;
  } catch {
    return "info";
  }
}

export const logger = createLogger(configuredLevel());

export function configureLogger() {
  logger.level = getEnv().LOG_LEVEL;
}
