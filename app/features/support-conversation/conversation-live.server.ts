// Live delivery at boot (docs/decisions/026): this instance's event streams, and the bell that carries rings between
// instances — Redis pub/sub when REDIS_URL is set, else PostgreSQL LISTEN/NOTIFY, else (SQLite, one process) the
// in-process bell plus a check every second for what another process (the CLI) wrote.
import { createRequire } from "node:module";
import type { Redis } from "ioredis";
import { type Kysely, sql } from "kysely";
import pg from "pg";
import { getDb } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { logger } from "~/platform/logger.server";
import { getRedis } from "~/platform/redis.server";
import type { Database } from "../../../db/schema";
import {
  type ConversationDoorbell,
  createLocalDoorbell,
  setConversationDoorbell,
} from "./conversation-doorbell.server";
import { ConversationStreams } from "./conversation-streams.server";
import { repliesLive } from "./support-conversation.server";
import { conversationDoorbell } from "./conversation-doorbell.server";

/** The PostgreSQL channel and the Redis channel the bell rings on; the payload is a conversation id, nothing else. */
export const DOORBELL_CHANNEL = "support_conversation";
export const REDIS_DOORBELL_CHANNEL = "kestrel:support_conversation";
/** Without a shared bell, how often connected conversations are checked for messages written by another process. */
export const LOCAL_CHECK_MS = 1_000;
const RECONNECT_MAX_MS = 10_000;

let streams: ConversationStreams | undefined;

/** This instance's open event streams. */
export function conversationStreams(): ConversationStreams {
  if (!streams)
    streams = new ConversationStreams({
      db: () => getDb().db,
      doorbell: conversationDoorbell,
      repliesLive,
      pollMs: getDb().dialect === "sqlite" ? LOCAL_CHECK_MS : null,
    });
  return streams;
}

export interface SharedDoorbell extends ConversationDoorbell {
  close(): Promise<void>;
}

/**
 * Rings through PostgreSQL: NOTIFY through the app's pool (after the message is committed), LISTEN on one dedicated
 * connection opened at the first listener, reconnected with backoff; once it listens (first time or again)
 * `onReconnect` re-reads every open stream.
 */
export function createPostgresDoorbell(options: {
  connectionString: string;
  db: () => Kysely<Database>;
  onReconnect: () => void;
  channel?: string;
}): SharedDoorbell {
  const channel = options.channel ?? DOORBELL_CHANNEL;
  const local = createLocalDoorbell();
  const pending = new Set<Promise<unknown>>();
  let client: pg.Client | undefined;
  let connecting = false;
  let closed = false;
  let retryMs = 500;
  let reportedDown = false;
  let retryTimer: NodeJS.Timeout | undefined;

  const scheduleReconnect = () => {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      void connect();
    }, retryMs);
    retryTimer.unref();
    retryMs = Math.min(retryMs * 2, RECONNECT_MAX_MS);
  };
  const lost = (c: pg.Client, error?: Error) => {
    if (client !== c && client !== undefined) return;
    client = undefined;
    c.removeAllListeners("end");
    void c.end().catch(() => {});
    if (closed) return;
    if (!reportedDown) {
      reportedDown = true;
      // The message only: pg errors may carry connection parameters.
      logger.warn(
        { err: { message: error?.message ?? "connection ended" } },
        "support conversations: PostgreSQL doorbell lost; reconnecting (open streams re-read when it is back)",
      );
    }
    scheduleReconnect();
  };
  const connect = async () => {
    if (closed || client || connecting) return;
    connecting = true;
    const c = new pg.Client({
      connectionString: options.connectionString,
      connectionTimeoutMillis: 3_000,
      keepAlive: true,
    });
    c.on("error", (error) => lost(c, error));
    c.on("end", () => lost(c));
    c.on("notification", (notification) => {
      if (notification.channel === channel && notification.payload) local.ringLocally(notification.payload);
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      if (closed) {
        await c.end();
        return;
      }
      client = c;
      retryMs = 500;
      if (reportedDown) logger.info("support conversations: PostgreSQL doorbell back");
      reportedDown = false;
      // Rings sent while we did not listen yet (or no more) are lost: every open stream reads the database again.
      options.onReconnect();
    } catch (error) {
      c.removeAllListeners("end");
      connecting = false;
      lost(c, error as Error);
      return;
    } finally {
      connecting = false;
    }
  };

  return {
    ring(conversationId) {
      local.ringLocally(conversationId);
      const sent = sql`select pg_notify(${channel}, ${conversationId})`
        .execute(options.db())
        .catch((error: Error) =>
          logger.warn({ err: { message: error.message } }, "support conversations: doorbell ring not sent"),
        )
        .finally(() => pending.delete(sent));
      pending.add(sent);
    },
    listen(conversationId, listener) {
      void connect();
      return local.listen(conversationId, listener);
    },
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      await Promise.allSettled([...pending]);
      const c = client;
      client = undefined;
      c?.removeAllListeners("end");
      await c?.end().catch(() => {});
    },
  };
}

