import { Trans } from "@lingui/react/macro";
import { Link, Outlet, useRouteLoaderData } from "react-router";
import { ErrorCard, GeneralErrorBoundary } from "~/components/general-error-boundary";
import { ConsoleShell } from "~/features/console/shell/shell-page";
import { loadConsoleLayout } from "~/features/console/shell/shell-page.server";
import { useLocale } from "~/features/i18n/use-locale";
import { CHANGE_UNDONE } from "~/platform/api-errors";
import type { Route } from "./+types/admin";

// The staff console's frame: no site chrome (root.tsx), never cached (no handle.cache: Cache-Control no-store).
export const handle = { layout: "console" };

export function loader({ request, params }: Route.LoaderArgs) {
  return loadConsoleLayout(request, params.lang);
}

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export default function ConsoleLayout({ loaderData }: Route.ComponentProps) {
  return (
    <ConsoleShell viewer={loaderData.viewer}>
      <Outlet />
    </ConsoleShell>
  );
}

function BackToDashboard() {
  const { path } = useLocale();
  return (
    <Link to={path("/admin")} className="mt-6 inline-block underline">
      <Trans>Back to the dashboard</Trans>
    </Link>
  );
}

export function ErrorBoundary() {
  const data = useRouteLoaderData<typeof loader>("routes/admin");
  return (
    <ConsoleShell viewer={data?.viewer ?? null}>
      <GeneralErrorBoundary
        statusHandlers={{
          403: () => (
            <ErrorCard
              title={<Trans>You do not have access to this page</Trans>}
              message={
                <Trans>Your role does not include this part of the console. An owner can change your role.</Trans>
              }
            >
              <BackToDashboard />
            </ErrorCard>
          ),
          404: () => (
            <ErrorCard
              title={<Trans>Page not found</Trans>}
              message={<Trans>The console has no page at this address.</Trans>}
            >
              <BackToDashboard />
            </ErrorCard>
          ),
        }}
        defaultStatusHandler={({ error }) =>
          error.status === 503 && error.data === CHANGE_UNDONE ? (
            <ErrorCard
              title={<Trans>Nothing was changed.</Trans>}
              message={
                <Trans>
                  The audit log could not be written, so the change was undone. Please try again in a moment.
                </Trans>
              }
            >
              <BackToDashboard />
            </ErrorCard>
          ) : (
            <ErrorCard
              title={<Trans>Something went wrong</Trans>}
              message={<Trans>The console could not finish this request. Please try again in a moment.</Trans>}
            >
              <BackToDashboard />
            </ErrorCard>
          )
        }
        unexpectedErrorHandler={() => (
          <ErrorCard
            title={<Trans>Something went wrong</Trans>}
            message={<Trans>The console could not finish this request. Please try again in a moment.</Trans>}
          >
            <BackToDashboard />
          </ErrorCard>
        )}
      />
    </ConsoleShell>
  );
}
