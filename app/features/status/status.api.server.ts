import express from "express";
import { LRUCache } from "lru-cache";
import { getContent } from "~/features/content/content.server";
import { getDb } from "~/platform/db.server";
import { loadStatusSnapshot } from "./status.server";

/** One read serves every request for this long: the freshness the /status page's render cache has too. */
const SNAPSHOT_TTL_MS = 1_000;

/** `GET /api/status`: public and cacheable for 30 s (operators' changes reach it within a second). */
export function createStatusApi() {
  const router = express.Router();
  // Concurrent requests share one database read and one serialisation; a failed read is not kept.
  const snapshots = new LRUCache<"snapshot", string>({
    max: 1,
    ttl: SNAPSHOT_TTL_MS,
    fetchMethod: () =>
      loadStatusSnapshot(getDb().db, getContent().site.stats).then((snapshot) => JSON.stringify(snapshot)),
  });

  router.get("/status", async (_req, res) => {
    const json = await snapshots.fetch("snapshot");
    res.set("Cache-Control", "public, max-age=30").type("application/json").send(json);
  });
  return router;
}
