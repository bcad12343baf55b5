// Who is asking, and may they: the console's session cookie, role checks for every loader, action and file, and the
// request details each audit entry carries.
import { data, redirect } from "react-router";
import { isOwnOrigin, readSmallForm } from "~/platform/form-request.server";
import { cookieValue } from "~/platform/form-input";
import { type AnyLocale, localeOfPath, localizedPath } from "~/features/i18n/locales";
import { getDb, pageDatabaseWork } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { createRateLimiter, type RateLimitPolicy } from "~/platform/rate-limit.server";
import type { AuditRequestInfo } from "~/features/audit/audit-log.server";
import { type ConsoleArea, mayEnter, SESSION_MAX_MS, SETUP_PATH, SIGN_IN_PATH } from "./roles";
import { readSession, type StaffSession } from "./sessions.server";

export const NO_STORE = { "Cache-Control": "no-store" };

/** Over https the cookie is `__Host-` prefixed and Secure: bound to this host, never sent in the clear. */
export function isSecureSite(requestUrl: string): boolean {
  return new URL(getEnv().PUBLIC_URL).protocol === "https:" || new URL(requestUrl).protocol === "https:";
}

export function sessionCookieName(requestUrl: string): string {
  return isSecureSite(requestUrl) ? "__Host-kestrel-staff" : "kestrel-staff";
}

export function sessionCookie(requestUrl: string, token: string, maxAgeMs = SESSION_MAX_MS): string {
  const secure = isSecureSite(requestUrl) ? "; Secure" : "";
  return `${sessionCookieName(requestUrl)}=${token}; Path=/; Max-Age=${Math.floor(maxAgeMs / 1000)}; HttpOnly; SameSite=Strict${secure}`;
}

export function clearSessionCookie(requestUrl: string): string {
  return sessionCookie(requestUrl, "", 0);
}

export function sessionTokenOf(requestUrl: string, cookieHeader: string | null | undefined): string | undefined {
  return cookieValue(cookieHeader ?? null, sessionCookieName(requestUrl));
}

/** The session this request's cookie names, if it lives. */
export async function sessionOfRequest(request: Request): Promise<StaffSession | undefined> {
  const token = sessionTokenOf(request.url, request.headers.get("Cookie"));
  if (!token) return undefined;
  return pageDatabaseWork(() => readSession(getDb().db, token));
}

export function consoleLocale(request: Request): AnyLocale {
  return localeOfPath(new URL(request.url).pathname);
}

export function consolePath(request: Request, path: string): string {
  return localizedPath(path, consoleLocale(request));
}

/**
 * A console page's or action's door: the signed-in person when their role may enter `area`. Without a session a page
 * answers 303 to the sign-in page and anything else 401; a setup-link session only reaches the setup page; a role
 * that may not enter gets a 403.
 */
export async function requireStaff(
  request: Request,
  area: ConsoleArea,
  kind: "page" | "file" = "page",
): Promise<StaffSession> {
  const session = await sessionOfRequest(request);
  if (!session) {
    if (kind === "page" && (request.method === "GET" || request.method === "HEAD"))
      throw redirect(consolePath(request, SIGN_IN_PATH), { status: 303, headers: NO_STORE });
    throw data({ error: "Sign in first." }, { status: 401, headers: NO_STORE });
  }
  if (session.beganWith === "setup-link") {
    if (kind === "page" && request.method === "GET")
      throw redirect(consolePath(request, SETUP_PATH), { status: 303, headers: NO_STORE });
    throw data({ error: "Create a passkey first." }, { status: 403, headers: NO_STORE });
  }
  if (!mayEnter(session.staff.role, area)) throw data({ error: "Forbidden" }, { status: 403, headers: NO_STORE });
  return session;
}

/** A console form's own checks: it comes from our pages (403 otherwise). */
export function requireOwnOrigin(request: Request) {
  if (!isOwnOrigin(request))
    throw data({ error: "This form must be sent from the console." }, { status: 403, headers: NO_STORE });
}

/** A console form's body, from our own pages (403 otherwise), read at most `maxBytes` deep (400 otherwise). */
export async function readConsoleForm(request: Request, maxBytes?: number): Promise<FormData> {
  requireOwnOrigin(request);
  const read = await readSmallForm(request, maxBytes);
  if (!read) throw data({ error: "That form could not be read." }, { status: 400, headers: NO_STORE });
  return read;
}

export function auditInfo(request: Request, clientAddress: string): AuditRequestInfo {
  return { clientAddress, userAgent: request.headers.get("User-Agent") };
}

/** Per client address, shared over Redis: far above a person's sign-ins, far below a script's guesses. */
export const STAFF_SIGN_IN_LIMIT: RateLimitPolicy = {
  name: "staffSignIn",
  points: 30,
  durationSeconds: 60,
  error: "Too many sign-in attempts. Please wait a minute.",
};
export const STAFF_SETUP_LIMIT: RateLimitPolicy = {
  name: "staffSetup",
  points: 10,
  durationSeconds: 60,
  error: "Too many setup attempts. Please wait a minute.",
};

export const staffSetupLimiter = createRateLimiter(STAFF_SETUP_LIMIT);
