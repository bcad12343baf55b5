// The console's doors and rooms on the server: sign-in and setup pages, own passkeys, sign out, staff, audit log and
// dashboard. Each loader and action asks requireStaff first; each change is an audit entry written before the answer.
import { data, redirect, type RouterContextProvider } from "react-router";
import { readSmallForm } from "~/platform/form-request.server";
import { emailSchema } from "~/platform/form-input";
import { getDb, pageDatabaseWork } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { clientAddressContext } from "~/platform/request-context";
import {
  AUDIT_ACTIONS,
  type AuditAction,
  type AuditFilters,
  auditActors,
  auditCsv,
  listAudit,
  recordAudit,
} from "~/features/audit/audit-log.server";
import {
  auditInfo,
  clearSessionCookie,
  consolePath,
  NO_STORE,
  readConsoleForm,
  requireOwnOrigin,
  requireStaff,
  sessionCookie,
  sessionOfRequest,
  staffSetupLimiter,
} from "~/features/staff/door.server";
import { isDashboardPeriod, readDashboard } from "../dashboard/dashboard.server";
import { relyingPartyIsAddress } from "~/features/staff/passkey-ceremonies.server";
import {
  CONSOLE_PATH,
  isStaffRole,
  PASSKEY_NAME_MAX,
  SETUP_PATH,
  SETUP_SESSION_TTL_MS,
  SIGN_IN_PATH,
} from "~/features/staff/roles";
import {
  changeRole,
  countStaff,
  createSession,
  endAllSessions,
  endSession,
  findStaffByEmail,
  inviteStaff,
  LastOwnerError,
  listPasskeys,
  listStaff,
  removePasskey,
  removeStaff,
  renamePasskey,
  spendSetupLink,
  takeReminder,
} from "~/features/staff/people.server";

type Context = Readonly<RouterContextProvider>;

function who(request: Request, context: Context) {
  return auditInfo(request, context.get(clientAddressContext));
}

function form(request: Request): Promise<FormData> {
  return readConsoleForm(request);
}

// Sign-in and setup

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
  const info = who(request, context);
  if (token !== null) {
    const limited = await staffSetupLimiter.consume(info.clientAddress ?? "unknown");
    if (!limited.ok)
      throw data(
        { error: "Too many setup attempts." },
        { status: 429, headers: { ...NO_STORE, "Retry-After": String(limited.retryAfterSeconds) } },
      );
    const spent = /^[A-Za-z0-9_-]{43}$/.test(token)
      ? await pageDatabaseWork(() => spendSetupLink(db, token))
      : { refused: "unknown" as const };
    if ("refused" in spent) {
      await recordAudit(db, {
        actor: "anonymous",
        action: "setup-link-refused",
        detail: { why: spent.refused },
        ...info,
      });
      throw redirect(
        `${consolePath(request, SETUP_PATH)}?link=${spent.refused === "unknown" ? "unknown" : spent.refused}`,
        { status: 303, headers: NO_STORE },
      );
    }
    const session = await createSession(db, { staffId: spent.staff.id, beganWith: "setup-link" });
    await recordAudit(db, {
      actor: spent.staff.email,
      action: "setup-link-used",
      sessionBeganWith: "setup-link",
      ...info,
    });
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

// Own account

export async function loadAccount(request: Request) {
  const session = await requireStaff(request, "account");
  const passkeys = await pageDatabaseWork(() => listPasskeys(getDb().db, session.staff.id));
  return data({ email: session.staff.email, role: session.staff.role, passkeys }, { headers: NO_STORE });
}

export type AccountNotice =
  | { kind: "renamed"; name: string }
  | { kind: "removed"; name: string }
  | { kind: "last-passkey" }
  | { kind: "bad-name" }
  | { kind: "not-found" };

export async function accountAction(request: Request, context: Context) {
  const session = await requireStaff(request, "account");
  const body = await form(request);
  const { db } = getDb();
  const intent = body.get("intent");
  const passkey = body.get("passkey");
  if (typeof passkey !== "string" || passkey.length > 1024) return answer<AccountNotice>({ kind: "not-found" }, 400);
  const base = { actor: session.staff.email, sessionBeganWith: session.beganWith, ...who(request, context) };
  if (intent === "rename") {
    const name = String(body.get("name") ?? "").trim();
    if (name.length === 0 || name.length > PASSKEY_NAME_MAX) return answer<AccountNotice>({ kind: "bad-name" }, 400);
    const before = await pageDatabaseWork(() => renamePasskey(db, session.staff.id, passkey, name));
    if (before === undefined) return answer<AccountNotice>({ kind: "not-found" }, 404);
    await recordAudit(db, { ...base, action: "passkey-renamed", target: name, detail: { before, after: name } });
    return answer<AccountNotice>({ kind: "renamed", name }, 200);
  }
  if (intent === "remove") {
    const removed = await pageDatabaseWork(() => removePasskey(db, session.staff.id, passkey));
    if (removed === undefined) return answer<AccountNotice>({ kind: "not-found" }, 404);
    if (removed === "last") return answer<AccountNotice>({ kind: "last-passkey" }, 409);
    await recordAudit(db, { ...base, action: "passkey-removed", target: removed.name });
    return answer<AccountNotice>({ kind: "removed", name: removed.name }, 200);
  }
  return answer<AccountNotice>({ kind: "not-found" }, 400);
}

function answer<N>(notice: N, status: number) {
  return data({ notice }, { status, headers: NO_STORE });
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
    if (everywhere) await endAllSessions(db, session.staff.id);
    else await endSession(db, session.idHash);
    await recordAudit(db, {
      actor: session.staff.email,
      action: everywhere ? "sign-out-everywhere" : "sign-out",
      sessionBeganWith: session.beganWith,
      ...who(request, context),
    });
  }
  return redirect(`${consolePath(request, SIGN_IN_PATH)}?signed-out=1`, { status: 303, headers });
}

