import { Trans } from "@lingui/react/macro";
import type { StaffRole } from "~/features/staff/roles";

export function RoleName({ role }: { role: StaffRole }) {
  switch (role) {
    case "owner":
      return <Trans>Owner</Trans>;
    case "admin":
      return <Trans>Admin</Trans>;
    default:
      return <Trans>Support</Trans>;
  }
}