/**
 * Rings through Redis pub/sub: PUBLISH on the app's connection, SUBSCRIBE on a connection of its own (ioredis
 * reconnects and resubscribes); after a reconnect `onReconnect` re-reads.
 */
export function createRedisDoorbell(options: {
  url: string;
  publisher: () => Redis | undefined;
  onReconnect: () => void;
  channel?: string;
  /** Names the subscriber connection in CLIENT LIST (an operator sees what it is; tests find theirs). */
  connectionName?: string;
}): SharedDoorbell {
  const channel = options.channel ?? REDIS_DOORBELL_CHANNEL;
  const local = createLocalDoorbell();
  const pending = new Set<Promise<unknown>>();
  const { Redis: RedisClient } = createRequire(import.meta.url)("ioredis") as typeof import("ioredis");
  let subscriber: Redis | undefined;
  let readyOnce = false;
  let reportedDown = false;

  const subscribe = () => {
    if (subscriber) return;
    const sub = new RedisClient(options.url, {
      connectTimeout: 2_000,
      maxRetriesPerRequest: null,
      connectionName: options.connectionName ?? "kestrel-support-doorbell",
    });
    subscriber = sub;
    sub.on("message", (from: string, conversationId: string) => {
      if (from === channel) local.ringLocally(conversationId);
    });
    sub.on("error", (error: Error) => {
      if (reportedDown) return;
      reportedDown = true;
      logger.warn(
        { err: { message: error.message } },
        "support conversations: Redis doorbell lost; reconnecting (open streams re-read when it is back)",
      );
    });
    sub.on("ready", () => {
      if (!readyOnce) {
        readyOnce = true;
        return;
      }
      // ioredis resubscribes on its own; subscribing again first makes sure it listens before streams re-read.
      void sub
        .subscribe(channel)
        .then(() => {
          if (reportedDown) logger.info("support conversations: Redis doorbell back");
          reportedDown = false;
          options.onReconnect();
        })
        .catch(() => {});
    });
    // Streams opened before the subscription took effect may have missed a ring: they read again once it has.
    void sub
      .subscribe(channel)
      .then(() => options.onReconnect())
      .catch(() => {});
  };

  return {
    ring(conversationId) {
      local.ringLocally(conversationId);
      const publisher = options.publisher();
      if (!publisher) return;
      const sent = publisher
        .publish(channel, conversationId)
        .catch((error: Error) =>
          logger.warn({ err: { message: error.message } }, "support conversations: doorbell ring not sent"),
        )
        .finally(() => pending.delete(sent));
      pending.add(sent);
    },
    listen(conversationId, listener) {
      subscribe();
      return local.listen(conversationId, listener);
    },
    async close() {
      await Promise.allSettled([...pending]);
      const sub = subscriber;
      subscriber = undefined;
      // QUIT waits for a connection that may never come (Redis down, retries without end): only a live one is asked.
      if (sub?.status === "ready") await sub.quit().catch(() => sub.disconnect());
      else sub?.disconnect();
    },
  };
}

/**
 * The shared bell this configuration calls for (undefined with SQLite). A process that only writes (the CLI) uses it
 * too, so its rings reach every instance; it listens on nothing until asked to.
 */
export function createConfiguredDoorbell(onReconnect: () => void): SharedDoorbell | undefined {
  const env = getEnv();
  if (env.REDIS_URL) return createRedisDoorbell({ url: env.REDIS_URL, publisher: getRedis, onReconnect });
  if (env.DATABASE_URL)
    return createPostgresDoorbell({ connectionString: env.DATABASE_URL, db: () => getDb().db, onReconnect });
  return undefined;
}

/** Boot: sets the shared bell; the returned stop ends every stream (browsers reconnect elsewhere) and the bell. */
export function startConversationLive(): () => Promise<void> {
  const bell = createConfiguredDoorbell(() => conversationStreams().rereadAll());
  if (bell) setConversationDoorbell(bell);
  return async () => {
    streams?.close();
    if (bell) {
      await bell.close();
      setConversationDoorbell(createLocalDoorbell());
    }
  };
}
