import "~/lib/zod-without-eval";
import { msg } from "@lingui/core/macro";
import {
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  type ShouldRevalidateFunction,
  useLocation,
  useMatches,
  useRouteLoaderData,
} from "react-router";
import {
  ErrorCard,
  errorStatusOf,
  GeneralErrorBoundary,
  type StatusHandler,
} from "~/components/general-error-boundary";
import { Trans } from "@lingui/react/macro";
import { getContent } from "~/features/content/content.server";
import { LanguageAlternates } from "~/features/i18n/language-alternates";
import { LanguageSuggestionBanner } from "~/features/i18n/language-suggestion-banner";
import { localeOfRequest } from "~/features/i18n/locale.server";
import { localeInfo, localeOfPath } from "~/features/i18n/locales";
import { translatorFor } from "~/features/i18n/translator";
import { useLocale } from "~/features/i18n/use-locale";
import { BARE_PAGE_HEADING_ID, type LayoutData, toLayoutData } from "~/features/layout/layout";
import { InlineStylesheet } from "~/features/layout/inline-stylesheet";
import { JsonLd } from "~/features/layout/json-ld";
import { useLeavingPage, useSmoothHashLinks, waitBeforeLeavingPage } from "~/features/layout/page-transition";
import { SiteFooter } from "~/features/layout/site-footer";
import { BootAfterPaint } from "~/features/layout/boot-after-paint";
import { EarlyClickRecorder, useReplayEarlyClicks } from "~/features/layout/early-clicks";
import { SiteHeader } from "~/features/layout/site-header";
import { Toasts } from "~/features/layout/toasts";
import { organizationJsonLd } from "~/features/layout/structured-data";
import { RecentSales } from "~/features/recent-sales/recent-sales-mount";
import { SupportChatLauncher } from "~/features/support-chat/support-chat-launcher";
import { getShopTheme } from "~/features/theme/theme.server";
import { getEnv } from "~/platform/env.server";
import type { Route } from "./+types/root";

export function loader({ request }: Route.LoaderArgs) {
  return {
    layout: toLayoutData(getContent(localeOfRequest(request)).site, getEnv().PUBLIC_URL, getShopTheme().brand),
  };
}

// The router owns page transitions: a navigation to another page waits ~100 ms here while the page fades out.
export const clientMiddleware: Route.ClientMiddlewareFunction[] = [({ request }) => waitBeforeLeavingPage(request)];

/** The chrome (navigation, footer) is in the page's language: a link into another language reads it again. */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
  localeOfPath(currentUrl.pathname) !== localeOfPath(nextUrl.pathname) || defaultShouldRevalidate;

/** Pages set their own meta; this only titles the error pages, which render in the root's boundary. */
export const meta: Route.MetaFunction = ({ error, location, loaderData }) => {
  if (!error) return [];
  const i18n = translatorFor(localeOfPath(location.pathname));
  const brand = loaderData?.layout.brand ?? "Kestrel Software";
  const status = errorStatusOf(error);
  const title =
    status === 404
      ? i18n._(msg`Page not found | ${brand}`)
      : status === 503
        ? i18n._(msg`Back in a moment | ${brand}`)
        : i18n._(msg`Unexpected error | ${brand}`);
  return [{ title }, { name: "robots", content: "noindex" }];
};

