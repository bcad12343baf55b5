import express from "express";
import { getContent } from "~/features/content/content.server";
import { getDb } from "~/server/db.server";
import { loadStatusSnapshot } from "./status.server";

/** `GET /api/status`: public and cacheable for 30 s (operators' changes show within that). */
export function createStatusApi() {
  const router = express.Router();
  router.get("/status", async (_req, res) => {
    const snapshot = await loadStatusSnapshot(getDb().db, getContent().site.stats);
    res.set("Cache-Control", "public, max-age=30").json(snapshot);
  });
  return router;
}
