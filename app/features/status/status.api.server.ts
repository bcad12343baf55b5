import express from "express";
import { getContent } from "~/features/content/content.server";
import { getDb } from "~/server/db.server";
import { loadStatusSnapshot } from "./status.server";

/** One read serves every request for this long: the freshness the /status page's render cache has too. */
const SNAPSHOT_TTL_MS = 1_000;

/** `GET /api/status`: public and cacheable for 30 s (operators' changes reach it within a second). */
export function createStatusApi() {
  const router = express.Router();
  let latest: { json: Promise<string>; expiresAt: number } | undefined;

  // Concurrent requests share one database read and one serialisation; a failed read is not kept.
  function snapshotJson(): Promise<string> {
    const now = Date.now();
    if (!latest || latest.expiresAt <= now) {
      const json = loadStatusSnapshot(getDb().db, getContent().site.stats).then((snapshot) => JSON.stringify(snapshot));
      const entry = { json, expiresAt: now + SNAPSHOT_TTL_MS };
      latest = entry;
      json.catch(() => {
        if (latest === entry) latest = undefined;
      });
    }
    return latest.json;
  }

  router.get("/status", async (_req, res) => {
    const json = await snapshotJson();
    res.set("Cache-Control", "public, max-age=30").type("application/json").send(json);
  });
  return router;
}
