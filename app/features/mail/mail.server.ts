// The running app's mail: features queue mail here and ask what became of it; one worker per process sends it.
import type { Kysely } from "kysely";
import { getDb } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { hashIdentityForLog } from "~/platform/log-identity.server";
import { logger } from "~/platform/logger.server";
import type { Database } from "../../../db/schema";
import type { MailDeliveryState, MailInput } from "./mail";
import { getMailDeliveryState, insertMail } from "./mail-outbox.server";
import { type MailWorker, startMailWorker } from "./mail-worker.server";
import { createSmtpSender, describeSmtpServer } from "./smtp.server";

/** The sender of kept mail when MAIL_FROM is not set (no SMTP server: it never leaves the database). */
export const KEPT_MAIL_FROM = "Kestrel storefront <mail@localhost>";

let worker: MailWorker | undefined;

/**
 * Accepts a mail (the outbox): once this resolves it is stored and will be sent exactly once, or kept in the database
 * when SMTP_URL is not set. With `sendBy`, a mail still unsent then is given up as `expired` instead of sent late.
 * Returns its id and status, for `mailDeliveryState`. With `db` (a caller's transaction) the mail is stored with what the
 * caller writes, or not at all.
 */
export async function queueMail(
  input: MailInput,
  options: { sendBy?: Date; db?: Kysely<Database> } = {},
): Promise<MailDeliveryState> {
  const env = getEnv();
  const deliver = env.SMTP_URL !== undefined;
  const mail = await insertMail(options.db ?? getDb().db, input, {
    from: env.MAIL_FROM ?? KEPT_MAIL_FROM,
    deliver,
    sendBy: options.sendBy,
  });
  logger.info(
    { mailId: mail.id, kind: mail.kind, to: hashIdentityForLog(mail.to), status: mail.status, sendBy: mail.sendBy },
    "mail queued",
  );
  worker?.kick();
  return {
    id: mail.id,
    kind: mail.kind,
    status: mail.status,
    createdAt: mail.createdAt,
    sendBy: mail.sendBy,
    attempts: mail.attempts,
    lastError: mail.lastError,
    sentAt: mail.sentAt,
  };
}

/** Wakes this process's mail worker: after a transaction that queued mail commits, so it goes out now. */
export function wakeMailDelivery() {
  worker?.kick();
}

/** Whether a queued mail was sent, failed, expired, was kept, or is still pending (undefined: no such mail). */
export async function mailDeliveryState(id: string): Promise<MailDeliveryState | undefined> {
  return getMailDeliveryState(getDb().db, id);
}

/** Starts sending when SMTP_URL is set; returns the stop function for shutdown. */
export function startMailDelivery(): () => Promise<void> {
  const smtpUrl = getEnv().SMTP_URL;
  if (!smtpUrl) {
    logger.info("mail: no SMTP_URL, mail is kept in the database (npm run cli -- mail list)");
    return async () => {};
  }
  logger.info({ smtpServer: describeSmtpServer(smtpUrl) }, "mail: sending through the SMTP server");
  const { db, dialect } = getDb();
  const sender = createSmtpSender(smtpUrl);
  worker = startMailWorker({
    db,
    dialect,
    sender,
    pollMs: 1000,
    onError: (err) => logger.error({ err }, "mail delivery pass failed"),
  });
  const running = worker;
  return async () => {
    if (worker === running) worker = undefined;
    await running.stop();
    sender.close();
  };
}
