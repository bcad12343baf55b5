import { chooseConsoleLanguage } from "~/features/console/shell/shell-page.server";
import type { Route } from "./+types/admin-language";

export function action({ request }: Route.ActionArgs) {
  return chooseConsoleLanguage(request);
}
