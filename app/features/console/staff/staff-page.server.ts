// The console's Staff room on the server (owners): invite, change a role, remove, end someone's sessions. Each change
// is an audit entry written in the change's transaction; the shop always keeps one owner.
import { data, type RouterContextProvider } from "react-router";
import { auditedChange } from "~/features/audit/audit-log.server";
import type { Transaction } from "kysely";
import { localeOfPath } from "~/features/i18n/locales";
import { wakeMailDelivery } from "~/features/mail/mail.server";
import { auditInfo, NO_STORE, readConsoleForm, requireStaff } from "~/features/staff/door.server";
import {
  changeRole,
  findStaffByEmail,
  type Invitation,
  inviteStaff,
  LastOwnerError,
  listStaff,
  removeStaff,
} from "~/features/staff/people.server";
import { isStaffRole, SETUP_PATH } from "~/features/staff/roles";
import { queueStaffNotice } from "~/features/staff/staff-notices.server";
import { endAllSessions } from "~/features/staff/sessions.server";
import { getDb, pageDatabaseWork } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { emailSchema } from "~/platform/form-input";
import { clientAddressContext } from "~/platform/request-context";
import type { Database } from "../../../../db/schema";

type Context = Readonly<RouterContextProvider>;

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
  const body = await readConsoleForm(request);
  const { db } = getDb();
  const intent = body.get("intent");
  const email = emailSchema.safeParse(String(body.get("email") ?? ""));
  if (!email.success) return answer({ kind: "bad-email" }, 400);
  const base = {
    actor: session.staff.email,
    sessionBeganWith: session.beganWith,
    ...auditInfo(request, context.get(clientAddressContext)),
  };
  try {
    if (intent === "invite") {
      const role = body.get("role");
      if (!isStaffRole(role)) return answer({ kind: "bad-role" }, 400);
      // Someone who already has an account hears that a link able to add a passkey to it exists (issue 42).
      const withInvitation = async (trx: Transaction<Database>, invited: Invitation) => {
        if (!invited.existed) return;
        await queueStaffNotice(trx, {
          to: invited.staff.email,
          by: session.staff.email,
          notice: { kind: "invited-again" },
          locale: localeOfPath(new URL(request.url).pathname),
        });
      };
      const invited = await pageDatabaseWork(() =>
        inviteStaff(db, { email: email.data, role, by: session.staff.email, withInvitation }, (invited) => ({
          ...base,
          action: "staff-invited",
          target: invited.staff.email,
          detail: { role: invited.staff.role, existing: invited.existed },
        })),
      );
      if (invited.existed) wakeMailDelivery();
      const link = new URL(`${SETUP_PATH}?token=${invited.token}`, getEnv().PUBLIC_URL).toString();
      return answer({ kind: "invited", email: invited.staff.email, link, existing: invited.existed }, 200);
    }
    if (intent === "role") {
      const role = body.get("role");
      if (!isStaffRole(role)) return answer({ kind: "bad-role" }, 400);
      const changed = await pageDatabaseWork(() =>
        auditedChange(
          db,
          (trx) => changeRole(trx, email.data, role),
          (changed) =>
            changed && {
              ...base,
              action: "staff-role-changed",
              target: changed.staff.email,
              detail: { before: changed.before, after: role },
            },
        ),
      );
      if (!changed) return answer({ kind: "not-found" }, 404);
      return answer({ kind: "role-changed", email: changed.staff.email }, 200);
    }
    if (intent === "remove") {
      const removed = await pageDatabaseWork(() =>
        auditedChange(
          db,
          (trx) => removeStaff(trx, email.data),
          (removed) =>
            removed && { ...base, action: "staff-removed", target: removed.email, detail: { role: removed.role } },
        ),
      );
      if (!removed) return answer({ kind: "not-found" }, 404);
      return answer({ kind: "removed", email: removed.email }, 200);
    }
    if (intent === "revoke") {
      const revoked = await pageDatabaseWork(() =>
        auditedChange(
          db,
          async (trx) => {
            const staff = await findStaffByEmail(trx, email.data);
            return staff && { staff, ended: await endAllSessions(trx, staff.id) };
          },
          (revoked) =>
            revoked && {
              ...base,
              action: "sessions-revoked",
              target: revoked.staff.email,
              detail: { ended: revoked.ended },
            },
        ),
      );
      if (!revoked) return answer({ kind: "not-found" }, 404);
      return answer({ kind: "sessions-revoked", email: revoked.staff.email, ended: revoked.ended }, 200);
    }
  } catch (error) {
    if (error instanceof LastOwnerError) return answer({ kind: "last-owner" }, 409);
    throw error;
  }
  return answer({ kind: "not-found" }, 400);
}

function answer(notice: StaffNotice, status: number) {
  return data({ notice }, { status, headers: NO_STORE });
}
