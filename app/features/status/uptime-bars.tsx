import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { DAY_BY_CODE, type DayNote, type DayWorst, type StatusEntry } from "./status";

const DAY_MS = 86_400_000;
// The list is "the last 90 days", so the day and month are enough (and every byte of 450 labels counts, docs/status.md).
const DATE_FORMAT = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

/**
 * What one bar tells, in words: its date, its uptime and that day's incidents ("Nov 20: 98.31%, outage. Incident: …");
 * a plain operational day is only its date here.
 */
export function dayLabel(date: Date, worst: DayWorst, note: DayNote | undefined, incidentTitles: Record<string, string>): string {
  const day = DATE_FORMAT.format(date);
  const state =
    worst === "none" ? "no data" : worst === "outage" ? `${note?.uptime ?? "0.00"}%, outage` : worst === "maintenance" ? "maintenance, no downtime" : undefined;
  const titles = (note?.incidents ?? []).map((id) => incidentTitles[id]).filter(Boolean);
  const incidents = titles.length === 0 ? "" : titles.length === 1 ? `. Incident: ${titles[0]}` : `. ${titles.length} incidents: ${titles.join("; ")}`;
  // An operational day's ": 100%" is added by the stylesheet (app.css), unless incidents follow it.
  if (state === undefined) return incidents ? `${day}: 100%${incidents}` : day;
  return `${day}: ${state}${incidents}`;
}

const MOVES: Record<string, (index: number, last: number) => number> = {
  ArrowLeft: (i) => i - 1,
  ArrowRight: (i) => i + 1,
  Home: () => 0,
  End: (_i, last) => last,
};

/**
 * One product's 90 daily bars, oldest first. One bar per row is in the tab order (today's); the arrow keys, Home and
 * End move between the days that are shown, and each bar's text is its tooltip and what a screen reader reads.
 * Operational days carry no class and only the tab stop a tabindex: the markup repeats 450 times.
 */
export function UptimeBars({ entry, historyStart, incidentTitles }: { entry: StatusEntry; historyStart: string; incidentTitles: Record<string, string> }) {
  const days = [...entry.days];
  const [focused, setFocused] = useState(days.length - 1);
  const moved = useRef(false);
  const list = useRef<HTMLOListElement>(null);
  const first = Date.parse(`${historyStart}T00:00:00.000Z`);

  // The bar to focus gets its tabindex in this render: focus it once it has one.
  useEffect(() => {
    if (moved.current) (list.current?.children[focused] as HTMLElement | undefined)?.focus();
    moved.current = false;
  }, [focused]);

  function move(event: KeyboardEvent<HTMLOListElement>) {
    const step = MOVES[event.key];
    if (!step) return;
    const bars = [...event.currentTarget.children] as HTMLElement[];
    // Phones hide the oldest 60 days: stay among the bars that are shown.
    const shown = bars.flatMap((bar, index) => (bar.offsetParent === null ? [] : [index]));
    const at = Math.max(0, shown.indexOf(focused));
    const next = shown[Math.min(shown.length - 1, Math.max(0, step(at, shown.length - 1)))];
    if (next === undefined) return;
    event.preventDefault();
    moved.current = true;
    setFocused(next);
  }

  return (
    // biome-ignore lint/a11y/noNoninteractiveElementInteractions: the list hands focus between its bars (a roving tab stop)
    <ol ref={list} className="day-bars relative mt-2 flex h-9 gap-px" aria-label={`${entry.name}: daily uptime, last 90 days`} onKeyDown={move}>
      {days.map((code, index) => {
        const worst = DAY_BY_CODE[code] ?? "none";
        return (
          <li key={first + index * DAY_MS} tabIndex={index === focused ? 0 : undefined} className={worst === "operational" && !entry.notes[index] ? undefined : `day-${worst}`}>
            {/* <b>: the shortest element to hold the text apart from the bar (450 of them), styled as plain text. */}
            <b>{dayLabel(new Date(first + index * DAY_MS), worst, entry.notes[index], incidentTitles)}</b>
          </li>
        );
      })}
    </ol>
  );
}
