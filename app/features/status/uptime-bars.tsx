import { type KeyboardEvent, useMemo } from "react";
import { escapeMarkup } from "~/lib/escape-markup";
import { DAY_BY_CODE, type DayNote, type DayWorst, type StatusEntry } from "./status";

const DAY_MS = 86_400_000;
// The list is "the last 90 days", so the day and month are enough (and every byte of 450 labels counts, docs/status.md).
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * What one bar tells, in words: its date, its uptime and that day's incidents ("Nov 20: 98.31%, outage. Incident: …");
 * a plain operational day is only its date here (the stylesheet adds its ": 100%").
 */
export function dayLabel(
  date: Date,
  worst: DayWorst,
  note: DayNote | undefined,
  incidentTitles: Record<string, string>,
): string {
  const day = `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}`;
  const state =
    worst === "none"
      ? "no data"
      : worst === "outage"
        ? `${note?.uptime ?? "0.00"}%, outage`
        : worst === "maintenance"
          ? "maintenance, no downtime"
          : undefined;
  const titles = (note?.incidents ?? []).map((id) => incidentTitles[id]).filter(Boolean);
  const incidents =
    titles.length === 0
      ? ""
      : titles.length === 1
        ? `. Incident: ${titles[0]}`
        : `. ${titles.length} incidents: ${titles.join("; ")}`;
  if (state === undefined) return incidents ? `${day}: 100%${incidents}` : day;
  return `${day}: ${state}${incidents}`;
}

/**
 * The bars as markup, oldest first: an operational day is a bare <li> (the markup repeats 450 times), the last one is
 * the row's tab stop, and <b> (the shortest element) holds the text apart from the bar.
 */
export function barsHtml(entry: StatusEntry, historyStart: string, incidentTitles: Record<string, string>): string {
  const first = Date.parse(`${historyStart}T00:00:00.000Z`);
  const last = entry.days.length - 1;
  return [...entry.days]
    .map((code, index) => {
      const worst = DAY_BY_CODE[code] ?? "none";
      const note = entry.notes[index];
      const label = escapeMarkup(dayLabel(new Date(first + index * DAY_MS), worst, note, incidentTitles));
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

/** Moves the row's one tab stop to the day the key asks for, among the days that are shown (phones hide 60). */
function moveFocus(event: KeyboardEvent<HTMLOListElement>) {
  const step = MOVES[event.key];
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
  const html = useMemo(() => barsHtml(entry, historyStart, incidentTitles), [entry, historyStart, incidentTitles]);
  return (
    // biome-ignore lint/a11y/noNoninteractiveElementInteractions: the list hands its one tab stop between its bars
    <ol
      className="day-bars relative mt-2 flex h-9 gap-px"
      aria-label={`${entry.name}: daily uptime, last 90 days`}
      onKeyDown={moveFocus}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: our own markup, every label escaped (barsHtml)
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
