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

export const test = base.extend<Record<string, never>, { sweepPage: SweepPage }>({
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
  /** The server's origin; the shared server's when absent. */
  origin?: string;
  /** Brand names the pseudo-locale leaves as they are. */
  brandWords?: string[];
}

/**
 * Opens `visit.path` once, hydrated, and runs each of its checks as a soft assertion named for the route and the
 * check, so one failure neither hides the others nor loses the name of what failed.
 */
export async function visitRoute(sweep: SweepPage, visit: RouteVisit, options: VisitOptions = {}) {
  const { page, context } = sweep;
  await context.clearCookies();
  await page.emulateMedia({ reducedMotion: "no-preference" });
  await page.setViewportSize(visit.viewport === "phone" ? PHONE : (DESKTOP ?? { width: 1280, height: 720 }));
  sweep.cspViolations.length = 0;
  sweep.consoleErrors.length = 0;
  const response = await test.step("open and hydrate", () =>
    gotoHydrated(page, `${options.origin ?? ""}${visit.path}`));
  const expected404 = response?.status() === 404;
  const named = (check: RouteCheck, detail = "") => `${visit.path}: ${ROUTE_CHECKS[check]}${detail}`;
  const has = (check: RouteCheck) => visit.checks.includes(check);

  if (has("csp-header")) {
    const csp = response?.headers()["content-security-policy"] ?? "";
    expect.soft(csp, named("csp-header")).toContain("'nonce-");
    expect.soft(csp, named("csp-header")).not.toContain("'unsafe-inline'");
  }
  if (has("pseudo-lang"))
    await expect.soft(page.locator("html"), named("pseudo-lang")).toHaveAttribute("lang", "en-XA");
  if (has("no-untranslated-english"))
    expect.soft(await plainEnglishWords(page, options.brandWords ?? []), named("no-untranslated-english")).toEqual([]);
  if (has("axe")) expect.soft(await test.step("axe", () => axeViolations(page)), named("axe")).toEqual([]);
  if (has("fits-360") || has("fits-360-reduced-motion")) {
    await page.setViewportSize(PHONE);
    if (has("fits-360")) expect.soft(await sidewaysOverflow(page), named("fits-360")).toBeLessThanOrEqual(0);
    if (has("fits-360-reduced-motion")) {
      await page.emulateMedia({ reducedMotion: "reduce" });
      expect.soft(await sidewaysOverflow(page), named("fits-360-reduced-motion")).toBeLessThanOrEqual(0);
    }
  }
  // Read last, so whatever the checks above gave the page time to do is in them too.
  if (has("csp-no-violation")) expect.soft(sweep.cspViolations, named("csp-no-violation")).toEqual([]);
  if (has("console-no-error"))
    expect
      .soft(
        sweep.consoleErrors.filter((line) => !(expected404 && ownNotFound(line, page.url()))),
        named("console-no-error"),
      )
      .toEqual([]);
}
