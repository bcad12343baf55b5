import { setupI18n } from "@lingui/core";
import { describe, expect, it } from "vitest";
import type { StatusEntry } from "./status";
import { formatDay, formatPercent } from "./status-format";
import { barsHtml, type BarsLocale, dayLabelMarkup } from "./uptime-bars";

// No catalogue: every message shows its English source, as a page does before translators fill app/locales.
const english: BarsLocale = {
  i18n: setupI18n({ locale: "en", messages: { en: {} } }),
  tag: "en",
  fullDayFromStylesheet: true,
  operatorLang: undefined,
};
const german: BarsLocale = {
  i18n: setupI18n({ locale: "de", messages: { de: {} } }),
  tag: "de",
  fullDayFromStylesheet: false,
  operatorLang: "en",
};
const nov12 = new Date("2026-11-12T00:00:00.000Z");

describe("the uptime bars' words", () => {
  it("tells an English day as before: its date, uptime, state and incidents", () => {
    expect(dayLabelMarkup(nov12, "outage", { uptime: "91.55", incidents: [4] }, { 4: "Sync delays" }, english)).toBe(
      "Nov 12: 91.55%, outage. Incident: Sync delays",
    );
    expect(dayLabelMarkup(nov12, "outage", undefined, {}, english)).toBe("Nov 12: 0.00%, outage");
    expect(dayLabelMarkup(nov12, "maintenance", undefined, {}, english)).toBe("Nov 12: maintenance, no downtime");
    expect(dayLabelMarkup(nov12, "none", undefined, {}, english)).toBe("Nov 12: no data");
    // A plain operational day is its date: the stylesheet adds ": 100%".
    expect(dayLabelMarkup(nov12, "operational", undefined, {}, english)).toBe("Nov 12");
    expect(dayLabelMarkup(new Date("2026-09-03T00:00:00.000Z"), "operational", undefined, {}, english)).toBe("Sep 3");
  });

  it("counts several incidents, escapes their titles and keeps them as the operator wrote them", () => {
    const titles = { 1: "Vault & Sync <slow>", 2: "Costs $& more" };
    expect(dayLabelMarkup(nov12, "operational", { incidents: [1, 2] }, titles, english)).toBe(
      "Nov 12: 100%. 2 incidents: Vault &amp; Sync &lt;slow&gt;; Costs $&amp; more",
    );
  });

  it("writes another language's dates and numbers in full, and marks the operator's English titles", () => {
    const day = formatDay(nov12, "de");
    expect(day).not.toBe("Nov 12");
    expect(dayLabelMarkup(nov12, "operational", undefined, {}, german)).toBe(
      `${day}: ${formatPercent("100", "de", 0)}`,
    );
    expect(dayLabelMarkup(nov12, "outage", { uptime: "91.55", incidents: [4] }, { 4: "Sync & co" }, german)).toBe(
      `${day}: ${formatPercent("91.55", "de")}, outage. Incident: <span lang="en">Sync &amp; co</span>`,
    );
  });

  it("leaves an operational day a bare <li>, its label whole in other languages than English", () => {
    const entry: StatusEntry = {
      name: "Kestrel Vault",
      status: "operational",
      uptime: "99.90",
      updatedAt: "2026-11-12T00:00:00.000Z",
      days: "ox",
      notes: { 1: { uptime: "50.00" } },
    };
    expect(barsHtml(entry, "2026-11-11", {}, english)).toBe(
      '<li><b>Nov 11</b></li><li tabindex="0" class="day-outage"><b>Nov 12: 50.00%, outage</b></li>',
    );
    expect(barsHtml(entry, "2026-11-11", {}, german)).toMatch(/^<li><b>11\. Nov\.: 100/);
  });
});

describe("percentages", () => {
  it("writes an uptime exactly as computed, in the page's language", () => {
    expect(formatPercent("99.90", "en")).toBe("99.90%");
    expect(formatPercent("100.00", "en")).toBe("100.00%");
    expect(formatPercent("0.01", "en")).toBe("0.01%");
    expect(formatPercent("91.55", "de")).toMatch(/^91,55\s%$/);
  });
});
