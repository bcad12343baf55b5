// Secrets we hand out and keep only as hashes (sessions, one-time links and codes, conversation keys, and next the
// console's staff sessions and setup links): 256 random bits, SHA-256 at rest, compared in constant time.
import crypto from "node:crypto";

/** 32 random bytes, URL-safe (43 characters). */
export function newSecretToken(): string {
  return crypto.randomBytes(32).toString("base64url");
}

/** A token as a client may send it: the shape `newSecretToken` makes; nothing else is hashed or looked up. */
export function isSecretToken(value: unknown): value is string {
  return typeof value === "string" && /^[A-Za-z0-9_-]{43}$/.test(value);
}

/**
 * SHA-256 (hex) of a secret under its domain (`kestrel-orders-session`), so a hash of one kind never matches another;
 * a salt binds it to its row (equal short codes hash apart).
 */
export function hashSecret(domain: string, secret: string, salt?: string): string {
  const text = salt === undefined ? `${domain}:${secret}` : `${domain}:${salt}:${secret}`;
  return crypto.createHash("sha256").update(text).digest("hex");
}

/** Whether two hashes are the same, in time that does not depend on where they differ. */
export function sameHash(a: string, b: string): boolean {
  return a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));
}
