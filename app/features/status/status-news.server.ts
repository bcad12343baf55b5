// "The status page's data changed": rung by whoever changes it (the console), heard by every instance, which then
// keys its rendered pages and /api/status reads by a new generation, so /status, the incident pages and the API show
// the change at the next request instead of at the end of their one-second reuse. The bell carries no data (readers
// read the database): Redis pub/sub when REDIS_URL is set, else PostgreSQL NOTIFY, else (SQLite: one process) the
// process's own bell. A ring lost while a listener reconnects costs at most that second: the reconnect bumps too.
import {
  type ConversationDoorbell,
  createLocalDoorbell,
} from "~/features/support-conversation/conversation-doorbell.server";
import { createPostgresDoorbell, createRedisDoorbell } from "~/features/support-conversation/conversation-live.server";
import { getDb } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { getRedis } from "~/platform/redis.server";

export const STATUS_NEWS_CHANNEL = "status_page";
export const REDIS_STATUS_NEWS_CHANNEL = "kestrel:status_page";
const CHANGED = "changed";

export interface StatusNews {
  /** Grows with every change heard (from any instance); part of the render cache's and the API's keys. */
  generation(): number;
  /** Tells this instance at once, and every other through the shared bell. */
  announce(): void;
  close(): Promise<void>;
}

/** Listens on `bell` (a shared one's local side rings too) and counts what it hears. */
export function createStatusNews(bell: ConversationDoorbell & { close?(): Promise<void> }): StatusNews & {
  bump(): void;
} {
  let generation = 0;
  const bump = () => {
    generation += 1;
  };
  const stop = bell.listen(CHANGED, bump);
  return {
    generation: () => generation,
    bump,
    announce: () => bell.ring(CHANGED),
    async close() {
      stop();
      await bell.close?.();
    },
  };
}

let news: StatusNews = createStatusNews(createLocalDoorbell());

export function statusGeneration(): number {
  return news.generation();
}

export function announceStatusChange(): void {
  news.announce();
}

/** Boot: the shared bell this configuration calls for; the returned stop closes it. */
export function startStatusNews(): () => Promise<void> {
  const env = getEnv();
  let onReconnect = () => {};
  const reconnected = () => onReconnect();
  const bell = env.REDIS_URL
    ? createRedisDoorbell({
        url: env.REDIS_URL,
        publisher: getRedis,
        onReconnect: reconnected,
        channel: REDIS_STATUS_NEWS_CHANNEL,
        connectionName: "kestrel-status-news",
      })
    : env.DATABASE_URL
      ? createPostgresDoorbell({
          connectionString: env.DATABASE_URL,
          db: () => getDb().db,
          onReconnect: reconnected,
          channel: STATUS_NEWS_CHANNEL,
        })
      : undefined;
  if (!bell) return async () => {};
  const shared = createStatusNews(bell);
  // What was rung while the listener was away is unknown: start a new generation.
  onReconnect = shared.bump;
  const previous = news;
  news = shared;
  return async () => {
    news = previous;
    await shared.close();
  };
}
