// Sends the mail outbox through the SMTP server: one mail at a time under a claim renewed while the server answers,
// retried with backoff while it is down or answers 4xx, failed on a 5xx, expired at its send-by time.
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { hashIdentityForLog } from "~/platform/log-identity.server";
import { logger as defaultLogger } from "~/platform/logger.server";
import { mailFailed, mailRetries, mailSent } from "~/platform/metrics.server";
import {
  deliverDue,
  newWorkerId,
  type Outbox,
  type OutboxOutcome,
  type OutboxWorker,
  releaseClaims,
  scheduleRetry,
  startOutboxWorker,
} from "~/platform/outbox.server";
import type { DbDialect } from "../../../db/client";
import type { Database } from "../../../db/schema";
import { MAIL_GIVE_UP_AFTER_MS, type Mail } from "./mail";
import { expireOverdueMail, MAIL_OUTBOX_ROWS, type MailAttempt, type MailRow, toMail } from "./mail-outbox.server";
import type { SmtpSender } from "./smtp.server";

/** How long stop() lets a send in flight finish: longer than an attempt may take, well within a 25 s shutdown. */
export const MAIL_STOP_GRACE_MS = 15_000;
/** How long a claim lasts without renewal: a crashed worker's mail is free again after it. */
export const MAIL_LEASE_MS = 60_000;

export interface MailWorkerOptions {
  db: Kysely<Database>;
  dialect: DbDialect;
  sender: SmtpSender;
  workerId?: string;
  now?: () => Date;
  /** 0..1; injectable so tests can pin the jitter. */
  random?: () => number;
  leaseMs?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  giveUpAfterMs?: number;
  /** Stop taking work; a send in flight still finishes and is recorded. */
  signal?: AbortSignal;
  /** Give up on a send in flight (shutdown grace is over). */
  abandon?: AbortSignal;
  /** Where each outcome is logged (addresses only as hashes, never subjects or bodies). */
  log?: Logger;
  onAttempt?: (mail: Mail, attempt: MailAttempt) => void;
}

/** One attempt at one mail; returns what to record (it does not touch the database). */
export async function attemptMail(
  mail: Mail,
  options: Pick<MailWorkerOptions, "sender" | "now" | "random" | "backoffBaseMs" | "backoffMaxMs" | "giveUpAfterMs"> & {
    signal?: AbortSignal;
  },
): Promise<MailAttempt> {
  const now = options.now ?? (() => new Date());
  if (mail.sendBy && Date.parse(mail.sendBy) <= now().getTime())
    return { outcome: "expired", reason: "not sent by its send-by time" };
  const result = await options.sender.send(
    {
      from: mail.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      messageId: mail.messageId,
    },
    { signal: options.signal },
  );
  if (result.outcome !== "retry") return result;
  const at = now();
  const { nextAttemptAt, giveUp } = scheduleRetry(mail, at, {
    random: options.random ?? Math.random,
    baseMs: options.backoffBaseMs ?? 5_000,
    maxMs: options.backoffMaxMs,
    giveUpAfterMs: options.giveUpAfterMs ?? MAIL_GIVE_UP_AFTER_MS,
  });
  if (giveUp) return { outcome: "gave_up", reason: `failing since ${mail.firstFailedAt}; last: ${result.reason}` };
  // A mail that could only go out after its deadline is given up now: nobody waits for it any more.
  if (mail.sendBy && nextAttemptAt.getTime() >= Date.parse(mail.sendBy))
    return { outcome: "expired", reason: `not sent by its send-by time; last: ${result.reason}` };
  return { outcome: "retry", reason: result.reason, nextAttemptAt };
}

/** Counts an outcome and writes its log line: the mail's id, kind and hashed address, never its address or text. */
function reportAttempt(log: Logger, mail: Mail, attempt: MailAttempt, attemptNumber = mail.attempts + 1) {
  const fields = { mailId: mail.id, kind: mail.kind, to: hashIdentityForLog(mail.to), attempt: attemptNumber };
  switch (attempt.outcome) {
    case "sent":
      mailSent.inc();
      log.info(fields, "mail sent");
      return;
    case "retry":
      mailRetries.inc();
      log.warn(
        { ...fields, reason: attempt.reason, nextAttemptAt: attempt.nextAttemptAt.toISOString() },
        "mail not sent yet, will retry",
      );
      return;
    case "rejected":
      mailFailed.inc({ reason: "rejected" });
      log.error(
        { ...fields, responseCode: attempt.responseCode, reason: attempt.reason },
        "mail given up: the SMTP server refused it permanently",
      );
      return;
    case "gave_up":
      mailFailed.inc({ reason: "gave_up" });
      log.error({ ...fields, reason: attempt.reason }, "mail given up: failing for too long");
      return;
    case "expired":
      mailFailed.inc({ reason: "expired" });
      log.warn({ ...fields, reason: attempt.reason }, "mail given up: not sent by its send-by time");
      return;
  }
}

