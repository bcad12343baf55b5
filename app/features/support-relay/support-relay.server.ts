// The running app's support relay: stores accepted requests and runs one delivery worker per process.
import type { Kysely } from "kysely";
import { type AuditEntryInput, auditedChange } from "~/features/audit/audit-log.server";
import type { SupportRequestInput } from "~/features/support-chat/support-chat";
import { openConversation } from "~/features/support-conversation/conversation-store.server";
import { ringConversation } from "~/features/support-conversation/conversation-doorbell.server";
import {
  botConfigured,
  onVisitorMessageQueued,
  questionnaireLines,
  visitorEmailFrom,
} from "~/features/support-conversation/support-conversation.server";
import { getDb } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { logger } from "~/platform/logger.server";
import { supportDeliveryAttempts } from "~/platform/metrics.server";
import { getRedis } from "~/platform/redis.server";
import type { DbDialect } from "../../../db/client";
import type { Database } from "../../../db/schema";
import {
  type ChannelPauseStore,
  databaseChannelPauses,
  redisChannelPauses,
  rememberingChannelPauses,
} from "./channel-pauses.server";
import { STATUS_ALERT_CATEGORY } from "./chat-channel.server";
import {
  type DeliveryPass,
  type DeliveryWorker,
  deliverDueSupportRequests,
  startDeliveryWorker,
} from "./delivery-worker.server";
import { createDiscordBot, type DiscordBot } from "./discord-bot.server";
import { insertSupportRequest, requeueSupportRequests } from "./support-outbox.server";
import { checkSupportChannel, relayBlocker, startThreadRelay, type ThreadRelay } from "./thread-relay.server";

let worker: DeliveryWorker | undefined;

/**
 * Stores the request (the outbox) with its conversation in one transaction and wakes the worker; once this resolves
 * the request cannot be lost. Returns the conversation's browser key and link key, which only the visitor gets.
 */
export async function acceptSupportRequest(
  input: Pick<SupportRequestInput, "category" | "answers" | "locale">,
  /** The address of the /orders session the request came with: the conversation's address is proven when it matches. */
  signedInEmail: string | null = null,
) {
  const channelConfigured = getEnv().SUPPORT_WEBHOOK_URL !== undefined || botConfigured();
  const { request, opened } = await getDb()
    .db.transaction()
    .execute(async (trx) => {
      const request = await insertSupportRequest(trx, input, { channelConfigured });
      const opened = await openConversation(trx, {
        requestId: request.id,
        category: input.category,
        locale: input.locale ?? "en",
        visitorEmail: visitorEmailFrom(input.answers),
        signedInEmail,
        lines: questionnaireLines(input.category, input.answers),
      });
      return { request, opened };
    });
  if (!channelConfigured) supportDeliveryAttempts.inc({ outcome: "no_channel" });
  worker?.kick();
  // The console's open inboxes, on every instance, list it at once.
  ringConversation(opened.conversation.id);
  // After the commit, and never failing the request: a visitor who gave an address gets the private link by mail.
  // Imported here, not at the top: mail text needs the message catalogues, which the CLI (support retry) cannot load.
  const { queueConversationLinkMail } = await import("~/features/support-conversation/conversation-mail.server");
  await queueConversationLinkMail(opened.conversation, opened.linkKey);
  return { request, conversation: opened.conversation, token: opened.token, linkKey: opened.linkKey };
}

/** Wakes this process's delivery worker: a request made due again (the console's Retry) goes out now. */
export function wakeSupportDelivery() {
  worker?.kick();
}

/**
 * Queues a status alert (a probe's transition) for the support channel, with the same guarantees as a visitor's
 * request: stored first, delivered at least once, paused by the channel's 429.
 */
export async function queueStatusAlert(
  db: Kysely<Database>,
  answers: [headline: string, seen: string, incident: string],
) {
  const channelConfigured = getEnv().SUPPORT_WEBHOOK_URL !== undefined;
  const alert = await insertSupportRequest(db, { category: STATUS_ALERT_CATEGORY, answers }, { channelConfigured });
  worker?.kick();
  return alert;
}

/** Where a 429's pause is shared between instances: Redis when configured, else the database. */
function channelPauses(db: Kysely<Database>): ChannelPauseStore {
  const redis = getRedis();
  return rememberingChannelPauses(redis ? redisChannelPauses(redis) : databaseChannelPauses(db));
}

