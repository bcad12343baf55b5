import type express from "express";
import { type RateLimiterAbstract, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { logger } from "./logger.server";
import { getRedis } from "./redis.server";

/** An abuse limit per client IP (docs/decisions/010), declared by the API router it protects. */
export interface RateLimitPolicy {
  /** Names the counters (`kestrel:rl:<name>` in Redis); one name per limit. */
  name: string;
  points: number;
  durationSeconds: number;
  /** The 429 answer's `{error}`. */
  error: string;
}

/** Memory store in embedded mode; Redis (shared by every instance) when REDIS_URL is set, memory while Redis is down. */
function createLimiter({ name, points, durationSeconds }: RateLimitPolicy): RateLimiterAbstract {
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

/** A limit spent from code (a page's action) rather than as middleware: `ok`, or how long until the next point. */
export interface RateLimiter {
  consume(key: string): Promise<{ ok: true } | { ok: false; retryAfterSeconds: number }>;
}

export function createRateLimiter(policy: RateLimitPolicy): RateLimiter {
  const limiter = createLimiter(policy);
  return {
    async consume(key) {
      try {
        await limiter.consume(key);
        return { ok: true };
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes)
          return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
        // A store failure must not lock buyers out: let the request through and say so in the log.
        logger.warn({ err: rejection, limit: policy.name }, "rate limiter unavailable");
        return { ok: true };
      }
    },
  };
}

/**
 * Express middleware that spends one point per request and answers 429 JSON `{error}` with Retry-After when spent.
 * Put it before the route's body parser, so a flood is turned away before any body is read.
 */
export function rateLimit(policy: RateLimitPolicy): express.RequestHandler {
  const limiter = createLimiter(policy);
  return async (req, res, next) => {
    const key = req.ip ?? req.socket.remoteAddress ?? "unknown";
    try {
      const result = await limiter.consume(key);
      res.set("RateLimit-Limit", String(policy.points));
      res.set("RateLimit-Remaining", String(result.remainingPoints));
      next();
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        res.set("Retry-After", String(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000))));
        res.status(429).json({ error: policy.error });
        return;
      }
      // A store failure must not lock buyers out: let the request through and say so in the log.
      logger.warn({ err: rejection, limit: policy.name }, "rate limiter unavailable");
      next();
    }
  };
}