export interface MailPass {
  sent: string[];
  retrying: string[];
  /** Refused (5xx) or failing for too long. */
  failed: string[];
  expired: string[];
  /** Sends cut short by shutdown: their claims run out and another worker tries them. */
  abandoned: string[];
}

/** How an attempt is written in the mail's row. */
function outcomeOf(attempt: MailAttempt): OutboxOutcome {
  switch (attempt.outcome) {
    case "sent":
      return { outcome: "done" };
    case "retry":
      return { outcome: "retry", reason: attempt.reason, nextAttemptAt: attempt.nextAttemptAt };
    case "expired":
      return { outcome: "failed", status: "expired", reason: attempt.reason };
    default:
      return { outcome: "failed", reason: attempt.reason };
  }
}

/** The mail outbox for the delivery engine. */
function mailOutbox(options: MailWorkerOptions, log: Logger): Outbox<Mail, MailAttempt, MailPass> {
  return {
    rows: MAIL_OUTBOX_ROWS,
    progress: (mail) => mail,
    toItems: (rows) => (rows as MailRow[]).map(toMail),
    attempt: (mail, signal) => attemptMail(mail, { ...options, signal }),
    // A send cut short may or may not have reached the server: its claim runs out rather than being handed back.
    cutShort: (attempt) => attempt.outcome === "retry",
    whenCutShort: "keep",
    outcome: (_mail, attempt) => outcomeOf(attempt),
    report: (mail, attempt) => reportAttempt(log, mail, attempt),
    emptyPass: () => ({ sent: [], retrying: [], failed: [], expired: [], abandoned: [] }),
    listFor: (attempt) =>
      attempt.outcome === "sent"
        ? "sent"
        : attempt.outcome === "retry"
          ? "retrying"
          : attempt.outcome === "expired"
            ? "expired"
            : "failed",
  };
}

/** Expires overdue mail, then sends due mail one at a time until none is left (optionally only the given ids). */
export async function deliverDueMail(options: MailWorkerOptions & { ids?: string[] }): Promise<MailPass> {
  const now = options.now ?? (() => new Date());
  const log = options.log ?? defaultLogger;
  const expired: string[] = [];
  for (const mail of await expireOverdueMail(options.db, now())) {
    const attempt: MailAttempt = { outcome: "expired", reason: "not sent by its send-by time" };
    reportAttempt(log, mail, attempt, mail.attempts);
    options.onAttempt?.(mail, attempt);
    expired.push(mail.id);
  }
  const { cutShort, ...pass } = await deliverDue(mailOutbox(options, log), {
    db: options.db,
    dialect: options.dialect,
    workerId: options.workerId ?? newWorkerId("mail"),
    leaseMs: options.leaseMs ?? MAIL_LEASE_MS,
    now,
    ids: options.ids,
    signal: options.signal,
    abandon: options.abandon,
    onAttempt: options.onAttempt,
  });
  pass.expired.unshift(...expired);
  if (cutShort) pass.abandoned.push(cutShort);
  return pass;
}

export type MailWorker = OutboxWorker;

/** Polls the outbox every `pollMs` (and on kick) in the background until stopped. */
export function startMailWorker(
  options: MailWorkerOptions & {
    pollMs?: number;
    stopGraceMs?: number;
    onError?: (error: unknown) => void;
    onPass?: (pass: MailPass) => void;
  },
): MailWorker {
  const workerId = options.workerId ?? newWorkerId("mail");
  return startOutboxWorker({
    runPass: ({ signal, abandon }) => deliverDueMail({ ...options, workerId, signal, abandon }),
    cutShortOf: (pass) => pass.abandoned,
    releaseAll: (keep) => releaseClaims(options.db, MAIL_OUTBOX_ROWS, workerId, { keep }),
    now: options.now ?? (() => new Date()),
    pollMs: options.pollMs,
    stopGraceMs: options.stopGraceMs ?? MAIL_STOP_GRACE_MS,
    onError: options.onError,
    onPass: options.onPass,
  });
}