// Staff (owners)

export async function loadStaffPage(request: Request) {
  const session = await requireStaff(request, "staff");
  const staff = await pageDatabaseWork(() => listStaff(getDb().db));
  return data(
    {
      me: session.staff.email,
      staff: staff.map((s) => ({
        email: s.email,
        role: s.role,
        passkeys: s.passkeys,
        createdAt: s.created_at,
        lastUsedAt: s.lastUsedAt,
      })),
    },
    { headers: NO_STORE },
  );
}

export type StaffNotice =
  | { kind: "invited"; email: string; link: string; existing: boolean }
  | { kind: "role-changed"; email: string }
  | { kind: "removed"; email: string }
  | { kind: "sessions-revoked"; email: string; ended: number }
  | { kind: "last-owner" }
  | { kind: "bad-email" }
  | { kind: "bad-role" }
  | { kind: "not-found" };

export async function staffAction(request: Request, context: Context) {
  const session = await requireStaff(request, "staff");
  const body = await form(request);
  const { db } = getDb();
  const intent = body.get("intent");
  const email = emailSchema.safeParse(String(body.get("email") ?? ""));
  if (!email.success) return answer<StaffNotice>({ kind: "bad-email" }, 400);
  const base = { actor: session.staff.email, sessionBeganWith: session.beganWith, ...who(request, context) };
  try {
    if (intent === "invite") {
      const role = body.get("role");
      if (!isStaffRole(role)) return answer<StaffNotice>({ kind: "bad-role" }, 400);
      const invited = await pageDatabaseWork(() =>
        inviteStaff(db, { email: email.data, role, by: session.staff.email }),
      );
      await recordAudit(db, {
        ...base,
        action: "staff-invited",
        target: invited.staff.email,
        detail: { role: invited.staff.role, existing: invited.existed },
      });
      const link = new URL(`${SETUP_PATH}?token=${invited.token}`, getEnv().PUBLIC_URL).toString();
      return answer<StaffNotice>({ kind: "invited", email: invited.staff.email, link, existing: invited.existed }, 200);
    }
    if (intent === "role") {
      const role = body.get("role");
      if (!isStaffRole(role)) return answer<StaffNotice>({ kind: "bad-role" }, 400);
      const changed = await pageDatabaseWork(() => changeRole(db, email.data, role));
      if (!changed) return answer<StaffNotice>({ kind: "not-found" }, 404);
      await recordAudit(db, {
        ...base,
        action: "staff-role-changed",
        target: changed.staff.email,
        detail: { before: changed.before, after: role },
      });
      return answer<StaffNotice>({ kind: "role-changed", email: changed.staff.email }, 200);
    }
    if (intent === "remove") {
      const removed = await pageDatabaseWork(() => removeStaff(db, email.data));
      if (!removed) return answer<StaffNotice>({ kind: "not-found" }, 404);
      await recordAudit(db, {
        ...base,
        action: "staff-removed",
        target: removed.email,
        detail: { role: removed.role },
      });
      return answer<StaffNotice>({ kind: "removed", email: removed.email }, 200);
    }
    if (intent === "revoke") {
      const staff = await pageDatabaseWork(() => findStaffByEmail(db, email.data));
      if (!staff) return answer<StaffNotice>({ kind: "not-found" }, 404);
      const ended = await endAllSessions(db, staff.id);
      await recordAudit(db, { ...base, action: "sessions-revoked", target: staff.email, detail: { ended } });
      return answer<StaffNotice>({ kind: "sessions-revoked", email: staff.email, ended }, 200);
    }
  } catch (error) {
    if (error instanceof LastOwnerError) return answer<StaffNotice>({ kind: "last-owner" }, 409);
    throw error;
  }
  return answer<StaffNotice>({ kind: "not-found" }, 400);
}

