// The mail a feature hands to the outbox, what becomes of it, and the retry schedule: types, schemas, pure functions.
import { z } from "zod";
import { backoffMs } from "~/platform/backoff";
import type { MailStatus } from "../../../db/schema";

export type { MailStatus };

/**
 * pending: waiting to be sent (or retried); sent: the SMTP server accepted it; failed: refused for good (5xx) or
 * failing for 24 h; expired: not sent by its send-by time, so given up; kept: no SMTP_URL, kept in the database.
 */
export const MAIL_STATUSES: readonly MailStatus[] = ["pending", "sent", "failed", "expired", "kept"];

/** A mail that has reached its end: nothing will change it any more. */
export function isFinalMailStatus(status: MailStatus): boolean {
  return status !== "pending";
}

const noLineBreaks = (value: string) => !/[\r\n]/.test(value);

/** What a feature queues: one recipient, a plain-text body and optionally an HTML one. */
export const mailInputSchema = z.object({
  /** What the mail is for (`sign-in-code`): shown to the operator and in logs, which never carry the text itself. */
  kind: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/, { message: "expected a short kebab-case kind" }),
  to: z.email({ message: "expected one email address" }).max(254),
  subject: z
    .string()
    .trim()
    .min(1, { message: "expected a subject" })
    .max(200)
    .refine(noLineBreaks, { message: "expected a subject on one line" }),
  text: z.string().min(1, { message: "expected a text body" }).max(100_000),
  html: z.string().max(200_000).optional(),
});

export type MailInput = z.input<typeof mailInputSchema>;

/** A mail in the outbox, as the repository returns it. */
export interface Mail {
  id: string;
  kind: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  /** The Message-ID header, the same on every attempt. */
  messageId: string;
  status: MailStatus;
  createdAt: string;
  /** After this the mail is given up as expired rather than sent late; null: no deadline. */
  sendBy: string | null;
  attempts: number;
  nextAttemptAt: string;
  firstFailedAt: string | null;
  lastError: string | null;
  sentAt: string | null;
}

/** What a caller may know about a queued mail without reading it (the body may hold a sign-in code). */
export type MailDeliveryState = Pick<
  Mail,
  "id" | "kind" | "status" | "createdAt" | "sendBy" | "attempts" | "lastError" | "sentAt"
>;

/** How long a mail that keeps failing (server down, 4xx) is retried before it is given up as failed. */
export const MAIL_GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;

/** Backoff for mail: attempt n waits between half and all of base·2^(n-1) (5 s, 10 s, 20 s, … up to 10 min). */
export function mailRetryDelayMs(attempt: number, random: () => number, baseMs = 5_000, maxMs = 10 * 60_000): number {
  return backoffMs(attempt, random, baseMs, maxMs);
}

/** An SMTP server's answer with every address in it blanked: errors are stored and logged, addresses never are. */
export function withoutAddresses(text: string): string {
  return text.replace(/[^\s<>()[\]"',;:=]+@[^\s<>()[\]"',;:=]+/g, "[address]");
}
