import { chooseConsoleLanguage } from "~/features/console/console-layout.server";
import type { Route } from "./+types/admin-language";

export function action({ request }: Route.ActionArgs) {
  return chooseConsoleLanguage(request);
}
