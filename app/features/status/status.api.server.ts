import express from "express";
import { LRUCache } from "lru-cache";
import { getContent } from "~/features/content/content.server";
import { type AnyLocale, DEFAULT_LOCALE, isLocale, PSEUDO_LOCALE } from "~/features/i18n/locales";
import { getDb } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { statusGeneration } from "./status-news.server";
import { loadStatusSnapshot } from "./status.server";

/** One read serves every request for this long: the freshness the /status page's render cache has too. */
const SNAPSHOT_TTL_MS = 1_000;

/** The language asked for (`?locale=de`; none is the default language), or undefined when it names none we serve. */
function requestedLocale(value: unknown): AnyLocale | undefined {
  if (value === undefined) return DEFAULT_LOCALE;
  if (typeof value !== "string") return undefined;
  if (value === PSEUDO_LOCALE) return getEnv().PSEUDO_LOCALE === "on" ? PSEUDO_LOCALE : undefined;
  return isLocale(value) ? value : undefined;
}

/**
 * `GET /api/status[?locale=de]`: public and cacheable for 30 s (operators' changes reach it within a second). The
 * summary's figures are the shop's content, so they come in the language the page asking is in.
 */
export function createStatusApi() {
  const router = express.Router();
  // Concurrent requests share one database read and one serialisation per language; a failed read is not kept.
  // Keyed by the status generation too: a change announced by any instance is read at the next request.
  const snapshots = new LRUCache<string, string, AnyLocale>({
    max: 8,
    ttl: SNAPSHOT_TTL_MS,
    fetchMethod: (_key, _stale, { context: locale }) =>
      loadStatusSnapshot(getDb().db, getContent(locale).site.stats).then((snapshot) => JSON.stringify(snapshot)),
  });

  router.get("/status", async (req, res) => {
    const locale = requestedLocale(req.query.locale);
    if (locale === undefined) {
      res.status(400).json({ error: "Unknown locale" });
      return;
    }
    const json = await snapshots.fetch(`${statusGeneration()} ${locale}`, { context: locale });
    res.set("Cache-Control", "public, max-age=30").type("application/json").send(json);
  });
  return router;
}
