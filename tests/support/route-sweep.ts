import { localizedPath, PSEUDO_LOCALE } from "../../app/features/i18n/locales";
import { allPagePaths, englishPagePaths } from "./site-routes";

/**
 * What the route sweeps check, on which server and route: one visit per route, every check of that visit a named
 * assertion of its own (tests/support/route-visit.ts). tests/architecture/route-checks.test.ts compares these pairs
 * with the ones the sweeps checked before they were merged, so none goes missing.
 */
export const ROUTE_CHECKS = {
  "csp-header": "the Content-Security-Policy header has a nonce and no 'unsafe-inline'",
  "csp-no-violation": "no CSP violation while the page loads and hydrates",
  axe: "axe-core finds no WCAG 2.2 A/AA or best-practice violation on the hydrated page",
  "console-no-error": "the browser's console shows no error and the page throws none",
  "fits-360": "no sideways scroll at 360 px",
  "fits-360-reduced-motion": "no sideways scroll at 360 px with reduced motion",
  "pseudo-lang": 'the page says lang="en-XA"',
  "no-untranslated-english": "no plain English word left on the screen",
} as const;

export type RouteCheck = keyof typeof ROUTE_CHECKS;

/** The servers the sweeps visit: the suite's shared one, and the light theme's own (tests/e2e/theme-light.spec.ts). */
export type SweepServer = "shared" | "light-theme";

export interface RouteVisit {
  server: SweepServer;
  path: string;
  /** The viewport the page is opened in; the 360 px checks then narrow it, whatever it was. */
  viewport: "desktop" | "phone";
  checks: RouteCheck[];
}

/** The English pages but the 404 (the light theme and the 360 px sweeps never covered it). */
export const MAIN_ENGLISH_PATHS = englishPagePaths().filter((p) => p !== "/this-page-does-not-exist");

const EVERY_VISIT: RouteCheck[] = ["csp-header", "csp-no-violation", "console-no-error"];

/** Every visit the sweeps make, in the order they are listed. */
export function routeVisits(server: SweepServer): RouteVisit[] {
  if (server === "light-theme")
    return MAIN_ENGLISH_PATHS.map((path) => ({
      server,
      path,
      viewport: "desktop",
      checks: [...EVERY_VISIT, "axe", "fits-360", "fits-360-reduced-motion"],
    }));
  return [
    ...allPagePaths().map(
      (path): RouteVisit => ({
        server,
        path,
        viewport: "desktop",
        checks: [...EVERY_VISIT, "axe", "fits-360", "fits-360-reduced-motion"],
      }),
    ),
    // The pseudo-locale's words are read at 360 px, as a phone shows (and hides) them.
    ...englishPagePaths().map(
      (path): RouteVisit => ({
        server,
        path: localizedPath(path, PSEUDO_LOCALE),
        viewport: "phone",
        checks: [...EVERY_VISIT, "pseudo-lang", "no-untranslated-english", "fits-360"],
      }),
    ),
  ];
}

/** Every (server, route, check) the sweeps cover, one line each: `shared /de/faq axe`. */
export function routeCheckPairs(): string[] {
  return (["shared", "light-theme"] as const)
    .flatMap((server) => routeVisits(server))
    .flatMap((visit) => visit.checks.map((check) => `${visit.server} ${visit.path} ${check}`))
    .sort();
}
