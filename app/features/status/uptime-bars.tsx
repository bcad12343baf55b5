import type { I18n } from "@lingui/core";
import { msg, plural } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { type KeyboardEvent, useMemo } from "react";
import { DEFAULT_LOCALE } from "~/features/i18n/locales";
import { useLocale } from "~/features/i18n/use-locale";
import { escapeMarkup } from "~/lib/escape-markup";
import { DAY_BY_CODE, type DayNote, type DayWorst, operatorTextLang, type StatusEntry } from "./status";
import { formatDay, formatPercent } from "./status-format";

const DAY_MS = 86_400_000;
/** Stands for the incidents' titles while their sentence is translated and escaped; the titles go in as markup after. */
const TITLES_SLOT = "\u{E000}";

/** The page a row of bars is written for: its messages, its language's formats, and its words for operators' text. */
export interface BarsLocale {
  i18n: I18n;
  /** The BCP 47 tag dates and numbers are formatted in. */
  tag: string;
  /**
   * On English pages (`<html lang="en">`) a plain operational day is only its date and the stylesheet adds ": 100%"
   * (the markup repeats 450 times, docs/status.md); other languages write the whole label in the markup.
   */
  fullDayFromStylesheet: boolean;
  /** The `lang` incident titles are marked with, when the page is in another language than the operator's. */
  operatorLang: string | undefined;
}

function dayState(worst: DayWorst, note: DayNote | undefined, page: BarsLocale): string | undefined {
  const { i18n } = page;
  if (worst === "none")
    return i18n._(msg({ message: "no data", comment: "A day on the status page's uptime bars: nothing was measured" }));
  if (worst === "maintenance") return i18n._(msg`maintenance, no downtime`);
  if (worst === "outage") {
    const uptime = formatPercent(note?.uptime ?? "0.00", page.tag);
    return i18n._(msg({ message: `${uptime}, outage`, comment: "A day with downtime on the uptime bars: its uptime" }));
  }
  return undefined;
}

/**
 * What one bar tells, as markup: its date, its uptime and that day's incidents ("Nov 20: 98.31%, outage. Incident: …");
 * in the default language a plain operational day is only its date here (the stylesheet adds its ": 100%").
 */
export function dayLabelMarkup(
  date: Date,
  worst: DayWorst,
  note: DayNote | undefined,
  incidentTitles: Record<string, string>,
  page: BarsLocale,
): string {
  const { i18n, tag } = page;
  const day = formatDay(date, tag);
  const titles = (note?.incidents ?? []).map((id) => incidentTitles[id]).filter(Boolean);
  const plainDay = worst === "operational" && titles.length === 0 && page.fullDayFromStylesheet;
  const state = dayState(worst, note, page) ?? (plainDay ? undefined : formatPercent("100", tag, 0));
  const label =
    state === undefined
      ? day
      : i18n._(msg({ message: `${day}: ${state}`, comment: "A day on the status page's uptime bars: date and state" }));
  if (titles.length === 0) return escapeMarkup(label);
  const count = titles.length;
  const incidents = TITLES_SLOT;
  const sentence = i18n._(
    msg({
      message: plural(count, { 1: `${label}. Incident: ${incidents}`, other: `${label}. # incidents: ${incidents}` }),
      comment: "A day on the uptime bars with its incidents; the titles are the operator's, separated by semicolons",
    }),
  );
  const list = escapeMarkup(titles.join("; "));
  const titlesMarkup = page.operatorLang ? `<span lang="${page.operatorLang}">${list}</span>` : list;
  return escapeMarkup(sentence).replace(TITLES_SLOT, () => titlesMarkup);
}

/**
 * The bars as markup, oldest first: an operational day is a bare <li> (the markup repeats 450 times), the last one is
 * the row's tab stop, and <b> (the shortest element) holds the text apart from the bar.
 */
export function barsHtml(
  entry: StatusEntry,
  historyStart: string,
  incidentTitles: Record<string, string>,
  page: BarsLocale,
): string {
  const first = Date.parse(`${historyStart}T00:00:00.000Z`);
  const last = entry.days.length - 1;
  return [...entry.days]
    .map((code, index) => {
      const worst = DAY_BY_CODE[code] ?? "none";
      const note = entry.notes[index];
      const label = dayLabelMarkup(new Date(first + index * DAY_MS), worst, note, incidentTitles, page);
      const className = worst === "operational" && !note ? "" : ` class="day-${worst}"`;
      return `<li${index === last ? ' tabindex="0"' : ""}${className}><b>${label}</b></li>`;
    })
    .join("");
}

const MOVES: Record<string, (index: number, last: number) => number> = {
  ArrowLeft: (i) => i - 1,
  ArrowRight: (i) => i + 1,
  Home: () => 0,
  End: (_i, last) => last,
};
/** Right to left the row runs from today on the left: the arrow keys move the other way through the days. */
const RTL_KEYS: Record<string, string> = { ArrowLeft: "ArrowRight", ArrowRight: "ArrowLeft" };

/** Moves the row's one tab stop to the day the key asks for, among the days that are shown (phones hide 60). */
function moveFocus(event: KeyboardEvent<HTMLOListElement>) {
  const rtl = getComputedStyle(event.currentTarget).direction === "rtl";
  const step = MOVES[(rtl && RTL_KEYS[event.key]) || event.key];
  const current = event.target as HTMLElement;
  if (!step || current.parentElement !== event.currentTarget) return;
  const bars = [...event.currentTarget.children] as HTMLElement[];
  const shown = bars.filter((bar) => bar.offsetParent !== null);
  const next = shown[Math.min(shown.length - 1, Math.max(0, step(shown.indexOf(current), shown.length - 1)))];
  if (!next || next === current) return;
  event.preventDefault();
  next.tabIndex = 0;
  next.focus();
  current.removeAttribute("tabindex");
}

/**
 * One product's 90 daily bars. Each bar's text is its tooltip and what a screen reader reads. The bars are one
 * string of markup, not 1,350 nodes for React to hydrate: hydrating them doubled the page's blocking time
 * (docs/performance.md, "The status page that measures").
 */
export function UptimeBars({
  entry,
  historyStart,
  incidentTitles,
}: {
  entry: StatusEntry;
  historyStart: string;
  incidentTitles: Record<string, string>;
}) {
  const { i18n, t } = useLingui();
  const { locale, tag } = useLocale();
  const html = useMemo(
    () =>
      barsHtml(entry, historyStart, incidentTitles, {
        i18n,
        tag,
        fullDayFromStylesheet: locale === DEFAULT_LOCALE,
        operatorLang: operatorTextLang(locale),
      }),
    [entry, historyStart, incidentTitles, i18n, tag, locale],
  );
  const product = entry.name;
  return (
    // biome-ignore lint/a11y/noNoninteractiveElementInteractions: the list hands its one tab stop between its bars
    <ol
      className="day-bars relative mt-2 flex h-9 gap-px"
      aria-label={t`${product}: daily uptime, last 90 days`}
      onKeyDown={moveFocus}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: our own markup, every label escaped (barsHtml)
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
