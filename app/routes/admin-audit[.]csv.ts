import { exportAuditCsv } from "~/features/console/audit/audit-page.server";
import { pageDatabaseWork } from "~/platform/db.server";
import type { Route } from "./+types/admin-audit[.]csv";

// What the audit log's filters show, as a CSV download (owners only; the export is itself an audit entry).
export function loader({ request, context }: Route.LoaderArgs) {
  return pageDatabaseWork(() => exportAuditCsv(request, context));
}
