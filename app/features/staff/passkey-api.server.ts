// The passkey ceremonies' JSON endpoints under /api/admin/passkeys: rate limited per client address, own origin only,
// every sign-in (refused too) and every passkey added written to the audit log before the answer, a sign-in's session
// and a new passkey in one transaction with their entries (nothing is changed when the log cannot be written).
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import express, { type Request as ExpressRequest, type Response as ExpressResponse } from "express";
import { z } from "zod";
import { localeOfPath, localizedPath } from "~/features/i18n/locales";
import { wakeMailDelivery } from "~/features/mail/mail.server";
import { getDb } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { jsonBody } from "~/platform/json-body.server";
import { rateLimit } from "~/platform/rate-limit.server";
import { AuditWriteError, auditedChange, recordRefusal } from "~/features/audit/audit-log.server";
import { STAFF_SETUP_LIMIT, STAFF_SIGN_IN_LIMIT, sessionCookie, sessionTokenOf } from "./door.server";
import {
  confirmationOptions,
  registrationOptions,
  relyingPartyIsAddress,
  signInOptions,
  checkRegistrationAnswer,
  storeRegistration,
  verifyConfirmation,
  verifySignIn,
} from "./passkey-ceremonies.server";
import { CONSOLE_PATH, PASSKEY_NAME_MAX } from "./roles";
import { createSession, endSession, readSession } from "./sessions.server";
import { queueStaffNotice } from "./staff-notices.server";

const credentialShape = z.object({
  id: z.string().min(1).max(1024),
  rawId: z.string().min(1).max(1024),
  type: z.literal("public-key"),
  response: z.object({ clientDataJSON: z.string().max(4096) }).loose(),
  clientExtensionResults: z.record(z.string(), z.unknown()).optional().default({}),
  authenticatorAttachment: z.string().max(40).optional(),
});
const signInBody = z.object({ credential: credentialShape, locale: z.string().max(10).optional() });
const confirmBody = z.object({ credential: credentialShape });
const registerBody = z.object({
  credential: credentialShape,
  name: z.string().trim().max(PASSKEY_NAME_MAX).optional(),
  locale: z.string().max(10).optional(),
});

function requestUrl(req: ExpressRequest): string {
  return `${req.protocol}://${req.get("host") ?? "localhost"}${req.originalUrl}`;
}

function ownOrigin(req: ExpressRequest): boolean {
  const allowed = new Set([new URL(requestUrl(req)).origin, new URL(getEnv().PUBLIC_URL).origin]);
  const origin = req.get("origin");
  return origin !== undefined && allowed.has(origin);
}

function who(req: ExpressRequest) {
  return { clientAddress: req.ip ?? null, userAgent: req.get("user-agent") ?? null };
}

/** The console page to land on, in the language the ceremony began in. */
function landing(locale: string | undefined): string {
  return localizedPath(CONSOLE_PATH, localeOfPath(`/${locale ?? ""}`));
}

/** What the ceremonies answer when the audit log cannot be written: the change was undone. */
function auditFailed(res: ExpressResponse, error: unknown): boolean {
  if (!(error instanceof AuditWriteError)) return false;
  res.status(503).json({ error: error.message });
  return true;
}

