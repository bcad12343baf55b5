import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/** WCAG 2.2 A and AA, and axe-core's best practices: what the shop's pages are checked against. */
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/**
 * An AxeBuilder for `page` that collects violations only (no test reads the passes, and listing every passing node is
 * about a fifth of axe's time on a long page). A page without frames is checked by axe.run in the page itself: the
 * same results as the default runPartial plus finishRun in a second, blank page, in less than half the time; a page
 * with frames keeps the default, which reaches cross-origin frames too.
 */
export function axeBuilder(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).setLegacyMode(page.frames().length === 1);
}
