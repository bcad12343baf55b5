// The inbox's list on the server: who may look (owner, admin, support), the list asked for and the waiting counts.
// A text search is limited per person (issue 42): far above what a person types and the live refresh reads, far below
// a loop's; past it the list says so instead of searching (429).
import { data } from "react-router";
import { NO_STORE, requireStaff } from "~/features/staff/door.server";
import { getDb, pageDatabaseWork } from "~/platform/db.server";
import { createRateLimiter, type RateLimiter } from "~/platform/rate-limit.server";
import { sharedInboxRead } from "./inbox-reads.server";
import { type InboxListing, inboxFilterOf, listInbox, waitingCounts } from "./support.server";

/** Searches one person may run a minute, shared by every instance through Redis like the other limits (ADR 010). */
export const INBOX_SEARCHES_PER_MINUTE = 60;
let searchLimiter: RateLimiter | undefined;
function searchesPerPerson(): RateLimiter {
  searchLimiter ??= createRateLimiter({
    name: "inbox-search",
    points: INBOX_SEARCHES_PER_MINUTE,
    durationSeconds: 60,
    error: "Too many searches. Please wait a minute.",
  });
  return searchLimiter;
}

export async function loadInboxPage(request: Request) {
  const session = await requireStaff(request, "support");
  const url = new URL(request.url);
  const filter = inboxFilterOf(url, session.staff.id);
  const page = Math.min(Math.max(1, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1), 100_000);
  const { db } = getDb();
  const searching = (filter.query ?? "").trim() !== "";
  const allowed = searching ? await searchesPerPerson().consume(session.staff.id) : ({ ok: true } as const);
  const refused: InboxListing = { rows: [], total: 0, page: 1, pages: 1 };
  const [listing, waiting] = await pageDatabaseWork(() =>
    Promise.all([
      allowed.ok ? sharedInboxRead(filter, page, () => listInbox(db, filter, page)) : Promise.resolve(refused),
      waitingCounts(db, session.staff.id),
    ]),
  );
  return data(
    {
      filter: { state: filter.state, scope: filter.scope, query: filter.query ?? "" },
      listing,
      waiting,
      searchRefused: allowed.ok ? null : { retryAfterSeconds: allowed.retryAfterSeconds },
      now: new Date().toISOString(),
    },
    allowed.ok
      ? { headers: NO_STORE }
      : { status: 429, headers: { ...NO_STORE, "Retry-After": String(allowed.retryAfterSeconds) } },
  );
}