export function Layout({ children }: { children: React.ReactNode }) {
  const { tag, dir } = localeInfo(localeOfPath(useLocation().pathname));
  const theme = useRouteLoaderData<typeof loader>("root")?.layout.theme;
  return (
    <html lang={tag} dir={dir}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {theme && <meta name="theme-color" content={theme.themeColor} />}
        <InlineStylesheet />
        <Meta />
        {/* Written here, not as `links`: <Links> gives every link the CSP nonce, 24 bytes no icon needs. */}
        {theme?.font && (
          <link rel="preload" href={theme.font.href} as="font" type={theme.font.type} crossOrigin="anonymous" />
        )}
        {theme?.logo ? (
          <link rel="icon" href={theme.logo.src} type={theme.logo.type} />
        ) : (
          <>
            <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
            <link rel="icon" href="/favicon.ico" sizes="32x32" />
          </>
        )}
        <LanguageAlternates />
        <Links />
      </head>
      <body className="min-h-screen">
        <EarlyClickRecorder />
        <BootAfterPaint />
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

function Shell({ layout, children }: { layout: LayoutData; children: React.ReactNode }) {
  const { pathname, key: locationKey } = useLocation();
  // The first, server-rendered page paints at once (a fade there only delays LCP); client navigations fade in.
  const fadeIn = locationKey !== "default";
  const leaving = useLeavingPage();
  useSmoothHashLinks();
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:start-2 focus:z-50 focus:rounded focus:bg-foreground focus:px-3 focus:py-2 focus:text-background"
      >
        <Trans>Skip to content</Trans>
      </a>
      <SiteHeader layout={layout} />
      <main
        id="main"
        key={pathname}
        data-transitioning={leaving ? "true" : "false"}
        className={`flex-1 transition-opacity duration-100 data-[transitioning=true]:opacity-0 ${fadeIn ? "animate-page-in" : ""}`}
      >
        {children}
      </main>
      <SiteFooter layout={layout} />
      <JsonLd
        data={organizationJsonLd({
          name: layout.brand,
          publicUrl: layout.publicUrl,
          description: layout.description,
          sameAs: [layout.community.url],
        })}
      />
      <SupportChatLauncher />
      {layout.recentSales ? <RecentSales /> : null}
      <LanguageSuggestionBanner />
      <Toasts />
    </div>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  useReplayEarlyClicks();
  // A route with `handle.layout === "bare"` (the demo checkout shown inside our checkout frame) gets no site chrome.
  const layout = useMatches().find((m) => (m.handle as { layout?: string } | undefined)?.layout)?.handle as
    | { layout?: string }
    | undefined;
  // The staff console draws its own shell (features/console/shell/shell-page.tsx): none of the shop's chrome or chat.
  if (layout?.layout === "console") return <Outlet />;
  if (layout?.layout === "bare") {
    return (
      // Named by the page's heading, so inside the checkout frame it is not a second unnamed main beside the page's own.
      <main id="main" aria-labelledby={BARE_PAGE_HEADING_ID}>
        <Outlet />
      </main>
    );
  }
  return (
    <Shell layout={loaderData.layout}>
      <Outlet />
    </Shell>
  );
}

/** Every way out of a root error page: back to the home page. */
function ReturnHomeLink() {
  const { path } = useLocale();
  return (
    <Link
      to={path("/")}
      className="mt-8 inline-block rounded-lg bg-accent px-5 py-3 font-semibold text-on-accent hover:bg-accent-hover"
    >
      <Trans>Return to Home</Trans>
    </Link>
  );
}

const rootStatusHandlers = {
  // 503: the database is briefly out of reach; the shop says so instead of reporting a fault.
  503: () => (
    <ErrorCard
      title={<Trans>Back in a moment</Trans>}
      message={<Trans>This page is briefly unavailable while we reconnect. Please try again in a minute.</Trans>}
    >
      <ReturnHomeLink />
    </ErrorCard>
  ),
  404: () => (
    <ErrorCard
      title={<Trans>Oops! Page not found</Trans>}
      message={<Trans>The page you are looking for does not exist or has moved.</Trans>}
    >
      <ReturnHomeLink />
    </ErrorCard>
  ),
} satisfies Record<number, StatusHandler>;

function unexpectedError(error: unknown) {
  return (
    <ErrorCard
      title={<Trans>Unexpected Application Error!</Trans>}
      message={<Trans>Something went wrong on our side. Please try again in a moment.</Trans>}
    >
      {import.meta.env.DEV && error instanceof Error ? (
        <pre className="mt-6 overflow-auto text-start text-xs">{error.stack}</pre>
      ) : null}
      <ReturnHomeLink />
    </ErrorCard>
  );
}

export function ErrorBoundary() {
  const data = useRouteLoaderData<typeof loader>("root");
  const body = (
    <GeneralErrorBoundary
      statusHandlers={rootStatusHandlers}
      defaultStatusHandler={({ error }) => unexpectedError(error)}
      unexpectedErrorHandler={unexpectedError}
    />
  );
  if (!data) return <main id="main">{body}</main>;
  return <Shell layout={data.layout}>{body}</Shell>;
}
