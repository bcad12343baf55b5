import type http from "node:http";
import { readOutboxDepth } from "~/features/support-relay/support-outbox.server";
import { getDb } from "~/platform/db.server";
import { logger } from "~/platform/logger.server";
import { metricsRegistry, supportOutboxDepth } from "~/platform/metrics.server";

async function refreshOutboxDepth() {
  try {
    await readOutboxDepth(getDb().db);
  } catch (error) {
    // Absent rather than stale while the database cannot be read; every other metric is still served.
    supportOutboxDepth.reset();
    logger.warn(
      { err: { message: error instanceof Error ? error.message : String(error) } },
      "metrics: support outbox depth unavailable",
    );
  }
}

/** The metrics port's one answer: GET /metrics in Prometheus text format, the outbox depth read from the database per scrape. */
export function createMetricsListener(): http.RequestListener {
  return async (req, res) => {
    if ((req.url ?? "").split("?")[0] !== "/metrics") {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found: metrics are at /metrics\n");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res
        .writeHead(405, { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" })
        .end("Method not allowed\n");
      return;
    }
    try {
      await refreshOutboxDepth();
      const body = await metricsRegistry.metrics();
      res
        .writeHead(200, { "Content-Type": metricsRegistry.contentType, "Cache-Control": "no-store" })
        .end(req.method === "HEAD" ? undefined : body);
    } catch (error) {
      logger.error({ err: error }, "metrics: scrape failed");
      res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end("Metrics unavailable\n");
    }
  };
}
