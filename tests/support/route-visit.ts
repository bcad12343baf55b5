import { test as base, type BrowserContext, devices, expect, type Page } from "@playwright/test";
import { axeBuilder, WCAG_TAGS } from "./axe";
import { gotoHydrated } from "./hydration";
import { ROUTE_CHECKS, type RouteCheck, type RouteVisit } from "./route-sweep";

/**
 * One page per worker for the route sweeps, opened once and reused by every visit (a context per test cost more than
 * some checks), with what it saw since the last visit: CSP violations (DOM event and console) and console errors.
 */
export interface SweepPage {
  page: Page;
  context: BrowserContext;
  cspViolations: string[];
  consoleErrors: string[];
  /** The route the page shows now, with its answer's status and headers, once it has hydrated. */
  visited?: { path: string; status: number; headers: Record<string, string> };
}

const DESKTOP = devices["Desktop Chrome"].viewport;
const PHONE = { width: 360, height: 740 };

const isCspReport = (text: string) => /Content[- ]Security[- ]Policy/i.test(text);

/** Collects CSP violations from both the DOM event and the console, so none slips through unnoticed. */
export async function watchCspViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (isCspReport(message.text())) violations.push(`console: ${message.text()}`);
  });
  await page.exposeFunction("__reportCspViolation", (text: string) => violations.push(`event: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      (window as unknown as { __reportCspViolation(t: string): void }).__reportCspViolation(
        `${event.violatedDirective} blocked ${event.blockedURI || "inline"} (${event.sourceFile}:${event.lineNumber})`,
      );
    });
  });
  return violations;
}

export const test = base.extend<object, { sweepPage: SweepPage }>({
  sweepPage: [
    async ({ browser }, use) => {
      const context = await browser.newContext({
        ...devices["Desktop Chrome"],
        baseURL: `http://localhost:${process.env.E2E_PORT}`,
      });
      const page = await context.newPage();
      const seen: SweepPage = { page, context, cspViolations: await watchCspViolations(page), consoleErrors: [] };
      page.on("console", (message) => {
        if (message.type() === "error" && !isCspReport(message.text()))
          seen.consoleErrors.push(`console: ${message.text()} (${message.location().url || "no source"})`);
      });
      page.on("pageerror", (error) => seen.consoleErrors.push(`thrown: ${error.message}`));
      await use(seen);
      await context.close();
    },
    { scope: "worker" },
  ],
});

/** How far the page scrolls sideways (0 when it fits the viewport). */
const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

