import type { I18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { useLingui } from "@lingui/react/macro";
import { useSyncExternalStore } from "react";
import { useLocale } from "~/features/i18n/use-locale";

/** True after hydration: times render in UTC on the server and in the visitor's zone in the browser. */
export function useHydrated() {
  return useSyncExternalStore(
    () => () => {},
    () => true,
    () => false,
  );
}

const DATE_TIME: Intl.DateTimeFormatOptions = { dateStyle: "medium", timeStyle: "short" };

/** A date and time in the page's language: UTC (and labelled so) until the page is hydrated, then the visitor's own zone. */
export function LocalTime({ iso }: { iso: string }) {
  const local = useHydrated();
  const { t } = useLingui();
  const { tag } = useLocale();
  const time = new Date(iso).toLocaleString(tag, local ? DATE_TIME : { ...DATE_TIME, timeZone: "UTC" });
  return (
    <time dateTime={iso}>
      {local
        ? time
        : t({ message: `${time} UTC`, comment: "A time in UTC, shown until the page knows the visitor's time zone" })}
    </time>
  );
}

/** "2 h 5 min", "12 min", "3 d 4 h": how long something lasted, in the page's language. */
export function formatDuration(i18n: I18n, fromIso: string, toIso: string): string {
  const minutes = Math.max(0, Math.round((Date.parse(toIso) - Date.parse(fromIso)) / 60_000));
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  // Abbreviated units, as in "lasted 2 h 5 min" (d: days, h: hours, min: minutes).
  if (days > 0)
    return hours > 0
      ? i18n._(msg({ message: `${days} d ${hours} h`, comment: "Duration: days and hours, abbreviated" }))
      : i18n._(msg({ message: `${days} d`, comment: "Duration: days, abbreviated" }));
  if (hours > 0)
    return rest > 0
      ? i18n._(msg({ message: `${hours} h ${rest} min`, comment: "Duration: hours and minutes, abbreviated" }))
      : i18n._(msg({ message: `${hours} h`, comment: "Duration: hours, abbreviated" }));
  return i18n._(msg({ message: `${rest} min`, comment: "Duration: minutes, abbreviated" }));
}
