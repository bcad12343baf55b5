// The console's deliveries (issue 35): support requests and mail still waiting or failed, with why and when next;
// Retry on a failed one through the delivery engine (docs/decisions/027), once however many press it; and what the
// Discord bot and the SMTP server last told us. The page's loader and action are in deliveries-page.server.ts.
import type { Kysely } from "kysely";
import { MAIL_OUTBOX_ROWS } from "~/features/mail/mail-outbox.server";
import { describeSmtpServer } from "~/features/mail/smtp.server";
import { SUPPORT_OUTBOX_ROWS } from "~/features/support-relay/support-outbox.server";
import { RELAY_STATUS_NAME } from "~/features/support-relay/thread-relay-store.server";
import { getEnv } from "~/platform/env.server";
import { claimFailedRow, newWorkerId, recordOutcome, releaseClaims } from "~/platform/outbox.server";
import type { Database } from "../../../../db/schema";

type Db = Kysely<Database>;

export const DELIVERY_KINDS = ["support-request", "mail"] as const;
export type DeliveryKind = (typeof DELIVERY_KINDS)[number];
export const DELIVERY_LIST_LIMIT = 100;

export interface DeliveryLine {
  kind: DeliveryKind;
  id: string;
  /** The request's type or the mail's kind: never its text or address. */
  what: string;
  status: string;
  attempts: number;
  createdAt: string;
  /** When it is tried next (pending), or when it would have been. */
  nextAttemptAt: string;
  lastError: string | null;
}

/** What the team's Discord bot last said (shared by every instance in support_relay_status). */
export type DiscordState =
  | "not-configured"
  | "not-checked"
  | "working"
  | "unauthorized"
  | "missing_access"
  | "missing_permissions"
  | "unsupported_channel"
  | "intent_missing";

export interface DeliveryHealth {
  discord: { state: DiscordState; since: string | null };
  webhook: boolean;
  smtp: { server: string | null; lastSentAt: string | null; lastFailure: { at: string; reason: string } | null };
}

const DISCORD_STATES = new Set<string>([
  "unauthorized",
  "missing_access",
  "missing_permissions",
  "unsupported_channel",
  "intent_missing",
]);

/** Waiting and failed rows of both outboxes, failed first, then by their next attempt. */
export async function listDeliveries(db: Db, limit = DELIVERY_LIST_LIMIT): Promise<DeliveryLine[]> {
  const [requests, mail] = await Promise.all([
    db
      .selectFrom("support_requests")
      .select(["id", "category", "delivery_status", "attempts", "created_at", "next_attempt_at", "last_error"])
      .where("delivery_status", "in", ["failed", "pending", "no_channel"])
      .orderBy("next_attempt_at")
      .limit(limit)
      .execute(),
    db
      .selectFrom("mail_outbox")
      .select(["id", "kind", "status", "attempts", "created_at", "next_attempt_at", "last_error"])
      .where("status", "in", ["failed", "pending"])
      .orderBy("next_attempt_at")
      .limit(limit)
      .execute(),
  ]);
  const lines: DeliveryLine[] = [
    ...requests.map((r) => ({
      kind: "support-request" as const,
      id: r.id,
      what: r.category,
      status: r.delivery_status,
      attempts: Number(r.attempts),
      createdAt: r.created_at,
      nextAttemptAt: r.next_attempt_at,
      lastError: r.last_error,
    })),
    ...mail.map((m) => ({
      kind: "mail" as const,
      id: m.id,
      what: m.kind,
      status: m.status,
      attempts: Number(m.attempts),
      createdAt: m.created_at,
      nextAttemptAt: m.next_attempt_at,
      lastError: m.last_error,
    })),
  ];
  const rank = (line: DeliveryLine) => (line.status === "failed" ? 0 : 1);
  return lines.sort((a, b) => rank(a) - rank(b) || a.nextAttemptAt.localeCompare(b.nextAttemptAt));
}

export async function readDeliveryHealth(db: Db): Promise<DeliveryHealth> {
  const env = getEnv();
  const botConfigured = env.DISCORD_BOT_TOKEN !== undefined && env.DISCORD_SUPPORT_CHANNEL_ID !== undefined;
  const [relay, sent, failed] = await Promise.all([
    db
      .selectFrom("support_relay_status")
      .select(["blocked_reason", "updated_at"])
      .where("name", "=", RELAY_STATUS_NAME)
      .executeTakeFirst(),
    db
      .selectFrom("mail_outbox")
      .select("sent_at")
      .where("status", "=", "sent")
      .orderBy("sent_at", "desc")
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom("mail_outbox")
      .select(["next_attempt_at", "first_failed_at", "last_error"])
      .where("status", "in", ["failed", "pending"])
      .where("last_error", "is not", null)
      .orderBy("next_attempt_at", "desc")
      .limit(1)
      .executeTakeFirst(),
  ]);
  const discord: DiscordState = !botConfigured
    ? "not-configured"
    : !relay
      ? "not-checked"
      : relay.blocked_reason === null
        ? "working"
        : DISCORD_STATES.has(relay.blocked_reason)
          ? (relay.blocked_reason as DiscordState)
          : "unauthorized";
  return {
    discord: { state: discord, since: relay?.updated_at ?? null },
    webhook: env.SUPPORT_WEBHOOK_URL !== undefined,
    smtp: {
      server: env.SMTP_URL ? describeSmtpServer(env.SMTP_URL) : null,
      lastSentAt: sent?.sent_at ?? null,
      lastFailure:
        failed?.last_error != null
          ? { at: failed.first_failed_at ?? failed.next_attempt_at, reason: failed.last_error }
          : null,
    },
  };
}

/** Retrying means a claim for an instant: long enough to write the requeue, short if this process dies meanwhile. */
const RETRY_LEASE_MS = 30_000;

/**
 * Makes a failed support request or mail due again now, through the delivery engine: the row is claimed only while it
 * is failed and unclaimed, then written back as pending with its failing clock restarted. Of two people pressing Retry
 * at once exactly one gets "requeued"; the other (and a retry of anything not failed) gets "not-failed".
 */
export async function retryDelivery(
  db: Db,
  kind: DeliveryKind,
  id: string,
  now = new Date(),
): Promise<"requeued" | "not-failed"> {
  const rows = kind === "mail" ? MAIL_OUTBOX_ROWS : SUPPORT_OUTBOX_ROWS;
  const workerId = newWorkerId("console-retry");
  const item = await claimFailedRow(db, rows, id, {
    workerId,
    leaseMs: RETRY_LEASE_MS,
    now,
    failedStatuses: ["failed"],
  });
  if (!item) return "not-failed";
  if (await recordOutcome(db, rows, item, workerId, { outcome: "requeued", at: now }, now)) return "requeued";
  await releaseClaims(db, rows, workerId, { ids: [id] });
  return "not-failed";
}
