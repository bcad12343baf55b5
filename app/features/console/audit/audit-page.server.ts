// The console's Audit room on the server (owners): the log filtered and paged, and its CSV export, itself an entry.
import { data, type RouterContextProvider } from "react-router";
import {
  AUDIT_ACTIONS,
  type AuditAction,
  type AuditFilters,
  auditActors,
  auditCsv,
  listAudit,
  recordAudit,
} from "~/features/audit/audit-log.server";
import { auditInfo, NO_STORE, requireStaff } from "~/features/staff/door.server";
import { getDb, pageDatabaseWork } from "~/platform/db.server";
import { clientAddressContext } from "~/platform/request-context";

type Context = Readonly<RouterContextProvider>;

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
      ...auditInfo(request, context.get(clientAddressContext)),
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
