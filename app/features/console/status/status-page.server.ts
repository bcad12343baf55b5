// Status and incidents in the console (issue 35): what `status` and `incidents` of the CLI do, as forms. Each change is
// written with its audit entry (before and after) in one transaction, then, once committed, announced to every
// instance's caches (status-news.server.ts) and told to the support channel through the outbox, as the probes'
// transitions are.
import type { Kysely } from "kysely";
import { data, type RouterContextProvider } from "react-router";
import {
  INCIDENT_STATUSES,
  type Incident,
  type IncidentStatus,
  incidentPath,
  KNOWN_STATUSES,
  type KnownStatus,
} from "~/features/status/status";
import {
  addIncident,
  listIncidents,
  listStatusRows,
  MAX_INCIDENT_BODY,
  MAX_INCIDENT_TITLE,
  StatusAdminError,
  setProductStatus,
  updateIncident,
} from "~/features/status/status-admin.server";
import { renderIncidentMarkdown } from "~/features/status/incident-markdown.server";
import { announceStatusChange } from "~/features/status/status-news.server";
import { loadIncident } from "~/features/status/status.server";
import { queueStatusAlert } from "~/features/support-relay/support-relay.server";
import { getDb, pageDatabaseWork } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { logger } from "~/platform/logger.server";
import { clientAddressContext } from "~/platform/request-context";
import type { Database } from "../../../../db/schema";
import { type AuditAction, type AuditBase, auditedChange } from "~/features/audit/audit-log.server";
import { auditInfo, NO_STORE, readConsoleForm, requireStaff } from "~/features/staff/door.server";

type Context = Readonly<RouterContextProvider>;

/** A title, a 2,000-character message and the product names fit, even written in non-Latin scripts. */
const MAX_STATUS_FORM_BYTES = 32 * 1024;

export async function loadStatusConsole(request: Request) {
  await requireStaff(request, "status");
  const { db } = getDb();
  const [rows, incidents] = await pageDatabaseWork(() => Promise.all([listStatusRows(db), listIncidents(db)]));
  return data(
    {
      products: rows.map((row) => ({ name: row.name, status: row.status, updatedAt: row.updatedAt })),
      incidents,
      limits: { title: MAX_INCIDENT_TITLE, body: MAX_INCIDENT_BODY },
    },
    { headers: NO_STORE },
  );
}

/** What was typed into an incident form, given back with a refusal or a preview so nothing is lost without JS. */
export interface IncidentDraft {
  /** "new", or the id of the incident the update is for. */
  for: "new" | number;
  title: string;
  products: string[];
  status: string;
  body: string;
  /** `body` as /status will show it (the preview). */
  html: string;
}

/** What was typed, before it is rendered for the preview. */
type TypedDraft = Omit<IncidentDraft, "html">;

export type StatusNotice =
  | { kind: "status-saved"; product: string; status: KnownStatus }
  | { kind: "status-unchanged"; product: string }
  | { kind: "published"; id: number; title: string }
  | { kind: "updated"; id: number; title: string; status: IncidentStatus }
  | { kind: "preview" }
  | { kind: "bad-title" }
  | { kind: "bad-body" }
  | { kind: "bad-status" }
  | { kind: "bad-product" }
  | { kind: "already-resolved"; id: number }
  | { kind: "not-found" };

export interface StatusActionData {
  notice: StatusNotice;
  draft?: IncidentDraft;
}

function answer(notice: StatusNotice, status: number, typed?: TypedDraft) {
  const draft = typed ? { ...typed, html: renderIncidentMarkdown(typed.body) } : undefined;
  return data<StatusActionData>(draft ? { notice, draft } : { notice }, { status, headers: NO_STORE });
}

function text(body: FormData, name: string): string {
  const value = body.get(name);
  return typeof value === "string" ? value : "";
}

function isKnownStatus(value: string): value is KnownStatus {
  return (KNOWN_STATUSES as readonly string[]).includes(value);
}

function isIncidentStatus(value: string): value is IncidentStatus {
  return (INCIDENT_STATUSES as readonly string[]).includes(value);
}

/** The first thing wrong with an incident form, in the order its fields stand. */
function incidentProblem(draft: TypedDraft, names: readonly string[]): StatusNotice | undefined {
  const title = draft.title.trim();
  if (draft.for === "new" && (title.length === 0 || title.length > MAX_INCIDENT_TITLE)) return { kind: "bad-title" };
  if (draft.products.some((product) => !names.includes(product))) return { kind: "bad-product" };
  if (!isIncidentStatus(draft.status)) return { kind: "bad-status" };
  const body = draft.body.trim();
  if (body.length === 0 || body.length > MAX_INCIDENT_BODY) return { kind: "bad-body" };
  return undefined;
}

const STATUS_HEADLINES: Record<KnownStatus, (name: string) => string> = {
  operational: (name) => `${name} is operational`,
  maintenance: (name) => `${name} is under maintenance`,
  outage: (name) => `${name} is down`,
};

/** Tells the support channel (the outbox: stored now, delivered at least once); never fails the change itself. */
async function tellSupportChannel(db: Kysely<Database>, alert: [headline: string, seen: string, link: string]) {
  try {
    await queueStatusAlert(db, alert);
  } catch (err) {
    logger.error({ err }, "console: a status alert could not be queued for the support channel");
  }
}

