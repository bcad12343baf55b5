import { type Incident, INCIDENT_STATUSES, incidentPath } from "~/features/status/status";
import {
  addIncident,
  listIncidents,
  parseIncidentId,
  resolveIncident,
  StatusAdminError,
  updateIncident,
} from "~/features/status/status-admin.server";
import { loadIncident } from "~/features/status/status.server";
import { type CliCommand, startCommand, formatTable, runWithDatabase, auditedCliChange } from "./cli-context";

export const INCIDENTS_USAGE = `Usage:
  npm run cli -- incidents list [--all] [--json]
  npm run cli -- incidents show <id> [--json]
  npm run cli -- incidents add --title "Licence server slow" --body "We are investigating." [--product vault]... [--status investigating] [--json]
  npm run cli -- incidents update <id> --status <${INCIDENT_STATUSES.join("|")}> --body "What changed" [--json]
  npm run cli -- incidents resolve <id> [--body "What fixed it"] [--json]

Open incidents stand at the top of /status, resolved ones of the last 14 days below it; each has its own page
(/status/incidents/<id>) and an entry in the Atom feed (/status/feed.xml). --product takes a name shown on /status,
a catalogue slug or an id, and may be given more than once.`;

/** `incidents list|show|add|update|resolve`: the incidents on the /status page and in its feed. */
export const incidentsCommand: CliCommand = async (argv, { db, products, out, err }) => {
  const started = startCommand(argv, INCIDENTS_OPTIONS, INCIDENTS_USAGE, { out, err });
  if (typeof started === "number") return started;
  const { values, action, rest, fail } = started;
  const print = (incident: Incident, text: string) => out(values.json ? JSON.stringify(incident, null, 2) : text);
  try {
    if (action === "list") {
      if (rest.length > 0) return fail(`"incidents list" takes no arguments (got ${rest.join(" ")})`, 2);
      const incidents = await listIncidents(db, { includeResolved: values.all });
      if (values.json) out(JSON.stringify(incidents, null, 2));
      else if (incidents.length === 0) out(values.all ? "No incidents." : "No open incidents.");
      else
        out(
          formatTable(
            ["ID", "STATUS", "STARTED", "RESOLVED", "TITLE"],
            incidents.map((i) => [String(i.id), i.status, i.startedAt, i.resolvedAt ?? "open", i.title]),
          ),
        );
      return 0;
    }
    if (action === "show") {
      if (rest.length > 1) return fail(`"incidents show" takes one id (got ${rest.join(" ")})`, 2);
      const id = parseIncidentId(rest[0]);
      const incident = await loadIncident(db, id);
      if (!incident) return fail(`No incident with id ${id}`);
      print(incident, describeIncident(incident));
      return 0;
    }
    if (action === "add") {
      if (rest.length > 0) return fail(`Unexpected arguments: ${rest.join(" ")} (use --title and --body)`, 2);
      if (values.title === undefined || values.body === undefined)
        return fail(`"incidents add" needs --title and --body\n\n${INCIDENTS_USAGE}`, 2);
      const incident = await auditedCliChange(
        db,
        (trx) =>
          addIncident(
            trx,
            { title: values.title ?? "", body: values.body ?? "", status: values.status, products: values.product },
            products,
          ),
        (incident) => ({
          action: "incident-opened",
          target: `incident ${incident.id}`,
          detail: { title: incident.title, status: incident.status },
        }),
      );
      print(incident, `Incident ${incident.id} opened: ${incident.title} (${incidentPath(incident.id)})`);
      return 0;
    }
    if (action === "update") {
      if (rest.length > 1) return fail(`"incidents update" takes one id (got ${rest.join(" ")})`, 2);
      const id = parseIncidentId(rest[0]);
      if (values.status === undefined || values.body === undefined)
        return fail(`"incidents update" needs --status and --body\n\n${INCIDENTS_USAGE}`, 2);
      const change = { status: values.status, body: values.body };
      const incident = await auditedCliChange(
        db,
        (trx) => updateIncident(trx, id, change),
        (incident) => ({
          action: "incident-updated",
          target: `incident ${incident.id}`,
          detail: { status: incident.status },
        }),
      );
      print(incident, `Incident ${incident.id} is now ${incident.status}: ${incident.title}`);
      return 0;
    }
    if (action === "resolve") {
      if (rest.length > 1) return fail(`"incidents resolve" takes one id (got ${rest.join(" ")})`, 2);
      const id = parseIncidentId(rest[0]);
      const { incident, alreadyResolved } = await auditedCliChange(
        db,
        (trx) => resolveIncident(trx, id, new Date(), values.body),
        ({ incident, alreadyResolved }) =>
          !alreadyResolved && { action: "incident-resolved", target: `incident ${incident.id}` },
      );
      out(
        values.json
          ? JSON.stringify({ ...incident, alreadyResolved }, null, 2)
          : describeResolution(incident, alreadyResolved),
      );
      return 0;
    }
  } catch (error) {
    if (error instanceof StatusAdminError) return fail(error.message);
    throw error;
  }
  return fail(`Unknown incidents command "${action}"\n\n${INCIDENTS_USAGE}`, 2);
};

function describeResolution(incident: Incident, alreadyResolved: boolean): string {
  return alreadyResolved
    ? `Incident ${incident.id} was already resolved at ${incident.resolvedAt}`
    : `Incident ${incident.id} resolved: ${incident.title}`;
}

function describeIncident(incident: Incident): string {
  const header = [
    `Incident ${incident.id}: ${incident.title}`,
    `  Status:    ${incident.status}`,
    `  Products:  ${incident.products.length > 0 ? incident.products.join(", ") : "(none named)"}`,
    `  Started:   ${incident.startedAt}`,
    `  Resolved:  ${incident.resolvedAt ?? "open"}`,
    `  Page:      ${incidentPath(incident.id)}`,
    "  Updates (newest first):",
  ];
  return [...header, ...incident.updates.map((u) => `    ${u.at}  ${u.status}: ${u.body}`)].join("\n");
}

/** The flags of this command, besides COMMON_OPTIONS. */
const INCIDENTS_OPTIONS = {
  all: { type: "boolean", default: false },
  title: { type: "string" },
  body: { type: "string" },
  status: { type: "string" },
  product: { type: "string", multiple: true },
} as const;

/** Entry for the CLI dispatcher (`npm run cli -- incidents ...`). */
export function runIncidentsCli(argv: string[]): Promise<number> {
  return runWithDatabase(incidentsCommand, argv);
}
