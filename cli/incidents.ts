import { parseArgs } from "node:util";
import type { Incident } from "~/features/status/status";
import { addIncident, listIncidents, parseIncidentId, resolveIncident, StatusAdminError } from "~/features/status/status-admin.server";
import { type CliCommand, startCommand, COMMON_OPTIONS, formatTable, runWithDatabase } from "./cli-context";

export const INCIDENTS_USAGE = `Usage:
  npm run cli -- incidents list [--all] [--json]
  npm run cli -- incidents add --title "Licence server slow" --body "We are investigating." [--json]
  npm run cli -- incidents resolve <id> [--json]

Open incidents show on /status (newest first) until resolved.`;

/** `incidents list|add|resolve`: the incident notices on the /status page. */
export const incidentsCommand: CliCommand = async (argv, { db, out, err }) => {
  const started = startCommand(argv, parse, INCIDENTS_USAGE, { out, err });
  if (typeof started === "number") return started;
  const { values, action, rest, fail } = started;
  try {
    if (action === "list") {
      if (rest.length > 0) return fail(`"incidents list" takes no arguments (got ${rest.join(" ")})`, 2);
      const incidents = await listIncidents(db, { includeResolved: values.all });
      if (values.json) out(JSON.stringify(incidents, null, 2));
      else if (incidents.length === 0) out(values.all ? "No incidents." : "No open incidents.");
      else out(formatTable(["ID", "STARTED", "RESOLVED", "TITLE"], incidents.map((i) => [String(i.id), i.startedAt, i.resolvedAt ?? "open", i.title])));
      return 0;
    }
    if (action === "add") {
      if (rest.length > 0) return fail(`Unexpected arguments: ${rest.join(" ")} (use --title and --body)`, 2);
      if (values.title === undefined || values.body === undefined) return fail(`"incidents add" needs --title and --body\n\n${INCIDENTS_USAGE}`, 2);
      const incident = await addIncident(db, { title: values.title, body: values.body });
      out(values.json ? JSON.stringify(incident, null, 2) : `Incident ${incident.id} opened: ${incident.title}`);
      return 0;
    }
    if (action === "resolve") {
      if (rest.length > 1) return fail(`"incidents resolve" takes one id (got ${rest.join(" ")})`, 2);
      const { incident, alreadyResolved } = await resolveIncident(db, parseIncidentId(rest[0]));
      out(values.json ? JSON.stringify({ ...incident, alreadyResolved }, null, 2) : describeResolution(incident, alreadyResolved));
      return 0;
    }
  } catch (error) {
    if (error instanceof StatusAdminError) return fail(error.message);
    throw error;
  }
  return fail(`Unknown incidents command "${action}"\n\n${INCIDENTS_USAGE}`, 2);
};

function describeResolution(incident: Incident, alreadyResolved: boolean): string {
  return alreadyResolved ? `Incident ${incident.id} was already resolved at ${incident.resolvedAt}` : `Incident ${incident.id} resolved: ${incident.title}`;
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      ...COMMON_OPTIONS,
      all: { type: "boolean", default: false },
      title: { type: "string" },
      body: { type: "string" },
    },
  });
}

/** Entry for the CLI dispatcher (`npm run cli -- incidents ...`). */
export function runIncidentsCli(argv: string[]): Promise<number> {
  return runWithDatabase(incidentsCommand, argv);
}
