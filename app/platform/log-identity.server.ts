import crypto from "node:crypto";

/**
 * What logs carry instead of a person's identifier (an email address): a short SHA-256 digest of it, trimmed and
 * lower-cased, so one buyer's lines can be followed across instances without the address ever being written.
 */
export function hashIdentityForLog(identity: string): string {
  const digest = crypto.createHash("sha256").update(`kestrel-log-identity:${identity.trim().toLowerCase()}`);
  return `id:${digest.digest("hex").slice(0, 16)}`;
}
