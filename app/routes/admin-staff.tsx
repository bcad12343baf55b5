import { useLingui } from "@lingui/react/macro";
import { loadStaffPage, staffAction } from "~/features/console/staff/staff-page.server";
import { StaffPage } from "~/features/console/staff/staff-page";
import { pageDatabaseWork } from "~/platform/db.server";
import type { Route } from "./+types/admin-staff";

export function loader({ request }: Route.LoaderArgs) {
  return loadStaffPage(request);
}

export function action({ request, context }: Route.ActionArgs) {
  return pageDatabaseWork(() => staffAction(request, context));
}

export default function ConsoleStaff({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useLingui();
  return (
    <>
      <title>{t`Staff · Shop console`}</title>
      <meta name="robots" content="noindex" />
      <StaffPage me={loaderData.me} staff={loaderData.staff} notice={actionData?.notice ?? null} />
    </>
  );
}
