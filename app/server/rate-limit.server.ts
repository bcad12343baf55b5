import type express from "express";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { logger } from "./logger.server";
import { getRedis } from "./redis.server";

/** Abuse limits per client IP (docs/decisions/010). Shop notifications are deliberately absent: they are signature-checked. */
export const RATE_LIMITS = {
  checkout: { points: 10, durationSeconds: 60, error: "Too many checkout attempts. Please wait a minute and try again." },
  support: { points: 5, durationSeconds: 600, error: "Too many support requests. Please wait a few minutes and try again." },
  orderStatus: { points: 60, durationSeconds: 60, error: "Too many order status requests. Please slow down." },
} as const;

export type RateLimitName = keyof typeof RATE_LIMITS;

/** Memory store in embedded mode; Redis (shared by every instance) when REDIS_URL is set, memory while Redis is down. */
function createLimiter(name: RateLimitName): RateLimiterAbstract {
  const { points, durationSeconds } = RATE_LIMITS[name];
  const memory = new RateLimiterMemory({ keyPrefix: `rl:${name}`, points, duration: durationSeconds });
  const redis = getRedis();
  if (!redis) return memory;
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `kestrel:rl:${name}`,
    points,
    duration: durationSeconds,
    rejectIfRedisNotReady: true,
    insuranceLimiter: memory,
  });
}

/** Express middleware that spends one point per request and answers 429 JSON `{error}` with Retry-After when spent. */
export function rateLimit(name: RateLimitName): express.RequestHandler {
  const limiter = createLimiter(name);
  return async (req, res, next) => {
    const key = req.ip ?? req.socket.remoteAddress ?? "unknown";
    try {
      const result = await limiter.consume(key);
      res.set("RateLimit-Limit", String(RATE_LIMITS[name].points));
      res.set("RateLimit-Remaining", String(result.remainingPoints));
      next();
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        res.set("Retry-After", String(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000))));
        res.status(429).json({ error: RATE_LIMITS[name].error });
        return;
      }
      // A store failure must not lock buyers out: let the request through and say so in the log.
      logger.warn({ err: rejection, limit: name }, "rate limiter unavailable");
      next();
    }
  };
}

/** Mounted on the /api router before the feature routers, by path. */
export function mountRateLimits(api: express.Router) {
  api.post("/checkout", rateLimit("checkout"));
  api.post(["/support", "/support/{*rest}"], rateLimit("support"));
  api.get("/orders/{*rest}", rateLimit("orderStatus"));
}
