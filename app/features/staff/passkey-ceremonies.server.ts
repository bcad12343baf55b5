// WebAuthn for the console through @simplewebauthn/server: discoverable credentials, user verification required, the
// relying party is PUBLIC_URL's host, and every challenge lives in the database (any instance checks it, once).
import { isIP } from "node:net";
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { Kysely } from "kysely";
import { isDatabaseUnavailableError } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import type { Database } from "../../../db/schema";
import {
  addPasskey,
  findPasskey,
  passkeyCredentials,
  recordPasskeyUse,
  spendChallenge,
  storeChallenge,
} from "./passkey-store.server";
import { findStaffById, type Staff } from "./people.server";

export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

export function relyingParty(publicUrl = getEnv().PUBLIC_URL): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, origin: url.origin, name: "Kestrel console" };
}

/** Passkeys are bound to a host name: an IP address cannot be a relying party. */
export function relyingPartyIsAddress(publicUrl = getEnv().PUBLIC_URL): boolean {
  return isIP(new URL(publicUrl).hostname.replace(/^\[|\]$/g, "")) !== 0;
}

/** The challenge a response answers, from its client data (base64url JSON); undefined when unreadable. */
export function challengeOf(response: { response?: { clientDataJSON?: unknown } }): string | undefined {
  const data = response.response?.clientDataJSON;
  if (typeof data !== "string" || data.length > 4096) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(data, "base64url").toString("utf8")) as { challenge?: unknown };
    return typeof parsed.challenge === "string" && parsed.challenge.length <= 200 ? parsed.challenge : undefined;
  } catch {
    return undefined;
  }
}

export async function signInOptions(db: Kysely<Database>) {
  const rp = relyingParty();
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: "required",
    allowCredentials: [],
  });
  await storeChallenge(db, { challenge: options.challenge, purpose: "sign-in", sessionHash: null });
  return options;
}

export type SignInCheck =
  | { ok: true; staff: Staff; passkeyId: string }
  | { ok: false; reason: "challenge" | "unknown-passkey" | "not-verified"; staffEmail?: string };

/** Checks a sign-in answer: its challenge spent once, its passkey known, its signature and user verification good. */
export async function verifySignIn(db: Kysely<Database>, response: AuthenticationResponseJSON): Promise<SignInCheck> {
  const challenge = challengeOf(response);
  if (!challenge || !(await spendChallenge(db, { challenge, purpose: "sign-in", sessionHash: null })))
    return { ok: false, reason: "challenge" };
  const passkey = await findPasskey(db, response.id);
  if (!passkey) return { ok: false, reason: "unknown-passkey" };
  const staff = await findStaffById(db, passkey.staff_id);
  if (!staff) return { ok: false, reason: "unknown-passkey" };
  // A passkey names its owner's user handle too (WebAuthn §7.2 step 6): it must be the person the credential is stored for.
  if (response.response.userHandle && response.response.userHandle !== staff.webauthn_user_id)
    return { ok: false, reason: "unknown-passkey", staffEmail: staff.email };
  const newCounter = await assertionCounter(passkey, challenge, response);
  if (newCounter === undefined) return { ok: false, reason: "not-verified", staffEmail: staff.email };
  await recordPasskeyUse(db, passkey.id, newCounter);
  return { ok: true, staff, passkeyId: passkey.id };
}

/** The signature and user verification of an assertion by this stored passkey: its new counter, or undefined. */
async function assertionCounter(
  passkey: NonNullable<Awaited<ReturnType<typeof findPasskey>>>,
  challenge: string,
  response: AuthenticationResponseJSON,
): Promise<number | undefined> {
  const rp = relyingParty();
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      credential: {
        id: passkey.id,
        publicKey: Buffer.from(passkey.public_key, "base64url"),
        counter: Number(passkey.counter),
        transports: JSON.parse(passkey.transports) as never,
      },
    });
    return result.verified ? result.authenticationInfo.newCounter : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Fresh proof before a new credential (issue 42): a passkey ceremony with one of the person's own passkeys, its
 * challenge bound to this session and spent once within CHALLENGE_TTL_MS.
 */
export async function confirmationOptions(db: Kysely<Database>, staff: Staff, sessionHash: string) {
  const rp = relyingParty();
  const existing = await passkeyCredentials(db, staff.id);
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: "required",
    allowCredentials: existing.map((c) => ({ id: c.id, transports: JSON.parse(c.transports) as never })),
  });
  await storeChallenge(db, { challenge: options.challenge, purpose: "confirm", sessionHash });
  return options;
}

export type ConfirmationCheck =
  | { ok: true; passkeyId: string }
  | { ok: false; reason: "challenge" | "unknown-passkey" | "not-verified" };

