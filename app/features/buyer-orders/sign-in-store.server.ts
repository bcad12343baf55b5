// The sign-in's codes and sessions in the database: random, stored only as hashes, single use (issue 29).
import crypto from "node:crypto";
import type { Kysely } from "kysely";
import { hashSecret as hashStoredSecret, newSecretToken, sameHash } from "~/platform/hashed-secrets.server";
import type { Database } from "../../../db/schema";
import { CODE_TRIES, CODE_TTL_MS, CODES_PER_ADDRESS, CODES_PER_ADDRESS_WINDOW_MS, SESSION_TTL_MS } from "./sign-in";

/** SHA-256 of a code, link or session id; a code's hash is bound to its row, so equal codes hash apart. */
export function hashSecret(purpose: "code" | "link" | "session", secret: string, salt = ""): string {
  return hashStoredSecret(`kestrel-orders-${purpose}`, secret, salt);
}

/** Six digits, uniformly drawn. */
export function newCode(): string {
  return String(crypto.randomInt(0, 1_000_000)).padStart(6, "0");
}

/** 256 random bits, URL-safe: session ids and sign-in links. */
export const newToken = newSecretToken;

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

/** The address the browser's code `id` was sent to (live or not), for sending a new code without asking it again. */
export async function signInCodeEmail(db: Kysely<Database>, id: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("buyer_sign_in_codes")
    .select("email")
    .where("id", "=", hashSecret("code", id))
    .executeTakeFirst();
  return row?.email;
}

/** Deletes codes that died before `codesBefore` (the per-address limit needs only the last 15 minutes) and ended sessions. */
export async function deleteSpentSignIns(
  db: Kysely<Database>,
  { codesBefore, now }: { codesBefore: Date; now: Date },
): Promise<{ codes: number; sessions: number }> {
  const codes = await db
    .deleteFrom("buyer_sign_in_codes")
    .where("expires_at", "<", codesBefore.toISOString())
    .executeTakeFirst();
  const sessions = await db.deleteFrom("buyer_sessions").where("expires_at", "<", now.toISOString()).executeTakeFirst();
  return { codes: Number(codes.numDeletedRows), sessions: Number(sessions.numDeletedRows) };
}