// Audit log (owners)

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function auditFiltersOf(url: URL): AuditFilters {
  const actor = url.searchParams.get("actor")?.trim();
  const action = url.searchParams.get("action");
  const from = url.searchParams.get("from");
  const to = url.searchParams.get("to");
  return {
    actor: actor && actor.length <= 320 ? actor.toLowerCase() : undefined,
    action: (AUDIT_ACTIONS as readonly string[]).includes(action ?? "") ? (action as AuditAction) : undefined,
    from: from && DAY.test(from) ? from : undefined,
    to: to && DAY.test(to) ? to : undefined,
  };
}

export async function loadAuditPage(request: Request) {
  await requireStaff(request, "audit");
  const url = new URL(request.url);
  const filters = auditFiltersOf(url);
  const page = Math.min(Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1), 10_000);
  const { db } = getDb();
  const [{ entries, hasMore }, actors] = await pageDatabaseWork(() =>
    Promise.all([listAudit(db, filters, page), auditActors(db)]),
  );
  return data({ filters, page, entries, hasMore, actors, actions: AUDIT_ACTIONS }, { headers: NO_STORE });
}

/** The CSV of what the filters show, streamed; the export itself is an audit entry. */
export async function exportAuditCsv(request: Request, context: Context) {
  const session = await requireStaff(request, "audit", "file");
  const filters = auditFiltersOf(new URL(request.url));
  const { db } = getDb();
  await pageDatabaseWork(() =>
    recordAudit(db, {
      actor: session.staff.email,
      action: "audit-exported",
      detail: { ...filters },
      sessionBeganWith: session.beganWith,
      ...who(request, context),
    }),
  );
  const lines = auditCsv(db, filters);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await lines.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="audit-log-${new Date().toISOString().slice(0, 10)}.csv"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

// Dashboard

export async function loadDashboard(request: Request) {
  const session = await requireStaff(request, "dashboard");
  const asked = new URL(request.url).searchParams.get("period");
  const period = isDashboardPeriod(asked) ? asked : "7d";
  const { db } = getDb();
  const [dashboard, passkeys] = await pageDatabaseWork(() =>
    Promise.all([readDashboard(db, period), listPasskeys(db, session.staff.id)]),
  );
  // Until a person has two passkeys, the dashboard reminds them once per session.
  const remind = passkeys.length < 2 && (await pageDatabaseWork(() => takeReminder(db, session.idHash)));
  return data({ dashboard, remind }, { headers: NO_STORE });
}
