import { setupI18n } from "@lingui/core";
import { describe, expect, it } from "vitest";
import { formatCalendarDay } from "./calendar-day";

const i18nIn = (locale: string) => setupI18n({ locale, messages: { [locale]: {} } });

describe("formatCalendarDay", () => {
  it("writes a day the way the page's language writes it", () => {
    expect(formatCalendarDay(i18nIn("en"), "2026-11-12")).toBe("Nov 12, 2026");
    expect(formatCalendarDay(i18nIn("de"), "2026-11-12")).toBe("12. Nov. 2026");
    expect(formatCalendarDay(i18nIn("de"), "2026-11-01", "long")).toBe("1. November 2026");
    expect(formatCalendarDay(i18nIn("pt-br"), "2026-11-12", "long")).toBe("12 de novembro de 2026");
  });

  it("writes the day it was given whatever the machine's time zone (the server and the browser agree)", () => {
    expect(formatCalendarDay(i18nIn("en"), "2026-01-01")).toBe("Jan 1, 2026");
    expect(formatCalendarDay(i18nIn("en"), "2026-12-31")).toBe("Dec 31, 2026");
  });
});