/** Checks a confirmation answer: made for this session, once, by one of this person's passkeys, signature good. */
export async function verifyConfirmation(
  db: Kysely<Database>,
  staff: Staff,
  sessionHash: string,
  response: AuthenticationResponseJSON,
): Promise<ConfirmationCheck> {
  const challenge = challengeOf(response);
  if (!challenge || !(await spendChallenge(db, { challenge, purpose: "confirm", sessionHash })))
    return { ok: false, reason: "challenge" };
  const passkey = await findPasskey(db, response.id);
  if (!passkey || passkey.staff_id !== staff.id) return { ok: false, reason: "unknown-passkey" };
  if (response.response.userHandle && response.response.userHandle !== staff.webauthn_user_id)
    return { ok: false, reason: "unknown-passkey" };
  const newCounter = await assertionCounter(passkey, challenge, response);
  if (newCounter === undefined) return { ok: false, reason: "not-verified" };
  await recordPasskeyUse(db, passkey.id, newCounter);
  return { ok: true, passkeyId: passkey.id };
}

export async function registrationOptions(db: Kysely<Database>, staff: Staff, sessionHash: string) {
  const rp = relyingParty();
  const existing = await passkeyCredentials(db, staff.id);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: staff.email,
    userDisplayName: staff.email,
    userID: Buffer.from(staff.webauthn_user_id, "base64url"),
    attestationType: "none",
    excludeCredentials: existing.map((c) => ({ id: c.id, transports: JSON.parse(c.transports) as string[] })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });
  await storeChallenge(db, { challenge: options.challenge, purpose: "register", sessionHash });
  return options;
}

export type RegistrationCheck = { ok: true; passkeyId: string; name: string } | { ok: false; reason: string };

/** A registration answer's WebAuthn verification (signature, origin, relying party, user verification): no database. */
export type RegistrationAnswer =
  | {
      ok: true;
      challenge: string;
      credential: { id: string; publicKey: Uint8Array; counter: number; transports: string[] };
    }
  | { ok: false; challenge: string | undefined; reason: string };

/**
 * The crypto of a registration answer, done before any transaction opens (issue 42): a passkey step under load no
 * longer holds a database transaction (SQLite's one writer) through its signature check. Its challenge is only read
 * here; `storeRegistration` spends it.
 */
export async function checkRegistrationAnswer(response: RegistrationResponseJSON): Promise<RegistrationAnswer> {
  const rp = relyingParty();
  const challenge = challengeOf(response);
  if (!challenge) return { ok: false, challenge, reason: "challenge" };
  try {
    const result = await verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
    });
    if (!result.verified) return { ok: false, challenge, reason: "not-verified" };
    const { credential } = result.registrationInfo;
    return {
      ok: true,
      challenge,
      credential: {
        id: credential.id,
        publicKey: credential.publicKey,
        counter: credential.counter,
        transports: credential.transports ?? [],
      },
    };
  } catch (error) {
    return { ok: false, challenge, reason: error instanceof Error ? error.message.slice(0, 200) : "not-verified" };
  }
}

/**
 * The writes of a registration, for the caller's transaction: the challenge spent once (made for this session), then
 * the verified passkey stored. A challenge that is not this session's is refused before the answer's own verdict, as
 * before the crypto moved out.
 */
export async function storeRegistration(
  db: Kysely<Database>,
  staff: Staff,
  sessionHash: string,
  answer: RegistrationAnswer,
  name: string,
): Promise<RegistrationCheck> {
  const { challenge } = answer;
  if (!challenge || !(await spendChallenge(db, { challenge, purpose: "register", sessionHash })))
    return { ok: false, reason: "challenge" };
  if (!answer.ok) return { ok: false, reason: answer.reason };
  const { credential } = answer;
  try {
    if (await findPasskey(db, credential.id)) return { ok: false, reason: "already-registered" };
    await addPasskey(db, {
      staffId: staff.id,
      id: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString("base64url"),
      counter: credential.counter,
      transports: credential.transports,
      name,
    });
    return { ok: true, passkeyId: credential.id, name };
  } catch (error) {
    // The database out of reach is the caller's 503, not a refused passkey.
    if (isDatabaseUnavailableError(error)) throw error;
    return { ok: false, reason: error instanceof Error ? error.message.slice(0, 200) : "not-verified" };
  }
}

/** Checks a registration answer made for this session and stores the new passkey. */
export async function verifyRegistration(
  db: Kysely<Database>,
  staff: Staff,
  sessionHash: string,
  response: RegistrationResponseJSON,
  name: string,
): Promise<RegistrationCheck> {
  return storeRegistration(db, staff, sessionHash, await checkRegistrationAnswer(response), name);
}
