// The running app's support relay: stores accepted requests and runs one delivery worker per process.
import type { Kysely } from "kysely";
import type { SupportRequestInput } from "~/features/support-chat/support-chat";
import { openConversation } from "~/features/support-conversation/conversation-store.server";
import {
  botConfigured,
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
import { insertSupportRequest, requeueSupportRequests } from "./support-outbox.server";

let worker: DeliveryWorker | undefined;

/**
 * Stores the request (the outbox) with its conversation in one transaction and wakes the worker; once this resolves
 * the request cannot be lost. Returns the conversation's browser key and link key, which only the visitor gets.
 */
export async function acceptSupportRequest(input: Pick<SupportRequestInput, "category" | "answers" | "locale">) {
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
        lines: questionnaireLines(input.category, input.answers),
      });
      return { request, opened };
    });
  if (!channelConfigured) supportDeliveryAttempts.inc({ outcome: "no_channel" });
  worker?.kick();
  // After the commit, and never failing the request: a visitor who gave an address gets the private link by mail.
  // Imported here, not at the top: mail text needs the message catalogues, which the CLI (support retry) cannot load.
  const { queueConversationLinkMail } = await import("~/features/support-conversation/conversation-mail.server");
  await queueConversationLinkMail(opened.conversation, opened.linkKey);
  return { request, conversation: opened.conversation, token: opened.token, linkKey: opened.linkKey };
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

/** Starts delivery when a chat channel is configured; returns the stop function for shutdown. */
export function startSupportDelivery(): () => Promise<void> {
  const webhookUrl = getEnv().SUPPORT_WEBHOOK_URL;
  if (!webhookUrl) {
    logger.info("support chat: no SUPPORT_WEBHOOK_URL, requests are kept as no_channel");
    return async () => {};
  }
  const { db, dialect } = getDb();
  worker = startDeliveryWorker({
    db,
    dialect,
    webhookUrl,
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
    await running.stop();
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
): Promise<DeliveryPass & { queued: string[] }> {
  const queued = await requeueSupportRequests(db, target);
  if (queued.length === 0) return { queued, delivered: [], retrying: [], failed: [] };
  const pass = await deliverDueSupportRequests({
    db,
    dialect,
    webhookUrl,
    workerId: `cli-${process.pid}`,
    ids: queued,
    pauses: channelPauses(db),
  });
  return { queued, ...pass };
}
