import { signOut } from "~/features/console/sign-in/sign-in-page.server";
import { pageDatabaseWork } from "~/platform/db.server";
import type { Route } from "./+types/admin-sign-out";

// Sign out (this browser) or Sign out everywhere (every session of this person), from any console page.
export function action({ request, context }: Route.ActionArgs) {
  return pageDatabaseWork(() => signOut(request, context));
}
