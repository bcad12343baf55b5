import { useLingui } from "@lingui/react/macro";
import { loadAuditPage } from "~/features/console/audit/audit-page.server";
import { AuditPage } from "~/features/console/audit/audit-page";
import type { Route } from "./+types/admin-audit";

export function loader({ request }: Route.LoaderArgs) {
  return loadAuditPage(request);
}

export default function ConsoleAudit({ loaderData }: Route.ComponentProps) {
  const { t } = useLingui();
  return (
    <>
      <title>{t`Audit log · Shop console`}</title>
      <meta name="robots" content="noindex" />
      <AuditPage {...loaderData} />
    </>
  );
}
