// The console's Account room on the server: a person's own passkeys, renamed or removed (never the last one). Each
// change is an audit entry written in the change's transaction; a removal is mailed to the person with it (issue 42).
import { data, type RouterContextProvider } from "react-router";
import { auditedChange } from "~/features/audit/audit-log.server";
import { localeOfPath } from "~/features/i18n/locales";
import { wakeMailDelivery } from "~/features/mail/mail.server";
import { auditInfo, NO_STORE, readConsoleForm, requireStaff } from "~/features/staff/door.server";
import { listPasskeys, removePasskey, renamePasskey } from "~/features/staff/passkey-store.server";
import { PASSKEY_NAME_MAX } from "~/features/staff/roles";
import { queueStaffNotice } from "~/features/staff/staff-notices.server";
import { getDb, pageDatabaseWork } from "~/platform/db.server";
import { clientAddressContext } from "~/platform/request-context";

type Context = Readonly<RouterContextProvider>;

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
  const body = await readConsoleForm(request);
  const { db } = getDb();
  const intent = body.get("intent");
  const passkey = body.get("passkey");
  if (typeof passkey !== "string" || passkey.length > 1024) return answer({ kind: "not-found" }, 400);
  const base = {
    actor: session.staff.email,
    sessionBeganWith: session.beganWith,
    ...auditInfo(request, context.get(clientAddressContext)),
  };
  if (intent === "rename") {
    const name = String(body.get("name") ?? "").trim();
    if (name.length === 0 || name.length > PASSKEY_NAME_MAX) return answer({ kind: "bad-name" }, 400);
    const before = await pageDatabaseWork(() =>
      auditedChange(
        db,
        (trx) => renamePasskey(trx, session.staff.id, passkey, name),
        (before) =>
          before === undefined
            ? null
            : { ...base, action: "passkey-renamed", target: name, detail: { before, after: name } },
      ),
    );
    if (before === undefined) return answer({ kind: "not-found" }, 404);
    return answer({ kind: "renamed", name }, 200);
  }
  if (intent === "remove") {
    const removed = await pageDatabaseWork(() =>
      auditedChange(
        db,
        async (trx) => {
          const removed = await removePasskey(trx, session.staff.id, passkey);
          if (removed !== undefined && removed !== "last")
            await queueStaffNotice(trx, {
              to: session.staff.email,
              by: session.staff.email,
              notice: { kind: "passkey-removed", passkey: removed.name },
              locale: localeOfPath(new URL(request.url).pathname),
            });
          return removed;
        },
        (removed) =>
          removed === undefined || removed === "last"
            ? null
            : { ...base, action: "passkey-removed", target: removed.name },
      ),
    );
    if (removed === undefined) return answer({ kind: "not-found" }, 404);
    if (removed === "last") return answer({ kind: "last-passkey" }, 409);
    wakeMailDelivery();
    return answer({ kind: "removed", name: removed.name }, 200);
  }
  return answer({ kind: "not-found" }, 400);
}

function answer(notice: AccountNotice, status: number) {
  return data({ notice }, { status, headers: NO_STORE });
}
