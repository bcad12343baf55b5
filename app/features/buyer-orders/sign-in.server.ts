// Codes and sessions of the buyer's sign-in at /orders: random, stored only as hashes, single use (issue 29).
import crypto from "node:crypto";
import { msg } from "@lingui/core/macro";
import type { Kysely } from "kysely";
import { i18nFor } from "~/features/i18n/i18n.server";
import { type AnyLocale, localizedPath } from "~/features/i18n/locales";
import { mailDeliveryState, queueMail } from "~/features/mail/mail.server";
import { getDb } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { hashIdentityForLog } from "~/platform/log-identity.server";
import { logger } from "~/platform/logger.server";
import { signInCodesAccepted, signInCodesSent } from "~/platform/metrics.server";
import { createRateLimiter, type RateLimiter } from "~/platform/rate-limit.server";
import type { Database } from "../../../db/schema";
import type { BuyerOrderSource } from "./buyer-orders";
import {
  CODE_MAIL_SEND_BY_MS,
  CODE_TRIES,
  CODE_TTL_MS,
  CODES_PER_ADDRESS,
  CODES_PER_ADDRESS_WINDOW_MS,
  SESSION_TTL_MS,
} from "./sign-in";

/** SHA-256 of a code, link or session id; a code's hash is bound to its row, so equal codes hash apart. */
export function hashSecret(purpose: "code" | "link" | "session", secret: string, salt = ""): string {
  return crypto.createHash("sha256").update(`kestrel-orders-${purpose}:${salt}:${secret}`).digest("hex");
}

function sameHash(a: string, b: string): boolean {
  return a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** Six digits, uniformly drawn. */
export function newCode(): string {
  return String(crypto.randomInt(0, 1_000_000)).padStart(6, "0");
}

/** 32 random bytes, URL-safe: session ids and sign-in links. */
export function newToken(): string {
  return crypto.randomBytes(32).toString("base64url");
}

export type NewSignInCode = { id: string; code: string; link: string; expiresAt: Date } | { limited: true };

/** Makes a code for the address, unless it had CODES_PER_ADDRESS in the window already. */
export async function createSignInCode(
  db: Kysely<Database>,
  input: { email: string; locale: string; now?: Date },
): Promise<NewSignInCode> {
  const now = input.now ?? new Date();
  const since = new Date(now.getTime() - CODES_PER_ADDRESS_WINDOW_MS).toISOString();
  const recent = await db
    .selectFrom("buyer_sign_in_codes")
    .select((eb) => eb.fn.countAll<number | string>().as("count"))
    .where("email", "=", input.email)
    .where("created_at", ">", since)
    .executeTakeFirstOrThrow();
  if (Number(recent.count) >= CODES_PER_ADDRESS) return { limited: true };
  const id = newToken();
  const code = newCode();
  const link = newToken();
  const expiresAt = new Date(now.getTime() + CODE_TTL_MS);
  await db
    .insertInto("buyer_sign_in_codes")
    .values({
      id: hashSecret("code", id),
      email: input.email,
      code_hash: hashSecret("code", code, id),
      link_hash: hashSecret("link", link),
      locale: input.locale,
      mail_id: null,
      created_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
      tries_left: CODE_TRIES,
      used_at: null,
    })
    .execute();
  return { id, code, link, expiresAt };
}

export type CodeCheck = { ok: true; email: string } | { ok: false; triesLeft: number };

/**
 * Checks a typed code against the code `id` (the browser's cookie). Each check spends a try first, in one conditional
 * update, so parallel guesses cannot get past CODE_TRIES; the right code is then marked used once. `triesLeft: 0`:
 * the code is dead (used, expired or out of tries).
 */
export async function checkSignInCode(
  db: Kysely<Database>,
  input: { id: string; code: string; now?: Date },
): Promise<CodeCheck> {
  const now = (input.now ?? new Date()).toISOString();
  const rowId = hashSecret("code", input.id);
  const spent = await db
    .updateTable("buyer_sign_in_codes")
    .set((eb) => ({ tries_left: eb("tries_left", "-", 1) }))
    .where("id", "=", rowId)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .where("tries_left", ">", 0)
    .returning(["email", "code_hash", "tries_left"])
    .executeTakeFirst();
  if (!spent) return { ok: false, triesLeft: 0 };
  if (!sameHash(spent.code_hash, hashSecret("code", input.code, input.id)))
    return { ok: false, triesLeft: Number(spent.tries_left) };
  const used = await db
    .updateTable("buyer_sign_in_codes")
    .set({ used_at: now })
    .where("id", "=", rowId)
    .where("used_at", "is", null)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1 ? { ok: true, email: spent.email } : { ok: false, triesLeft: 0 };
}

/** Spends the mail's link (once, while its code lives): the address it proves, or undefined. */
export async function spendSignInLink(
  db: Kysely<Database>,
  input: { link: string; now?: Date },
): Promise<string | undefined> {
  const now = (input.now ?? new Date()).toISOString();
  const row = await db
    .updateTable("buyer_sign_in_codes")
    .set({ used_at: now })
    .where("link_hash", "=", hashSecret("link", input.link))
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .where("tries_left", ">", 0)
    .returning(["email"])
    .executeTakeFirst();
  return row?.email;
}

/** The code `id` can still be typed, and the mail that carries it (null when nothing was sent). */
export async function liveSignInCode(
  db: Kysely<Database>,
  id: string,
  now = new Date(),
): Promise<{ mailId: string | null; createdAt: string } | undefined> {
  const row = await db
    .selectFrom("buyer_sign_in_codes")
    .select(["mail_id", "created_at"])
    .where("id", "=", hashSecret("code", id))
    .where("used_at", "is", null)
    .where("expires_at", ">", now.toISOString())
    .where("tries_left", ">", 0)
    .executeTakeFirst();
  return row ? { mailId: row.mail_id, createdAt: row.created_at } : undefined;
}

/** Starts a session for a proven address, ending the browser's earlier one (`replacing`); returns the cookie value. */
export async function createBuyerSession(
  db: Kysely<Database>,
  input: { email: string; replacing?: string; now?: Date },
): Promise<string> {
  const now = input.now ?? new Date();
  if (input.replacing) await endBuyerSession(db, input.replacing);
  const token = newToken();
  await db
    .insertInto("buyer_sessions")
    .values({
      id_hash: hashSecret("session", token),
      email: input.email,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + SESSION_TTL_MS).toISOString(),
    })
    .execute();
  return token;
}

