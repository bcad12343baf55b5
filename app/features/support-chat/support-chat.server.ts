// The running app's support relay: stores accepted requests and runs one delivery worker per process.
import { getDb } from "~/server/db.server";
import { getEnv } from "~/server/env.server";
import { logger } from "~/server/logger.server";
import type { SupportRequestInput } from "./support-chat";
import { type DeliveryWorker, startDeliveryWorker } from "./support-delivery.server";
import { insertSupportRequest } from "./support-requests.server";

let worker: DeliveryWorker | undefined;

/** Stores the request (the outbox) and wakes the worker; once this resolves the request cannot be lost. */
export async function acceptSupportRequest(input: Pick<SupportRequestInput, "category" | "answers">) {
  const request = await insertSupportRequest(getDb().db, input, { channelConfigured: getEnv().SUPPORT_WEBHOOK_URL !== undefined });
  worker?.kick();
  return request;
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
    onError: (err) => logger.error({ err }, "support delivery pass failed"),
    onAttempt: (request, record) => {
      const reason = record.outcome === "delivered" ? undefined : record.reason;
      const level = record.outcome === "delivered" ? "info" : "warn";
      logger[level]({ supportRequestId: request.id, outcome: record.outcome, reason, attempt: request.attempts + 1 }, "support request delivery");
    },
  });
  const running = worker;
  return async () => {
    if (worker === running) worker = undefined;
    await running.stop();
  };
}
