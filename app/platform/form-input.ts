// What a form or a request carries, checked the same way by the buyer's pages, the console, the conversation and the
// CLI: an email address and a cookie's token. Safe in the browser.
import { z } from "zod";

export const emailSchema = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email())
  .transform((email) => email.toLowerCase());

/** The value of one cookie in a Cookie header, if it has a plausible token value. */
export function cookieValue(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) {
      const value = rest.join("=");
      return /^[A-Za-z0-9_-]{16,128}$/.test(value) ? value : undefined;
    }
  }
  return undefined;
}
