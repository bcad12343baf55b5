import express from "express";
import { type AnyLocale, DEFAULT_LOCALE, isLocale, PSEUDO_LOCALE } from "~/features/i18n/locales";
import { getEnv } from "~/platform/env.server";
import { RECENT_SALES_PATH } from "./recent-sales";
import { type RecentSalesReader, recentSalesReader } from "./recent-sales.server";

function requestedLocale(value: unknown): AnyLocale | undefined {
  if (value === undefined) return DEFAULT_LOCALE;
  if (typeof value !== "string") return undefined;
  if (value === PSEUDO_LOCALE) return getEnv().PSEUDO_LOCALE === "on" ? PSEUDO_LOCALE : undefined;
  return isLocale(value) ? value : undefined;
}

/**
 * `GET /api/recent-sales[?locale=de]` → `{sales: [{product, variant, country, at}]}`: public, the same for everyone,
 * so shared caches may keep it for a minute (the server keeps its read as long). Empty when the notice is off or
 * fewer than 3 real sales fall in the last 7 days.
 */
export function createRecentSalesApi(read: () => RecentSalesReader = recentSalesReader) {
  const router = express.Router();
  router.get(RECENT_SALES_PATH.replace(/^\/api/, ""), async (req, res) => {
    const locale = requestedLocale(req.query.locale);
    if (locale === undefined) {
      res.status(400).json({ error: "Unknown locale" });
      return;
    }
    const sales = await read()(locale);
    res.set("Cache-Control", "public, max-age=60").json({ sales });
  });
  return router;
}