function publicLink(path: string): string {
  return `${getEnv().PUBLIC_URL.replace(/\/$/, "")}${path}`;
}

export async function statusConsoleAction(request: Request, context: Context) {
  const session = await requireStaff(request, "status");
  const body = await readConsoleForm(request, MAX_STATUS_FORM_BYTES);
  const { db } = getDb();
  const intent = text(body, "intent");
  const base = {
    actor: session.staff.email,
    sessionBeganWith: session.beganWith,
    ...auditInfo(request, context.get(clientAddressContext)),
  };
  const names = (await db.selectFrom("status_entries").select("name").execute()).map((row) => row.name);

  if (intent === "status") {
    const product = text(body, "product");
    const status = text(body, "status");
    if (!names.includes(product)) return answer({ kind: "bad-product" }, 400);
    if (!isKnownStatus(status)) return answer({ kind: "bad-status" }, 400);
    return pageDatabaseWork(() => saveProductStatus(db, base, product, status));
  }

  const incidentId = text(body, "incident");
  const draft: TypedDraft = {
    for: intent === "publish" || incidentId === "" ? "new" : Number(incidentId),
    title: text(body, "title"),
    products: body.getAll("products").filter((p): p is string => typeof p === "string"),
    status: text(body, "status"),
    body: text(body, "body"),
  };
  if (draft.for !== "new" && !(Number.isSafeInteger(draft.for) && /^\d{1,9}$/.test(incidentId) && draft.for > 0))
    return answer({ kind: "not-found" }, 404);
  if (!["preview", "publish", "update"].includes(intent)) return answer({ kind: "not-found" }, 400);
  const problem = incidentProblem(draft, names);
  if (problem) return answer(problem, 400, draft);
  if (intent === "preview") return answer({ kind: "preview" }, 200, draft);
  try {
    if (intent === "publish") return await pageDatabaseWork(() => publishIncident(db, base, draft));
    return await pageDatabaseWork(() => postUpdate(db, base, draft, draft.for as number));
  } catch (error) {
    // A product renamed or an incident gone between the checks above and the write.
    if (error instanceof StatusAdminError) return answer({ kind: "not-found" }, 409, draft);
    throw error;
  }
}

async function saveProductStatus(db: Kysely<Database>, base: AuditBase, product: string, status: KnownStatus) {
  const before = await db.selectFrom("status_entries").select("status").where("name", "=", product).executeTakeFirst();
  if (before?.status === status) return answer({ kind: "status-unchanged", product }, 200);
  const row = await auditedChange(
    db,
    (trx) => setProductStatus(trx, { product, status }),
    (row) => ({
      ...base,
      action: "status-changed",
      target: row.name,
      detail: { before: before?.status ?? null, after: row.storedStatus },
    }),
  );
  announceStatusChange();
  await tellSupportChannel(db, [
    STATUS_HEADLINES[status](row.name),
    `Set in the console by ${base.actor} (was ${before?.status ?? "not set"}).`,
    publicLink("/status"),
  ]);
  return answer({ kind: "status-saved", product: row.name, status }, 200);
}

function incidentState(incident: Incident) {
  return {
    title: incident.title,
    products: incident.products,
    status: incident.status,
    body: incident.body,
    resolvedAt: incident.resolvedAt,
  };
}

async function publishIncident(db: Kysely<Database>, base: AuditBase, draft: TypedDraft) {
  const incident = await auditedChange(
    db,
    (trx) =>
      addIncident(trx, {
        title: draft.title,
        body: draft.body,
        status: draft.status,
        products: draft.products,
        allowResolved: true,
      }),
    (incident) => ({
      ...base,
      action: "incident-opened",
      target: `incident ${incident.id}`,
      detail: { before: null, after: incidentState(incident) },
    }),
  );
  announceStatusChange();
  await tellSupportChannel(db, [
    `Incident opened (${incident.status}): ${incident.title}`,
    `${incident.body}\n\nPublished in the console by ${base.actor}.`,
    publicLink(incidentPath(incident.id)),
  ]);
  return answer({ kind: "published", id: incident.id, title: incident.title }, 200);
}

async function postUpdate(db: Kysely<Database>, base: AuditBase, draft: TypedDraft, id: number) {
  const existing = await loadIncident(db, id);
  if (!existing) return answer({ kind: "not-found" }, 404);
  if (existing.resolvedAt !== null && draft.status === "resolved")
    return answer({ kind: "already-resolved", id }, 409, draft);
  const incident = await auditedChange(
    db,
    (trx) => updateIncident(trx, id, { status: draft.status, body: draft.body }),
    (incident) => ({
      ...base,
      action: (incident.status === "resolved" ? "incident-resolved" : "incident-updated") satisfies AuditAction,
      target: `incident ${incident.id}`,
      detail: { before: incidentState(existing), after: incidentState(incident) },
    }),
  );
  announceStatusChange();
  await tellSupportChannel(db, [
    incident.status === "resolved"
      ? `Incident resolved: ${incident.title}`
      : `Incident update (${incident.status}): ${incident.title}`,
    `${incident.body}\n\nPosted in the console by ${base.actor}.`,
    publicLink(incidentPath(incident.id)),
  ]);
  return answer({ kind: "updated", id: incident.id, title: incident.title, status: incident.status }, 200);
}
