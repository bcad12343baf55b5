import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { localizedPath, PSEUDO_LOCALE } from "../../app/features/i18n/locales";
import { gotoHydrated } from "../support/hydration";
import { englishPagePaths } from "../support/site-routes";

/**
 * Every page in the pseudo-locale (English accented and ~40% longer, docs/i18n.md): any plain English word left on the
 * screen did not come from a message catalogue or a content translation, and a page that scrolls sideways at 360 px
 * cannot take a longer language.
 */
// The status page's products are named in content/status.json by the names their probes and history know them by:
// brand names, written the same in every language.
const BRAND_WORDS = (
  JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "../../content/status.json"), "utf8")) as Array<{
    name: string;
  }>
).flatMap((row) => row.name.split(/\s+/));

test.describe("the pseudo-locale", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  for (const path of englishPagePaths()) {
    const pseudoPath = localizedPath(path, PSEUDO_LOCALE);
    test(`${pseudoPath} shows no untranslated English and does not scroll sideways at 360 px`, async ({ page }) => {
      await gotoHydrated(page, pseudoPath);
      await expect(page.locator("html")).toHaveAttribute("lang", "en-XA");
      const leaks = await page.evaluate((brandWords) => {
        // What Intl writes for a locale it has no data for (month and currency names) is Intl's, not ours.
        const intlWords = new Set<string>();
        for (let month = 0; month < 12; month++)
          for (const width of ["short", "long"] as const)
            intlWords.add(
              new Date(Date.UTC(2026, month, 15)).toLocaleString("en-XA", { month: width, timeZone: "UTC" }),
            );
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
      }, BRAND_WORDS);
      expect(leaks, `plain English on ${pseudoPath}`).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${pseudoPath} scrolls sideways by ${overflow}px at 360 px`).toBeLessThanOrEqual(0);
    });
  }
});
