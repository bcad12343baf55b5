// The console's door on the server: the sign-in and setup pages, and signing out. A setup link is spent once and
// becomes a setup-link session; each step is an audit entry written before the answer.
import { data, redirect, type RouterContextProvider } from "react-router";
import { auditedChange, recordRefusal } from "~/features/audit/audit-log.server";
import {
  auditInfo,
  clearSessionCookie,
  consolePath,
  NO_STORE,
  requireOwnOrigin,
  sessionCookie,
  sessionOfRequest,
  staffSetupLimiter,
} from "~/features/staff/door.server";
import { relyingPartyIsAddress } from "~/features/staff/passkey-ceremonies.server";
import { countStaff, spendSetupLink } from "~/features/staff/people.server";
import { CONSOLE_PATH, SETUP_PATH, SETUP_SESSION_TTL_MS, SIGN_IN_PATH } from "~/features/staff/roles";
import { createSession, endAllSessions, endSession } from "~/features/staff/sessions.server";
import { getDb, pageDatabaseWork } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { readSmallForm } from "~/platform/form-request.server";
import { clientAddressContext } from "~/platform/request-context";

type Context = Readonly<RouterContextProvider>;

export async function loadSignInPage(request: Request) {
  const session = await sessionOfRequest(request);
  if (session?.beganWith === "passkey")
    throw redirect(consolePath(request, CONSOLE_PATH), { status: 303, headers: NO_STORE });
  const { db } = getDb();
  const noStaffYet = (await pageDatabaseWork(() => countStaff(db))) === 0;
  const host = new URL(getEnv().PUBLIC_URL).host;
  return data({ noStaffYet, addressHost: relyingPartyIsAddress() ? host : null }, { headers: NO_STORE });
}

/**
 * `?token=`: spends the setup link once (rate limited per client address), opens a setup-link session and answers a
 * redirect to the same page without the token. Without one, the page for the session's person, or why there is none.
 */
export async function loadSetupPage(request: Request, context: Context) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token");
  const { db } = getDb();
  const info = auditInfo(request, context.get(clientAddressContext));
  if (token !== null) {
    const limited = await staffSetupLimiter.consume(info.clientAddress ?? "unknown");
    if (!limited.ok)
      throw data(
        { error: "Too many setup attempts." },
        { status: 429, headers: { ...NO_STORE, "Retry-After": String(limited.retryAfterSeconds) } },
      );
    // The link is spent, its session made and its use recorded in one transaction: all three, or none.
    const { spent, session } = /^[A-Za-z0-9_-]{43}$/.test(token)
      ? await pageDatabaseWork(() =>
          auditedChange(
            db,
            async (trx) => {
              const spent = await spendSetupLink(trx, token);
              if ("refused" in spent) return { spent, session: null };
              return { spent, session: await createSession(trx, { staffId: spent.staff.id, beganWith: "setup-link" }) };
            },
            ({ spent }) =>
              !("refused" in spent) && {
                actor: spent.staff.email,
                action: "setup-link-used",
                sessionBeganWith: "setup-link",
                ...info,
              },
          ),
        )
      : { spent: { refused: "unknown" as const }, session: null };
    if ("refused" in spent || session === null) {
      const why = "refused" in spent ? spent.refused : "unknown";
      await recordRefusal(db, {
        actor: "anonymous",
        action: "setup-link-refused",
        detail: { why },
        ...info,
      });
      throw redirect(`${consolePath(request, SETUP_PATH)}?link=${why}`, { status: 303, headers: NO_STORE });
    }
    const headers = new Headers(NO_STORE);
    headers.append("Set-Cookie", sessionCookie(request.url, session, SETUP_SESSION_TTL_MS));
    throw redirect(consolePath(request, SETUP_PATH), { status: 303, headers });
  }
  const refused = url.searchParams.get("link");
  const session = await sessionOfRequest(request);
  return data(
    {
      person: session ? { email: session.staff.email, existing: session.beganWith === "passkey" } : null,
      refused:
        refused === "used" || refused === "expired" || refused === "unknown"
          ? (refused as "used" | "expired" | "unknown")
          : null,
      addressHost: relyingPartyIsAddress() ? new URL(getEnv().PUBLIC_URL).host : null,
    },
    { headers: NO_STORE },
  );
}

export async function signOut(request: Request, context: Context) {
  requireOwnOrigin(request);
  const session = await sessionOfRequest(request);
  const body = await readSmallForm(request);
  const headers = new Headers(NO_STORE);
  headers.append("Set-Cookie", clearSessionCookie(request.url));
  if (session) {
    const { db } = getDb();
    const everywhere = body?.get("intent") === "sign-out-everywhere";
    await pageDatabaseWork(() =>
      auditedChange(
        db,
        async (trx) => {
          if (everywhere) await endAllSessions(trx, session.staff.id);
          else await endSession(trx, session.idHash);
        },
        () => ({
          actor: session.staff.email,
          action: everywhere ? "sign-out-everywhere" : "sign-out",
          sessionBeganWith: session.beganWith,
          ...auditInfo(request, context.get(clientAddressContext)),
        }),
      ),
    );
  }
  return redirect(`${consolePath(request, SIGN_IN_PATH)}?signed-out=1`, { status: 303, headers });
}
