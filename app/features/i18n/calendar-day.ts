import type { I18n } from "@lingui/core";

/**
 * A calendar day written as `YYYY-MM-DD` in the page's language: "Nov 12, 2026", "12. Nov. 2026" (`month: "long"`:
 * "November 12, 2026"). Read and written in UTC, so the server and every browser write the same day.
 */
export function formatCalendarDay(i18n: I18n, day: string, month: "short" | "long" = "short"): string {
  return i18n.date(new Date(`${day}T00:00:00Z`), { year: "numeric", month, day: "numeric", timeZone: "UTC" });
}
