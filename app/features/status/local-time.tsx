import { useSyncExternalStore } from "react";

/** True after hydration: times render in UTC on the server and in the visitor's zone in the browser. */
export function useHydrated() {
  return useSyncExternalStore(
    () => () => {},
    () => true,
    () => false,
  );
}

const DATE_TIME: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" };

/** A date and time: UTC (and labelled so) until the page is hydrated, then the visitor's own zone. */
export function LocalTime({ iso }: { iso: string }) {
  const local = useHydrated();
  const text = new Date(iso).toLocaleString("en-US", local ? DATE_TIME : { ...DATE_TIME, timeZone: "UTC" });
  return <time dateTime={iso}>{local ? text : `${text} UTC`}</time>;
}

/** "2 h 5 min", "12 min", "3 d 4 h": how long something lasted. */
export function formatDuration(fromIso: string, toIso: string): string {
  const minutes = Math.max(0, Math.round((Date.parse(toIso) - Date.parse(fromIso)) / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return rest > 0 ? `${hours} h ${rest} min` : `${hours} h`;
  return `${rest} min`;
}