/** The process's one bot (one rate-limit tracker for requests, visitor messages and reads), when configured. */
function supportBot(signal: AbortSignal): DiscordBot | undefined {
  const env = getEnv();
  if (!env.DISCORD_BOT_TOKEN || !env.DISCORD_SUPPORT_CHANNEL_ID) return undefined;
  return createDiscordBot({
    token: env.DISCORD_BOT_TOKEN,
    apiBase: env.DISCORD_API_BASE,
    supportChannelId: env.DISCORD_SUPPORT_CHANNEL_ID,
    publicUrl: env.PUBLIC_URL,
    logger,
    // A read or a post never sits out a long 429 in the call: the conversation or message is simply due later.
    maxWaitInCallMs: 10_000,
    signal,
  });
}

/**
 * Starts delivery when a chat channel is configured (webhook, bot or both) and, with the bot, the thread relay
 * (visitor messages in, team replies out) after a look at the support channel; returns the stop function.
 */
export function startSupportDelivery(): () => Promise<void> {
  const webhookUrl = getEnv().SUPPORT_WEBHOOK_URL;
  const shutdown = new AbortController();
  const bot = supportBot(shutdown.signal);
  if (!webhookUrl && !bot) {
    logger.info("support chat: no SUPPORT_WEBHOOK_URL nor DISCORD_BOT_TOKEN, requests are kept as no_channel");
    return async () => {};
  }
  const { db, dialect } = getDb();
  const onError = (err: unknown) => logger.error({ err }, "support thread relay pass failed");
  const blocker = relayBlocker(db, onError);
  let relay: ThreadRelay | undefined;
  if (bot) {
    void checkSupportChannel(bot, blocker).then((channel) => {
      if (channel.ok) logger.info({ channelKind: channel.value.kind }, "discord bot: support channel found");
      else if (channel.error.kind === "unsupported_channel")
        logger.error(
          "discord bot: DISCORD_SUPPORT_CHANNEL_ID is neither a text nor a forum channel; support requests stay one-way",
        );
    }, onError);
    relay = startThreadRelay({
      db,
      dialect,
      bot,
      blocker,
      onError,
      stateCheckMs: getEnv().SUPPORT_THREAD_STATE_CHECK_SECONDS * 1000,
    });
    onVisitorMessageQueued(() => relay?.kick());
  }
  worker = startDeliveryWorker({
    db,
    dialect,
    webhookUrl,
    bot,
    onBotProblem: async (problem) => {
      if (problem !== null) await blocker.set(problem);
      else if (blocker.current !== "intent_missing") await blocker.set(null);
    },
    pollMs: 1000,
    pauses: channelPauses(db),
    onError: (err) => logger.error({ err }, "support delivery pass failed"),
    onAttempt: (request, record) => {
      const reason = record.outcome === "delivered" ? undefined : record.reason;
      const level = record.outcome === "delivered" ? "info" : "warn";
      const pausedUntil = record.outcome === "rate_limited" ? record.until.toISOString() : undefined;
      logger[level](
        { supportRequestId: request.id, outcome: record.outcome, reason, pausedUntil, attempt: request.attempts + 1 },
        "support request delivery",
      );
    },
  });
  const running = worker;
  return async () => {
    if (worker === running) worker = undefined;
    onVisitorMessageQueued(undefined);
    await Promise.all([running.stop(), relay?.stop()]);
    shutdown.abort();
  };
}

/**
 * An operator's retry: queues the requests again (one by id, or every failed and no_channel one) and delivers them
 * now, honouring a channel pause like the running servers do. Returns what was queued and what became of it.
 */
export async function retrySupportRequests(
  db: Kysely<Database>,
  dialect: DbDialect,
  webhookUrl: string,
  target: { id: string } | { allUndelivered: true },
  entryFor: (queued: string[]) => AuditEntryInput | null = () => null,
): Promise<DeliveryPass & { queued: string[] }> {
  // Queued with its audit entry in one transaction; the delivery pass runs only once both are committed.
  const queued = await auditedChange(db, (trx) => requeueSupportRequests(trx, target), entryFor);
  if (queued.length === 0) return { queued, delivered: [], retrying: [], failed: [] };
  const pass = await deliverDueSupportRequests({
    db,
    dialect,
    webhookUrl,
    // With the bot configured a retried request gets its thread, as the running servers would give it.
    bot: supportBot(new AbortController().signal),
    workerId: `cli-${process.pid}`,
    ids: queued,
    pauses: channelPauses(db),
  });
  return { queued, ...pass };
}
