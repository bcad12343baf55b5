// Discord's REST rate limits as the bot module sees them: per-bucket quotas learnt from response headers, the global
// 50 requests per second, global pauses from a 429, and the 10,000 invalid requests (401/403/429) per 10 minutes after
// which Cloudflare bans the address. Holds no I/O: the caller asks how long to wait and reports what came back.

/** Discord's documented global limit for a bot. */
export const GLOBAL_REQUESTS_PER_SECOND = 50;
/** Discord bans an address for a while after this many 401, 403 and 429 answers in ten minutes. */
export const INVALID_REQUEST_LIMIT = 10_000;
export const INVALID_REQUEST_WINDOW_MS = 10 * 60_000;
/** We stop calling well before Discord's limit: the rest is head-room for other instances and for a ban's slack. */
export const DEFAULT_INVALID_REQUEST_BUDGET = 9_000;

/** What a response said about rate limits (already read from its headers and, for a 429, its body). */
export interface RateLimitObservation {
  status: number;
  /** X-RateLimit-Bucket: the bucket this route shares with others (major parameters not included). */
  bucket?: string;
  /** X-RateLimit-Remaining */
  remaining?: number;
  /** X-RateLimit-Reset-After, in milliseconds. */
  resetAfterMs?: number;
  /** A 429's `retry_after` (body) or Retry-After (header), in milliseconds. */
  retryAfterMs?: number;
  /** X-RateLimit-Global, or `global: true` in a 429's body. */
  global?: boolean;
  /** X-RateLimit-Scope on a 429: `shared` ones do not count against the invalid request limit. */
  scope?: string;
}

/** A route as Discord limits it: method, path with minor ids replaced, and the major parameter (the channel id). */
export interface RouteKey {
  /** `POST /channels/:channel/messages/:id/threads` */
  route: string;
  /** The top-level resource (channel id) the limit is counted for, separately from other channels. */
  major: string;
}

/**
 * The route key of a request path under the API base: `/channels/123/messages/456` → route
 * `GET /channels/:channel/messages/:id`, major `123`. Reactions share one route whatever the emoji.
 */
export function routeKey(method: string, path: string): RouteKey {
  const parts = path.split("?")[0]?.split("/").filter(Boolean) ?? [];
  let major = "";
  const route = parts.map((part, i) => {
    const previous = parts[i - 1];
    if (previous === "channels" || previous === "guilds" || previous === "webhooks") {
      if (i === 1) major = part;
      return `:${previous.slice(0, -1)}`;
    }
    if (previous === "reactions") return ":emoji";
    return /^\d+$/.test(part) ? ":id" : part;
  });
  return { route: `${method.toUpperCase()} /${route.join("/")}`, major };
}

interface BucketState {
  remaining: number;
  resetAt: number;
}

export interface RateLimitTrackerOptions {
  now?: () => number;
  globalPerSecond?: number;
  /** Invalid requests allowed in the window before we stop calling (default 9,000 of Discord's 10,000). */
  invalidRequestBudget?: number;
  invalidRequestWindowMs?: number;
}

export interface RateLimitTracker {
  /**
   * How long to wait before this request may go (0: now). A request that may go now takes its place at once (one
   * of the bucket's remaining requests and a slot of the global second), so callers running together queue up.
   */
  reserve(key: RouteKey): number;
  /** Records what a response said: the bucket it belongs to, what is left in it, a 429's wait. */
  record(key: RouteKey, observation: RateLimitObservation): void;
  /** 401, 403 and 429 answers (not shared-scope 429s) in the last ten minutes. */
  invalidRequests(): number;
  /** True once the invalid requests reach the budget: the caller must stop calling until the window moves on. */
  invalidBudgetExhausted(): boolean;
  /** The bucket a route was last seen in, if any (for tests and logs). */
  bucketOf(key: RouteKey): string | undefined;
}

export function createRateLimitTracker(options: RateLimitTrackerOptions = {}): RateLimitTracker {
  const now = options.now ?? Date.now;
  const perSecond = options.globalPerSecond ?? GLOBAL_REQUESTS_PER_SECOND;
  const budget = options.invalidRequestBudget ?? DEFAULT_INVALID_REQUEST_BUDGET;
  const windowMs = options.invalidRequestWindowMs ?? INVALID_REQUEST_WINDOW_MS;
  /** route → bucket hash, learnt from X-RateLimit-Bucket. */
  const bucketOfRoute = new Map<string, string>();
  /** `${bucket}:${major}` (or `route:${route}:${major}` until the bucket is known) → its quota. */
  const buckets = new Map<string, BucketState>();
  /** When each of the last requests went, for the global per-second limit. */
  const sent: number[] = [];
  let globalPausedUntil = 0;
  /** When each invalid request was answered, oldest first. */
  const invalid: number[] = [];

  const stateKey = (key: RouteKey) => {
    const bucket = bucketOfRoute.get(key.route);
    return bucket === undefined ? `route:${key.route}:${key.major}` : `${bucket}:${key.major}`;
  };
  const forgetOldInvalid = (at: number) => {
    while (invalid.length > 0 && (invalid[0] ?? 0) <= at - windowMs) invalid.shift();
  };

  return {
    reserve(key) {
      const at = now();
      if (globalPausedUntil > at) return globalPausedUntil - at;
      const state = buckets.get(stateKey(key));
      if (state && state.resetAt <= at) buckets.delete(stateKey(key));
      else if (state && state.remaining <= 0) return state.resetAt - at;
      while (sent.length > 0 && (sent[0] ?? 0) <= at - 1000) sent.shift();
      if (sent.length >= perSecond) return (sent[0] ?? at) + 1000 - at;
      sent.push(at);
      if (state && state.resetAt > at) state.remaining -= 1;
      return 0;
    },
    record(key, observation) {
      const at = now();
      if (observation.bucket) bucketOfRoute.set(key.route, observation.bucket);
      const state = stateKey(key);
      if (observation.status === 429) {
        const wait = observation.retryAfterMs ?? observation.resetAfterMs ?? 1000;
        if (observation.global) globalPausedUntil = Math.max(globalPausedUntil, at + wait);
        else buckets.set(state, { remaining: 0, resetAt: at + wait });
      } else if (observation.remaining !== undefined && observation.resetAfterMs !== undefined) {
        buckets.set(state, { remaining: observation.remaining, resetAt: at + observation.resetAfterMs });
      }
      const countsAsInvalid =
        observation.status === 401 ||
        observation.status === 403 ||
        (observation.status === 429 && observation.scope !== "shared");
      if (countsAsInvalid) invalid.push(at);
    },
    invalidRequests() {
      forgetOldInvalid(now());
      return invalid.length;
    },
    invalidBudgetExhausted() {
      forgetOldInvalid(now());
      return invalid.length >= budget;
    },
    bucketOf(key) {
      return bucketOfRoute.get(key.route);
    },
  };
}