async function axeViolations(page: Page) {
  const results = await axeBuilder(page).withTags(WCAG_TAGS).analyze();
  return results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`,
  );
}

/** Words on the screen of a pseudo-locale page that did not come through a catalogue (docs/i18n.md). */
function plainEnglishWords(page: Page, brandWords: string[]) {
  return page.evaluate((brandWords) => {
    // What Intl writes for a locale it has no data for (month and currency names) is Intl's, not ours.
    const intlWords = new Set<string>();
    for (let month = 0; month < 12; month++)
      for (const width of ["short", "long"] as const)
        intlWords.add(new Date(Date.UTC(2026, month, 15)).toLocaleString("en-XA", { month: width, timeZone: "UTC" }));
    for (const code of ["USD", "EUR", "GBP", "BRL"])
      for (const word of (new Intl.DisplayNames(["en-XA"], { type: "currency" }).of(code) ?? "").split(/\s+/))
        intlWords.add(word);
    for (const word of ["AM", "PM", "UTC", "GMT", ...brandWords]) intlWords.add(word);
    const found: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!element || element.closest("script, style, noscript, template")) continue;
      // Text in another language says so (reviews, what people wrote, a language's own name).
      const lang = element.closest("[lang]")?.getAttribute("lang");
      if (lang && lang !== "en-XA") continue;
      if (!element.checkVisibility({ visibilityProperty: true, opacityProperty: false })) continue;
      const text = node.textContent ?? "";
      for (const token of text.split(/\s+/)) {
        // E-mail addresses, web addresses and file names are not words of a language.
        if (/@|:\/\/|\w\.\w/.test(token)) continue;
        for (const word of token.match(/[A-Za-z][A-Za-z'’]+/g) ?? []) {
          // Nor are currency codes, or what Intl wrote.
          if (/^[A-Z]{3}$/.test(word) || intlWords.has(word)) continue;
          found.push(`${word} (in "${text.trim().slice(0, 60)}")`);
        }
      }
    }
    return [...new Set(found)];
  }, brandWords);
}

/** The browser's own line for the document itself answered 404 (the 404 page and the conversation without a key). */
const ownNotFound = (line: string, url: string) =>
  line.startsWith("console: Failed to load resource: the server responded with a status of 404") &&
  line.endsWith(`(${url})`);

export interface VisitOptions {
  /** The server's origin, asked when the visit starts (a spec's own server); the shared server's when absent. */
  origin?: () => string;
  /** Brand names the pseudo-locale leaves as they are. */
  brandWords?: string[];
}

/** The order a visit's checks run in: the page's own state first, the narrow screen after, what it saw last. */
const CHECK_ORDER: RouteCheck[] = [
  "csp-header",
  "pseudo-lang",
  "no-untranslated-english",
  "axe",
  "fits-360",
  "fits-360-reduced-motion",
  // Read last, so whatever the checks above gave the page time to do is in them too.
  "csp-no-violation",
  "console-no-error",
];

/** Opens `visit.path` in the worker's page, hydrated, and keeps what the checks read of its answer. */
async function openVisit(sweep: SweepPage, visit: RouteVisit, options: VisitOptions) {
  const { page, context } = sweep;
  sweep.visited = undefined;
  await context.clearCookies();
  await page.emulateMedia({ reducedMotion: "no-preference" });
  await page.setViewportSize(visit.viewport === "phone" ? PHONE : (DESKTOP ?? { width: 1280, height: 720 }));
  sweep.cspViolations.length = 0;
  sweep.consoleErrors.length = 0;
  const response = await gotoHydrated(page, `${options.origin?.() ?? ""}${visit.path}`);
  expect(response, `${visit.path}: an answer`).not.toBeNull();
  sweep.visited = { path: visit.path, status: response?.status() ?? 0, headers: response?.headers() ?? {} };
}

async function runCheck(sweep: SweepPage, visit: RouteVisit, check: RouteCheck, options: VisitOptions) {
  const { page, visited } = sweep;
  // The visit is the group's first test: a check never reads another route's page.
  expect(visited?.path, `${visit.path}: the page this check reads`).toBe(visit.path);
  const named = `${visit.path}: ${ROUTE_CHECKS[check]}`;
  switch (check) {
    case "csp-header": {
      const csp = visited?.headers["content-security-policy"] ?? "";
      expect(csp, named).toContain("'nonce-");
      expect(csp, named).not.toContain("'unsafe-inline'");
      return;
    }
    case "pseudo-lang":
      await expect(page.locator("html"), named).toHaveAttribute("lang", "en-XA");
      return;
    case "no-untranslated-english":
      expect(await plainEnglishWords(page, options.brandWords ?? []), named).toEqual([]);
      return;
    case "axe":
      expect(await axeViolations(page), named).toEqual([]);
      return;
    case "fits-360":
      await page.emulateMedia({ reducedMotion: "no-preference" });
      await page.setViewportSize(PHONE);
      expect(await sidewaysOverflow(page), named).toBeLessThanOrEqual(0);
      return;
    case "fits-360-reduced-motion":
      await page.emulateMedia({ reducedMotion: "reduce" });
      await page.setViewportSize(PHONE);
      expect(await sidewaysOverflow(page), named).toBeLessThanOrEqual(0);
      return;
    case "csp-no-violation":
      expect(sweep.cspViolations, named).toEqual([]);
      return;
    case "console-no-error": {
      const url = page.url();
      const own404 = visited?.status === 404;
      expect(
        sweep.consoleErrors.filter((line) => !(own404 && ownNotFound(line, url))),
        named,
      ).toEqual([]);
      return;
    }
  }
}

/**
 * Declares the sweep of `visits`: per route, one group that opens the page once (its first test) and then checks it,
 * each check a test of its own named for the route and the check. The group runs in order in one worker; a failed
 * visit skips its checks and names the route.
 */
export function declareRouteSweep(visits: RouteVisit[], options: VisitOptions = {}) {
  for (const visit of visits) {
    test.describe(visit.path, () => {
      // axe-core needs several seconds on the long home page, and much longer when the machine is busy.
      test.describe.configure({ mode: "serial", timeout: 90_000 });
      test("loads and hydrates", ({ sweepPage }) => openVisit(sweepPage, visit, options));
      for (const check of CHECK_ORDER.filter((c) => visit.checks.includes(c)))
        test(ROUTE_CHECKS[check], ({ sweepPage }) => runCheck(sweepPage, visit, check, options));
    });
  }
}