export function createConsoleApi() {
  const router = express.Router();
  router.use("/admin", (req, res, next) => {
    if (req.method !== "POST") {
      res.status(405).set("Allow", "POST").json({ error: "Method not allowed" });
      return;
    }
    if (!ownOrigin(req)) {
      res.status(403).json({ error: "This request must come from the console." });
      return;
    }
    if (relyingPartyIsAddress()) {
      res.status(409).json({ error: "Passkeys need a host name: PUBLIC_URL names an IP address." });
      return;
    }
    next();
  });

  const signIn = rateLimit(STAFF_SIGN_IN_LIMIT);
  router.post("/admin/passkeys/sign-in/options", signIn, async (_req, res) => {
    res.json({ options: await signInOptions(getDb().db) });
  });

  router.post("/admin/passkeys/sign-in", signIn, jsonBody);
  router.post("/admin/passkeys/sign-in", async (req, res) => {
    const { db } = getDb();
    const body = signInBody.safeParse(req.body);
    if (!body.success) {
      await recordRefusal(db, {
        actor: "anonymous",
        action: "sign-in-refused",
        detail: { why: "malformed answer" },
        ...who(req),
      });
      res.status(400).json({ error: "That passkey answer could not be read." });
      return;
    }
    const check = await verifySignIn(db, body.data.credential as unknown as AuthenticationResponseJSON);
    if (!check.ok) {
      const why = {
        challenge: "challenge expired or used",
        "unknown-passkey": "unknown passkey",
        "not-verified": "signature or user verification failed",
      }[check.reason];
      await recordRefusal(db, {
        actor: check.staffEmail ?? "anonymous",
        action: "sign-in-refused",
        detail: { why, credential: body.data.credential.id.slice(0, 64) },
        ...who(req),
      });
      res.status(401).json({
        error:
          check.reason === "challenge"
            ? "The sign-in took too long. Please try again."
            : "This passkey is not registered here.",
      });
      return;
    }
    let token: string;
    try {
      token = await auditedChange(
        db,
        (trx) => createSession(trx, { staffId: check.staff.id, beganWith: "passkey" }),
        () => ({
          actor: check.staff.email,
          action: "sign-in",
          detail: { passkey: check.passkeyId.slice(0, 64) },
          sessionBeganWith: "passkey",
          ...who(req),
        }),
      );
    } catch (error) {
      if (auditFailed(res, error)) return;
      throw error;
    }
    res.append("Set-Cookie", sessionCookie(requestUrl(req), token));
    res.json({ redirect: landing(body.data.locale) });
  });

  const setup = rateLimit(STAFF_SETUP_LIMIT);
  /** The signed-in person, or a setup-link session: either may add a passkey to their own account. */
  async function sessionOf(req: ExpressRequest, res: ExpressResponse) {
    const token = sessionTokenOf(requestUrl(req), req.get("cookie"));
    const session = token ? await readSession(getDb().db, token) : undefined;
    if (!session) res.status(401).json({ error: "Sign in first." });
    return session;
  }

  // A setup link's session exists to make a passkey; any other session proves itself first with one of the account's
  // passkeys (issue 42): a stolen cookie alone never becomes a credential that outlives Sign out everywhere.
  router.post("/admin/passkeys/register/options", setup, async (req, res) => {
    const session = await sessionOf(req, res);
    if (!session) return;
    if (session.beganWith !== "setup-link") {
      res.status(403).json({ error: "Confirm with one of your passkeys first." });
      return;
    }
    res.json({ options: await registrationOptions(getDb().db, session.staff, session.idHash) });
  });

  router.post("/admin/passkeys/confirm/options", setup, async (req, res) => {
    const session = await sessionOf(req, res);
    if (!session) return;
    res.json({ options: await confirmationOptions(getDb().db, session.staff, session.idHash) });
  });

  /** The fresh proof answered: the registration options it earns, bound to this session and spent once. */
  router.post("/admin/passkeys/confirm", setup, jsonBody);
  router.post("/admin/passkeys/confirm", async (req, res) => {
    const { db } = getDb();
    const session = await sessionOf(req, res);
    if (!session) return;
    const body = confirmBody.safeParse(req.body);
    if (!body.success) {
      res.status(400).json({ error: "That passkey answer could not be read." });
      return;
    }
    const check = await verifyConfirmation(
      db,
      session.staff,
      session.idHash,
      body.data.credential as unknown as AuthenticationResponseJSON,
    );
    if (!check.ok) {
      res.status(401).json({
        error:
          check.reason === "challenge"
            ? "The passkey took too long. Please try again."
            : "Confirm with one of the passkeys of this account.",
      });
      return;
    }
    res.json({ options: await registrationOptions(db, session.staff, session.idHash) });
  });

  router.post("/admin/passkeys/register", setup, jsonBody);
  router.post("/admin/passkeys/register", async (req, res) => {
    const { db } = getDb();
    const session = await sessionOf(req, res);
    if (!session) return;
    const body = registerBody.safeParse(req.body);
    if (!body.success) {
      res.status(400).json({ error: "That passkey answer could not be read." });
      return;
    }
    const name = body.data.name || defaultPasskeyName(req.get("user-agent"));
    const fromSetupLink = session.beganWith === "setup-link";
    // The WebAuthn crypto first, outside the transaction; only the writes run inside it.
    const answer = await checkRegistrationAnswer(body.data.credential as unknown as RegistrationResponseJSON);
    let registered: { check: Awaited<ReturnType<typeof storeRegistration>>; token?: string };
    try {
      registered = await auditedChange(
        db,
        async (trx) => {
          const check = await storeRegistration(trx, session.staff, session.idHash, answer, name);
          if (!check.ok) return { check };
          // The person hears of every passkey added to their account, with the change or not at all (issue 42).
          await queueStaffNotice(trx, {
            to: session.staff.email,
            by: session.staff.email,
            notice: { kind: "passkey-added", passkey: name, via: fromSetupLink ? "setup-link" : "session" },
            locale: localeOfPath(`/${body.data.locale ?? ""}`),
          });
          if (!fromSetupLink) return { check };
          // The setup link did its one job: the person is now signed in with the passkey they made.
          await endSession(trx, session.idHash);
          return { check, token: await createSession(trx, { staffId: session.staff.id, beganWith: "passkey" }) };
        },
        ({ check }) => {
          if (!check.ok) return null;
          const added = {
            actor: session.staff.email,
            action: "passkey-added",
            target: name,
            detail: { passkey: check.passkeyId.slice(0, 64) },
            sessionBeganWith: session.beganWith,
            ...who(req),
          } as const;
          if (!fromSetupLink) return added;
          return [
            added,
            {
              actor: session.staff.email,
              action: "sign-in",
              detail: { passkey: check.passkeyId.slice(0, 64), via: "new passkey" },
              sessionBeganWith: "passkey",
              ...who(req),
            },
          ];
        },
      );
    } catch (error) {
      if (auditFailed(res, error)) return;
      throw error;
    }
    const { check, token } = registered;
    if (check.ok) wakeMailDelivery();
    if (!check.ok) {
      res.status(400).json({
        error:
          check.reason === "challenge"
            ? "The passkey took too long. Please try again."
            : "The passkey could not be verified.",
      });
      return;
    }
    if (token) res.append("Set-Cookie", sessionCookie(requestUrl(req), token));
    res.json({ redirect: session.beganWith === "setup-link" ? landing(body.data.locale) : null, name });
  });
  return router;
}

/** "Chrome on Linux": a name the person recognises until they choose their own. */
export function defaultPasskeyName(userAgent: string | undefined): string {
  const ua = userAgent ?? "";
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /Firefox\//.test(ua)
      ? "Firefox"
      : /Chrome\//.test(ua)
        ? "Chrome"
        : /Safari\//.test(ua)
          ? "Safari"
          : "Passkey";
  const system = /Windows/.test(ua)
    ? "Windows"
    : /Android/.test(ua)
      ? "Android"
      : /iPhone|iPad/.test(ua)
        ? "iOS"
        : /Mac OS X/.test(ua)
          ? "macOS"
          : /Linux/.test(ua)
            ? "Linux"
            : "";
  return system ? `${browser} on ${system}` : browser;
}
