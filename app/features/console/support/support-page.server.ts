// The inbox's list on the server: who may look (owner, admin, support), the list asked for and the waiting counts.
import { data } from "react-router";
import { NO_STORE, requireStaff } from "~/features/staff/door.server";
import { getDb, pageDatabaseWork } from "~/platform/db.server";
import { inboxFilterOf, listInbox, waitingCounts } from "./support.server";

export async function loadInboxPage(request: Request) {
  const session = await requireStaff(request, "support");
  const url = new URL(request.url);
  const filter = inboxFilterOf(url, session.staff.id);
  const page = Math.min(Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1), 100_000);
  const { db } = getDb();
  const [listing, waiting] = await pageDatabaseWork(() =>
    Promise.all([listInbox(db, filter, page), waitingCounts(db, session.staff.id)]),
  );
  return data(
    {
      filter: { state: filter.state, scope: filter.scope, query: filter.query ?? "" },
      listing,
      waiting,
      now: new Date().toISOString(),
    },
    { headers: NO_STORE },
  );
}
