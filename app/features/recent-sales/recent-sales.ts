// The recent-sales notice (issue 36): "Someone in 🇩🇪 Germany bought Kestrel Studio · 30 days, 2 hours ago". Only real
// sales: completed, not refunded, in the last 7 days, and none at all until there are 3 of them. What reaches the
// browser is the product, the duration, the country code and the hour: never the buyer's email, name, amount or address.

/** One sale as the browser receives it. */
export interface RecentSale {
  product: string;
  /** The duration bought, when the catalogue still has it. */
  variant: string | null;
  /** ISO 3166-1 alpha-2, upper case, when the shop knows it. */
  country: string | null;
  /** When it was completed, rounded down to the hour (ISO 8601). */
  at: string;
}

export const HOUR_MS = 3_600_000;
export const RECENT_SALES_WINDOW_MS = 7 * 24 * HOUR_MS;
/** Fewer real sales than this in the window: no notice at all. */
export const MIN_RECENT_SALES = 3;
/** The most the endpoint answers (newest first). */
export const MAX_RECENT_SALES = 10;
/** The notice shows at most one sale every 20 s. */
export const RECENT_SALE_INTERVAL_MS = 20_000;
export const RECENT_SALES_PATH = "/api/recent-sales";
/** The visit's "hide" (sessionStorage): hidden for the rest of the visit, back on the next one. */
export const RECENT_SALES_HIDDEN_KEY = "kestrel-recent-sales-hidden";

/** The time of a sale as the browser may see it: rounded down to the hour. */
export function roundedToHour(ms: number): string {
  return new Date(Math.floor(ms / HOUR_MS) * HOUR_MS).toISOString();
}

/** The flag emoji of a country code (two regional indicator symbols), or "" for anything that is not one. */
export function flagEmoji(code: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return "";
  return String.fromCodePoint(...[...code].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

/** "2 hours ago", "3 days ago" in the page's language, from whole hours (the sale's time is rounded to the hour). */
export function timeAgo(at: string, now: number, languageTag: string): string {
  const hours = Math.max(0, Math.floor((now - Date.parse(at)) / HOUR_MS));
  const format = new Intl.RelativeTimeFormat(languageTag, { numeric: "auto" });
  return hours >= 48 ? format.format(-Math.floor(hours / 24), "day") : format.format(-hours, "hour");
}
