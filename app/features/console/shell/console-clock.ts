import { useLocale } from "~/features/i18n/use-locale";

/** Times in the console are shown in UTC, so the server's page and the browser's agree to the minute. */
export function useConsoleTime() {
  const { tag } = useLocale();
  const format = new Intl.DateTimeFormat(tag, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
  return (iso: string | null) => (iso ? `${format.format(new Date(iso))} UTC` : "—");
}
