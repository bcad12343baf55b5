// The buyer's sign-in at /orders: limits, the form's schemas and what the page is told (issue 29). Safe in the browser.
import { z } from "zod";

/** A code (and its link) lives this long. */
export const CODE_TTL_MS = 10 * 60_000;
/** Wrong codes allowed before the code is dead. */
export const CODE_TRIES = 5;
/** Codes one address may be sent per window. */
export const CODES_PER_ADDRESS = 3;
export const CODES_PER_ADDRESS_WINDOW_MS = 15 * 60_000;
/** A mail still unsent this long after its code was made is given up: too little of the code's life would be left. */
export const CODE_MAIL_SEND_BY_MS = 5 * 60_000;
/** A signed-in browser stays signed in this long. */
export const SESSION_TTL_MS = 24 * 60 * 60_000;
export const SESSION_COOKIE = "kestrel_orders_session";
/** The code this browser asked for (its random id, never the address), so the code form knows which code it checks. */
export const PENDING_CODE_COOKIE = "kestrel_orders_code";

export const codeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/);

/** What an answer to the page's forms says; the page turns it into words in its language. */
export type SignInNotice =
  | { kind: "code-sent" }
  | { kind: "bad-email" }
  | { kind: "bad-code" }
  | { kind: "bad-request" }
  | { kind: "wrong-code"; triesLeft: number }
  | { kind: "code-expired" }
  | { kind: "link-expired" }
  | { kind: "too-many"; retryAfterSeconds: number }
  | { kind: "forbidden-origin" }
  | { kind: "signed-out" };
