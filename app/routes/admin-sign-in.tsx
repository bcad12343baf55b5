import { useLingui } from "@lingui/react/macro";
import { useSearchParams } from "react-router";
import { loadSignInPage } from "~/features/console/sign-in/sign-in-page.server";
import { SignInPage } from "~/features/console/sign-in/sign-in-page";
import type { Route } from "./+types/admin-sign-in";

export function loader({ request }: Route.LoaderArgs) {
  return loadSignInPage(request);
}

export default function ConsoleSignIn({ loaderData }: Route.ComponentProps) {
  const { t } = useLingui();
  const [search] = useSearchParams();
  return (
    <>
      <title>{t`Sign in · Shop console`}</title>
      <meta name="robots" content="noindex" />
      <SignInPage {...loaderData} signedOut={search.has("signed-out")} />
    </>
  );
}
