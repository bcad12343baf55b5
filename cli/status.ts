import { KNOWN_STATUSES } from "~/features/status/status";
import { listStatusRows, StatusAdminError, setProductStatus } from "~/features/status/status-admin.server";
import { type CliCommand, startCommand, formatTable, runWithDatabase, auditedCliChange } from "./cli-context";

export const STATUS_USAGE = `Usage:
  npm run cli -- status list [--json]
  npm run cli -- status set <product> <${KNOWN_STATUSES.join("|")}> [--json]

<product> is the name shown on /status ("Kestrel Vault"), or a catalogue slug or id ("vault", "446889").
Changes show on /status at the next page load or "Refresh Status"; no restart needed. Each change is recorded with
its time, and the uptime figures and daily bars are computed from that history (maintenance is not downtime).`;

/** `status list` and `status set`: the product rows of the /status page. */
export const statusCommand: CliCommand = async (argv, { db, products, out, err }) => {
  const started = startCommand(argv, STATUS_OPTIONS, STATUS_USAGE, { out, err });
  if (typeof started === "number") return started;
  const { values, action, rest, fail } = started;
  if (action === "list") {
    if (rest.length > 0) return fail(`"status list" takes no arguments (got ${rest.join(" ")})`, 2);
    const rows = await listStatusRows(db);
    if (values.json) out(JSON.stringify(rows, null, 2));
    else
      out(
        formatTable(
          ["PRODUCT", "STATUS", "UPTIME (90 DAYS)", "UPDATED"],
          rows.map((r) => [
            r.name,
            r.status === r.storedStatus ? r.status : `${r.storedStatus} (shown as unknown)`,
            r.uptime === null ? "no data" : `${r.uptime}%`,
            r.updatedAt,
          ]),
        ),
      );
    return 0;
  }
  if (action === "set") {
    const [product, status, ...extra] = rest;
    if (product === undefined || status === undefined)
      return fail(`"status set" needs a product and a status\n\n${STATUS_USAGE}`, 2);
    if (extra.length > 0) return fail(`Unexpected arguments: ${extra.join(" ")} (quote product names with spaces)`, 2);
    try {
      const before = await db.selectFrom("status_entries").select(["name", "status"]).execute();
      const row = await auditedCliChange(
        db,
        (trx) => setProductStatus(trx, { product, status, uptime: values.uptime }, products),
        (row) => ({
          action: "status-changed",
          target: row.name,
          detail: { before: before.find((entry) => entry.name === row.name)?.status ?? null, after: row.storedStatus },
        }),
      );
      out(values.json ? JSON.stringify(row, null, 2) : `${row.name}: ${row.status} (since ${row.updatedAt})`);
      return 0;
    } catch (error) {
      if (error instanceof StatusAdminError) return fail(error.message);
      throw error;
    }
  }
  return fail(`Unknown status command "${action}"\n\n${STATUS_USAGE}`, 2);
};

/** The flags of this command, besides COMMON_OPTIONS. */
const STATUS_OPTIONS = { uptime: { type: "string" } } as const;

/** Entry for the CLI dispatcher (`npm run cli -- status ...`). */
export function runStatusCli(argv: string[]): Promise<number> {
  return runWithDatabase(statusCommand, argv);
}
