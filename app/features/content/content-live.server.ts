// Every instance shows the same published content (issue 44): a publish bumps the content version in its transaction
// and rings a bell (Redis pub/sub when REDIS_URL is set, else PostgreSQL NOTIFY, else the process's own, as status news
// does); each instance hearing it reads the version and, when it differs from what it shows, reads every override,
// checks the whole content and swaps it in at once (its render cache is keyed by the version, so cached pages go
// with it). An instance that missed the ring (its listener reconnecting) finds the version at its next look, every
// CONTENT_CHECK_MS.
import {
  type ConversationDoorbell,
  createLocalDoorbell,
} from "~/features/support-conversation/conversation-doorbell.server";
import { createPostgresDoorbell, createRedisDoorbell } from "~/features/support-conversation/conversation-live.server";
import { getDb } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { logger } from "~/platform/logger.server";
import { getRedis } from "~/platform/redis.server";
import type { Kysely } from "kysely";
import type { Database } from "../../../db/schema";
import { loadedContentVersion, showContent } from "./content.server";
import { ContentRefusedError, contentVersion, publishedOverrides, validateOverrides } from "./content-overrides.server";

export const CONTENT_NEWS_CHANNEL = "content_version";
export const REDIS_CONTENT_NEWS_CHANNEL = "kestrel:content_version";
const PUBLISHED = "published";
/** How often an instance looks at the version without being told: well inside the 30 s. */
export const CONTENT_CHECK_MS = 10_000;

let bell: ConversationDoorbell & { close?(): Promise<void> } = createLocalDoorbell();
/** The version whose overrides could not be shown (logged once, not at every look). */
let refusedVersion: number | undefined;
let refreshing: Promise<void> | undefined;

/**
 * Shows the published content if its version is not the one shown: every override read and checked in one go, then
 * swapped in for every language at once. Overrides that no longer pass (a deploy changed the files beneath them)
 * leave the shop as it is, logged once.
 */
export function refreshContent(db: Kysely<Database> = getDb().db): Promise<void> {
  refreshing ??= (async () => {
    try {
      const version = await contentVersion(db);
      if (version === loadedContentVersion() || version === refusedVersion) return;
      const overrides = await publishedOverrides(db);
      try {
        showContent(validateOverrides(overrides), overrides, version);
      } catch (error) {
        if (!(error instanceof ContentRefusedError)) throw error;
        refusedVersion = version;
        logger.error(
          { problems: error.problems, version },
          "content: the published overrides do not pass; the shop shows what it showed",
        );
      }
    } finally {
      refreshing = undefined;
    }
  })();
  return refreshing;
}

/** After a publish has committed: this instance shows it now, every other at its ring. */
export async function announceContentPublished(db: Kysely<Database> = getDb().db): Promise<void> {
  await refreshContent(db);
  bell.ring(PUBLISHED);
}

/** Boot, once the database is migrated: the published content, the shared bell and the look every 10 s. */
export async function startContentLive({ checkMs = CONTENT_CHECK_MS } = {}): Promise<() => Promise<void>> {
  await refreshContent();
  const env = getEnv();
  const heard = () => {
    refreshContent().catch((err) => logger.warn({ err }, "content: the published content could not be read"));
  };
  const shared = env.REDIS_URL
    ? createRedisDoorbell({
        url: env.REDIS_URL,
        publisher: getRedis,
        onReconnect: heard,
        channel: REDIS_CONTENT_NEWS_CHANNEL,
        connectionName: "kestrel-content-news",
      })
    : env.DATABASE_URL
      ? createPostgresDoorbell({
          connectionString: env.DATABASE_URL,
          db: () => getDb().db,
          onReconnect: heard,
          channel: CONTENT_NEWS_CHANNEL,
        })
      : undefined;
  const previous = bell;
  if (shared) bell = shared;
  const stopListening = bell.listen(PUBLISHED, heard);
  const timer = setInterval(heard, checkMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    stopListening();
    if (shared) {
      bell = previous;
      await shared.close?.();
    }
  };
}