/** The address a session cookie proves, while it lives and was not revoked. */
export async function buyerSessionEmail(
  db: Kysely<Database>,
  token: string,
  now = new Date(),
): Promise<string | undefined> {
  const row = await db
    .selectFrom("buyer_sessions")
    .select("email")
    .where("id_hash", "=", hashSecret("session", token))
    .where("expires_at", ">", now.toISOString())
    .executeTakeFirst();
  return row?.email;
}

export async function endBuyerSession(db: Kysely<Database>, token: string): Promise<void> {
  await db.deleteFrom("buyer_sessions").where("id_hash", "=", hashSecret("session", token)).execute();
}

/** Signs an address out on every browser (the operator's `orders sessions revoke`); returns how many sessions ended. */
export async function revokeBuyerSessions(db: Kysely<Database>, email: string): Promise<number> {
  const result = await db
    .deleteFrom("buyer_sessions")
    .where("email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Per client address, shared by every instance through Redis like the other limits (docs/decisions/010). */
let clientLimiter: RateLimiter | undefined;
function codeRequestsPerClient(): RateLimiter {
  clientLimiter ??= createRateLimiter({
    name: "orders-sign-in",
    points: 10,
    durationSeconds: 15 * 60,
    error: "Too many codes asked for from this address.",
  });
  return clientLimiter;
}

export type CodeRequestResult = { sent: { id: string } } | { limited: { retryAfterSeconds: number } };

/**
 * A buyer asks for a code. The answer never depends on whether the address has orders: a code row is made either
 * way, and looking the orders up (which may ask the shop) and mailing happen after the answer, so neither its content
 * nor its timing tells one address from another.
 */
export async function requestSignInCode(input: {
  email: string;
  locale: AnyLocale;
  clientAddress: string;
  source: BuyerOrderSource;
}): Promise<CodeRequestResult> {
  const perClient = await codeRequestsPerClient().consume(input.clientAddress);
  if (!perClient.ok) return { limited: { retryAfterSeconds: perClient.retryAfterSeconds } };
  const { db } = getDb();
  const created = await createSignInCode(db, { email: input.email, locale: input.locale });
  if ("limited" in created) {
    logger.info({ to: hashIdentityForLog(input.email) }, "orders sign-in: too many codes for this address");
    return { limited: { retryAfterSeconds: Math.ceil(CODES_PER_ADDRESS_WINDOW_MS / 1000) } };
  }
  void mailCodeIfOrders(db, input, created).catch((err) =>
    logger.error({ err, to: hashIdentityForLog(input.email) }, "orders sign-in: the code could not be queued"),
  );
  return { sent: { id: created.id } };
}

async function mailCodeIfOrders(
  db: Kysely<Database>,
  input: { email: string; locale: AnyLocale; source: BuyerOrderSource },
  created: { id: string; code: string; link: string; expiresAt: Date },
) {
  const orders = await input.source.ordersOf(input.email);
  if (orders.length === 0) {
    logger.info({ to: hashIdentityForLog(input.email) }, "orders sign-in: no orders, no code sent");
    return;
  }
  const env = getEnv();
  const link = `${new URL(env.PUBLIC_URL).origin}${localizedPath("/orders", input.locale)}?sign-in=${created.link}`;
  const i18n = i18nFor(input.locale);
  const code = created.code;
  const mail = await queueMail(
    {
      kind: "sign-in-code",
      to: input.email,
      subject: i18n._(msg`Your code for your orders: ${code}`),
      text: [
        i18n._(msg`Your code to see your orders: ${code}`),
        i18n._(msg`It works for 10 minutes. Or open this link, which works once:`),
        link,
        i18n._(msg`If you did not ask for it, you can ignore this mail: nothing happens without the code.`),
      ].join("\n\n"),
    },
    { sendBy: new Date(Math.min(created.expiresAt.getTime(), Date.now() + CODE_MAIL_SEND_BY_MS)) },
  );
  await db
    .updateTable("buyer_sign_in_codes")
    .set({ mail_id: mail.id })
    .where("id", "=", hashSecret("code", created.id))
    .execute();
  signInCodesSent.inc();
}

/** Whether the buyer may be told to wait for the code: false when its mail was given up (expired or failed). */
export async function codeMailState(mailId: string | null): Promise<"on-its-way" | "not-sent"> {
  if (mailId === null) return "on-its-way";
  const state = await mailDeliveryState(mailId);
  return state && (state.status === "expired" || state.status === "failed") ? "not-sent" : "on-its-way";
}

export function recordSignIn(via: "code" | "link", email: string) {
  signInCodesAccepted.inc({ via });
  logger.info({ to: hashIdentityForLog(email), via }, "orders sign-in: signed in");
}
