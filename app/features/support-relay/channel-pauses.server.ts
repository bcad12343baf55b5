// How long the chat channel asked us to wait (a 429's retry_after): every worker of every instance holds back until then.
import crypto from "node:crypto";
import type { Redis } from "ioredis";
import type { Kysely } from "kysely";
import { logger } from "~/platform/logger.server";
import type { Database } from "../../../db/schema";

export interface ChannelPauseStore {
  /** When the channel may be posted to again, or null when it is not paused at `now`. */
  pausedUntil(channel: string, now: Date): Promise<Date | null>;
  /** Pauses the channel until `until`; a later pause already stored stays. */
  pause(channel: string, until: Date, now: Date): Promise<void>;
}

/** The channel's name in shared stores: a digest, because the webhook URL itself is a secret. */
export function channelKey(webhookUrl: string): string {
  return crypto.createHash("sha256").update(webhookUrl).digest("hex").slice(0, 32);
}

/** Pauses in the `channel_pauses` table (embedded mode, or PostgreSQL without Redis). */
export function databaseChannelPauses(db: Kysely<Database>): ChannelPauseStore {
  return {
    async pausedUntil(channel, now) {
      const row = await db
        .selectFrom("channel_pauses")
        .select("paused_until")
        .where("channel", "=", channel)
        .executeTakeFirst();
      return row && row.paused_until > now.toISOString() ? new Date(row.paused_until) : null;
    },
    async pause(channel, until) {
      const pausedUntil = until.toISOString();
      await db
        .insertInto("channel_pauses")
        .values({ channel, paused_until: pausedUntil })
        .onConflict((conflict) =>
          conflict
            .column("channel")
            .doUpdateSet({ paused_until: pausedUntil })
            .where("channel_pauses.paused_until", "<", pausedUntil),
        )
        .execute();
    },
  };
}

// Keeps the later of the stored and the new pause, and lets Redis forget it once it has passed.
const PAUSE_SCRIPT = `local current = tonumber(redis.call('GET', KEYS[1]) or '0')
if current < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
return 1`;

/** Pauses in Redis (server mode with REDIS_URL): one key per channel that expires when the pause ends. */
export function redisChannelPauses(redis: Redis, keyPrefix = "kestrel:channel-pause:"): ChannelPauseStore {
  return {
    async pausedUntil(channel, now) {
      const stored = Number(await redis.get(`${keyPrefix}${channel}`));
      return Number.isFinite(stored) && stored > now.getTime() ? new Date(stored) : null;
    },
    async pause(channel, until, now) {
      const ttlMs = until.getTime() - now.getTime();
      if (ttlMs <= 0) return;
      await redis.eval(PAUSE_SCRIPT, 1, `${keyPrefix}${channel}`, String(until.getTime()), String(ttlMs));
    },
  };
}

/**
 * This process's own copy in front of the shared store: the worker that saw the 429 holds back even while the
 * store cannot answer, and a read that fails counts as "not paused elsewhere" (logged) instead of stopping delivery.
 */
export function rememberingChannelPauses(shared: ChannelPauseStore): ChannelPauseStore {
  const local = new Map<string, number>();
  // Once per outage, not once per post.
  let failing = false;
  const warn = (error: unknown) => {
    if (!failing)
      logger.warn(
        { err: { message: (error as Error).message } },
        "support delivery: shared channel pause unavailable; this worker keeps its own",
      );
    failing = true;
  };
  return {
    async pausedUntil(channel, now) {
      let sharedUntil: Date | null = null;
      try {
        sharedUntil = await shared.pausedUntil(channel, now);
        failing = false;
      } catch (error) {
        warn(error);
      }
      const until = Math.max(local.get(channel) ?? 0, sharedUntil?.getTime() ?? 0);
      return until > now.getTime() ? new Date(until) : null;
    },
    async pause(channel, until, now) {
      local.set(channel, Math.max(local.get(channel) ?? 0, until.getTime()));
      try {
        await shared.pause(channel, until, now);
      } catch (error) {
        warn(error);
      }
    },
  };
}
