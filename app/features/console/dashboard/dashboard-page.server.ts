// The console's Dashboard on the server: the period's figures, and once per session a reminder to add a second passkey.
import { data } from "react-router";
import { NO_STORE, requireStaff } from "~/features/staff/door.server";
import { listPasskeys } from "~/features/staff/passkey-store.server";
import { takeReminder } from "~/features/staff/sessions.server";
import { getDb, pageDatabaseWork } from "~/platform/db.server";
import { isDashboardPeriod, readDashboard } from "./dashboard.server";

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
