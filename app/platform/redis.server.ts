import { createRequire } from "node:module";
import type { Redis } from "ioredis";
import { getEnv } from "./env.server";
import { logger } from "./logger.server";

let client: Redis | undefined;

/** The shared Redis connection when REDIS_URL is set (rate limits, captcha replay); undefined in embedded mode. */
export function getRedis(): Redis | undefined {
  const url = getEnv().REDIS_URL;
  if (!url) return undefined;
  if (!client) {
    // Loaded only when configured: embedded mode never pays ioredis's memory (~2.5 MB heap, more RSS).
    const { Redis: RedisClient } = createRequire(import.meta.url)("ioredis") as typeof import("ioredis");
    // Commands fail fast while Redis is down (callers fall back) instead of queueing behind a dead connection.
    client = new RedisClient(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      connectTimeout: 2_000,
      lazyConnect: false,
    });
    // The URL may carry a password: log the failure, never the URL; once per outage, not per reconnect attempt.
    let reported = false;
    client.on("ready", () => {
      reported = false;
    });
    client.on("error", (error: Error) => {
      if (reported) return;
      reported = true;
      logger.warn(
        { err: { message: error.message } },
        "redis unavailable; using in-process fallbacks until it is back",
      );
    });
  }
  return client;
}

export async function closeRedis() {
  const current = client;
  client = undefined;
  // QUIT needs a live connection; while Redis is down the connection is dropped instead of waiting for it.
  if (current?.status === "ready") await current.quit().catch(() => current.disconnect());
  else current?.disconnect();
}
