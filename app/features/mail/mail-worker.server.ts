// Sends the mail outbox through the SMTP server: one mail at a time under a claim renewed while the server answers,
// retried with backoff while it is down or answers 4xx, failed on a 5xx, expired at its send-by time.
import crypto from "node:crypto";
import type { Kysely } from "kysely";
import type { Logger } from "pino";
import { hashIdentityForLog } from "~/platform/log-identity.server";
import { logger as defaultLogger } from "~/platform/logger.server";
import { mailFailed, mailRetries, mailSent } from "~/platform/metrics.server";
import type { DbDialect } from "../../../db/client";
import type { Database } from "../../../db/schema";
import { MAIL_GIVE_UP_AFTER_MS, type Mail, mailRetryDelayMs } from "./mail";
import {
  claimDueMail,
  expireOverdueMail,
  type MailAttempt,
  recordMailAttempt,
  releaseMailClaims,
  renewMailClaim,
} from "./mail-outbox.server";
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
  const at = now().getTime();
  const failingSince = mail.firstFailedAt ? Date.parse(mail.firstFailedAt) : at;
  if (at - failingSince >= (options.giveUpAfterMs ?? MAIL_GIVE_UP_AFTER_MS))
    return { outcome: "gave_up", reason: `failing since ${mail.firstFailedAt}; last: ${result.reason}` };
  const wait = mailRetryDelayMs(
    mail.attempts + 1,
    options.random ?? Math.random,
    options.backoffBaseMs,
    options.backoffMaxMs,
  );
  const nextAttemptAt = new Date(at + wait);
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

/**
 * Sends one claimed mail while holding its claim: the claim must still be this worker's when the send starts, and is
 * renewed every third of the lease until the server answers, so a slow server never lets a second worker take it.
 * Returns undefined when the claim was gone before the send, and "abandoned" when shutdown cut the send short
 * (the server may or may not have the mail, so the claim is left to run out rather than handed back).
 */
async function sendWhileClaimed(
  mail: Mail,
  options: MailWorkerOptions & { workerId: string; leaseMs: number; now: () => Date },
): Promise<MailAttempt | "abandoned" | undefined> {
  const { db, workerId, leaseMs, now } = options;
  if (!(await renewMailClaim(db, mail.id, workerId, leaseMs, now()))) return undefined;
  const lost = new AbortController();
  const renewal = setInterval(() => {
    // A renewal that fails (database briefly away) is retried at the next tick while the lease still runs.
    renewMailClaim(db, mail.id, workerId, leaseMs, now()).then(
      (held) => held || lost.abort(),
      () => {},
    );
  }, leaseMs / 3);
  try {
    const signal = AbortSignal.any([lost.signal, ...(options.abandon ? [options.abandon] : [])]);
    const attempt = await attemptMail(mail, { ...options, signal });
    return attempt.outcome === "retry" && signal.aborted ? "abandoned" : attempt;
  } finally {
    clearInterval(renewal);
  }
}

/**
 * Writes an attempt's outcome, trying again over ~2 s if the database hiccups: a mail the server accepted but we
 * failed to record would be sent again once its claim runs out.
 */
async function recordPatiently(write: () => Promise<unknown>, waitsMs: readonly number[] = [250, 500, 1_000]) {
  for (const wait of waitsMs) {
    try {
      return await write();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
  return write();
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

/** Expires overdue mail, then sends due mail one at a time until none is left (optionally only the given ids). */
export async function deliverDueMail(options: MailWorkerOptions & { ids?: string[] }): Promise<MailPass> {
  const workerId = options.workerId ?? `mail-${crypto.randomUUID()}`;
  const now = options.now ?? (() => new Date());
  const leaseMs = options.leaseMs ?? MAIL_LEASE_MS;
  const log = options.log ?? defaultLogger;
  const pass: MailPass = { sent: [], retrying: [], failed: [], expired: [], abandoned: [] };
  for (const mail of await expireOverdueMail(options.db, now())) {
    const attempt: MailAttempt = { outcome: "expired", reason: "not sent by its send-by time" };
    reportAttempt(log, mail, attempt, mail.attempts);
    options.onAttempt?.(mail, attempt);
    pass.expired.push(mail.id);
  }
  for (;;) {
    if (options.signal?.aborted) return pass;
    const [mail] = await claimDueMail(options.db, options.dialect, {
      workerId,
      limit: 1,
      leaseMs,
      now: now(),
      ids: options.ids,
    });
    if (!mail) return pass;
    const attempt = await sendWhileClaimed(mail, { ...options, workerId, leaseMs, now });
    if (attempt === "abandoned") {
      pass.abandoned.push(mail.id);
      return pass;
    }
    if (!attempt) {
      await releaseMailClaims(options.db, workerId, { ids: [mail.id] });
      continue;
    }
    reportAttempt(log, mail, attempt);
    await recordPatiently(() => recordMailAttempt(options.db, mail, workerId, attempt, now()));
    options.onAttempt?.(mail, attempt);
    const bucket =
      attempt.outcome === "sent"
        ? pass.sent
        : attempt.outcome === "retry"
          ? pass.retrying
          : attempt.outcome === "expired"
            ? pass.expired
            : pass.failed;
    bucket.push(mail.id);
  }
}

export interface MailWorker {
  /** Look for work now (after a new mail) instead of at the next poll. */
  kick(): void;
  /** Takes no more work, lets a send in flight finish (up to `stopGraceMs`), and hands back the claims it holds. */
  stop(): Promise<void>;
}

/** Polls the outbox every `pollMs` (and on kick) in the background until stopped. */
export function startMailWorker(
  options: MailWorkerOptions & {
    pollMs?: number;
    stopGraceMs?: number;
    onError?: (error: unknown) => void;
    onPass?: (pass: MailPass) => void;
  },
): MailWorker {
  const stopping = new AbortController();
  const abandon = new AbortController();
  const workerId = options.workerId ?? `mail-${crypto.randomUUID()}`;
  const abandoned: string[] = [];
  let wake: (() => void) | undefined;
  let kicked = false;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.max(0, ms));
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      kicked = false;
      try {
        const pass = await deliverDueMail({ ...options, workerId, signal: stopping.signal, abandon: abandon.signal });
        abandoned.push(...pass.abandoned);
        options.onPass?.(pass);
      } catch (error) {
        if (!stopping.signal.aborted) options.onError?.(error);
      }
      if (stopping.signal.aborted) break;
      if (!kicked) await sleep(options.pollMs ?? 1000);
    }
    // Claims still held go back now, so another instance need not wait for their lease; not a send cut short.
    await releaseMailClaims(options.db, workerId, { keep: abandoned }).catch((error: unknown) =>
      options.onError?.(error),
    );
  })();
  return {
    kick() {
      kicked = true;
      wake?.();
    },
    async stop() {
      stopping.abort();
      wake?.();
      const grace = setTimeout(() => abandon.abort(), options.stopGraceMs ?? MAIL_STOP_GRACE_MS);
      try {
        await loop;
      } finally {
        clearTimeout(grace);
      }
    },
  };
}
