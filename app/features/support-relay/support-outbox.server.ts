// The support outbox in the database: store, claim, count, and the operator's list/show/retry (the delivery engine,
// `~/platform/outbox.server`, leases and records the attempts).
import crypto from "node:crypto";
import type { Kysely, Selectable } from "kysely";
import type { DbDialect } from "../../../db/client";
import type { Database, SupportRequestsTable } from "../../../db/schema";
import { SUPPORT_QUESTIONS, type SupportCategory } from "~/features/support-chat/support-chat";
import { supportOutboxDepth } from "~/platform/metrics.server";
import { claimDueRows, type OutboxRows } from "~/platform/outbox.server";
import { STATUS_ALERT_CATEGORY } from "./chat-channel.server";

export type SupportRequestRow = Selectable<SupportRequestsTable>;

/** Status changes a probe made travel through the same outbox as visitors' requests (docs/status.md). */
export const STATUS_ALERT_FIELDS = ["What changed", "What the probe saw", "Incident"] as const;
export type OutboxCategory = SupportCategory | typeof STATUS_ALERT_CATEGORY;
export type DeliveryStatus = SupportRequestsTable["delivery_status"];
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ["pending", "delivered", "failed", "no_channel"];

export interface SupportRequest {
  id: string;
  category: OutboxCategory;
  questions: readonly string[];
  answers: string[];
  /** The language the visitor chatted in (`de`); null for status alerts and requests from before it was kept. */
  locale: string | null;
  createdAt: string;
  deliveryStatus: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string;
  firstFailedAt: string | null;
  lastError: string | null;
  deliveredAt: string | null;
  claimedUntil: string | null;
}

export function toSupportRequest(row: SupportRequestRow): SupportRequest {
  const category = row.category as OutboxCategory;
  let answers: string[] = [];
  try {
    const parsed: unknown = JSON.parse(row.answers);
    if (Array.isArray(parsed)) answers = parsed.map(String);
  } catch {}
  return {
    id: row.id,
    category,
    questions: category === STATUS_ALERT_CATEGORY ? STATUS_ALERT_FIELDS : (SUPPORT_QUESTIONS[category] ?? []),
    answers,
    locale: row.locale ?? null,
    createdAt: row.created_at,
    deliveryStatus: row.delivery_status,
    attempts: Number(row.attempts),
    nextAttemptAt: row.next_attempt_at,
    firstFailedAt: row.first_failed_at,
    lastError: row.last_error,
    deliveredAt: row.delivered_at,
    claimedUntil: row.claimed_until,
  };
}

/** Stores an accepted request; with no chat channel configured it waits as `no_channel` for an operator's retry. */
export async function insertSupportRequest(
  db: Kysely<Database>,
  input: { category: OutboxCategory; answers: string[]; locale?: string },
  options: { channelConfigured: boolean; now?: Date },
): Promise<SupportRequest> {
  const now = (options.now ?? new Date()).toISOString();
  const row: SupportRequestRow = {
    id: crypto.randomUUID(),
    category: input.category,
    answers: JSON.stringify(input.answers),
    locale: input.locale ?? null,
    created_at: now,
    delivery_status: options.channelConfigured ? "pending" : "no_channel",
    attempts: 0,
    next_attempt_at: now,
    first_failed_at: null,
    last_error: null,
    delivered_at: null,
    claimed_by: null,
    claimed_until: null,
  };
  await db.insertInto("support_requests").values(row).execute();
  return toSupportRequest(row);
}

/** The outbox's rows, for the delivery engine (`~/platform/outbox.server`). */
export const SUPPORT_OUTBOX_ROWS: OutboxRows = {
  table: "support_requests",
  statusColumn: "delivery_status",
  done: { status: "delivered", atColumn: "delivered_at" },
};

/** Claims due pending requests for one worker until `leaseMs` from now (see `claimDueRows`). */
export async function claimDueSupportRequests(
  db: Kysely<Database>,
  dialect: DbDialect,
  options: { workerId: string; limit: number; leaseMs: number; now?: Date; ids?: string[] },
): Promise<SupportRequest[]> {
  const rows = await claimDueRows<SupportRequestRow>(db, dialect, SUPPORT_OUTBOX_ROWS, {
    ...options,
    now: options.now ?? new Date(),
  });
  return rows.map(toSupportRequest).sort((a, b) => a.nextAttemptAt.localeCompare(b.nextAttemptAt));
}

/** The outcome of one delivery attempt. */
export type AttemptRecord =
  | { outcome: "delivered" }
  | { outcome: "retry"; reason: string; nextAttemptAt: Date; giveUp: boolean }
  /** 429: not a failed attempt; the request waits for the channel's pause to end. */
  | { outcome: "rate_limited"; reason: string; until: Date }
  | { outcome: "rejected"; reason: string };

/** How many requests the outbox holds in each delivery status; also sets the `supportOutboxDepth` gauge. */
export async function readOutboxDepth(db: Kysely<Database>): Promise<Record<DeliveryStatus, number>> {
  const rows = await db
    .selectFrom("support_requests")
    .select(["delivery_status", (eb) => eb.fn.countAll<number | string | bigint>().as("count")])
    .groupBy("delivery_status")
    .execute();
  const depth = Object.fromEntries(DELIVERY_STATUSES.map((status) => [status, 0])) as Record<DeliveryStatus, number>;
  for (const row of rows) depth[row.delivery_status] = Number(row.count);
  for (const status of DELIVERY_STATUSES) supportOutboxDepth.set({ status }, depth[status]);
  return depth;
}

export async function listSupportRequests(
  db: Kysely<Database>,
  options: { status?: DeliveryStatus; limit?: number } = {},
) {
  let query = db
    .selectFrom("support_requests")
    .selectAll()
    .orderBy("created_at", "desc")
    .limit(options.limit ?? 100);
  if (options.status) query = query.where("delivery_status", "=", options.status);
  return (await query.execute()).map(toSupportRequest);
}

export async function findSupportRequest(db: Kysely<Database>, id: string): Promise<SupportRequest | undefined> {
  const row = await db.selectFrom("support_requests").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toSupportRequest(row) : undefined;
}

/**
 * Queues requests for delivery again (an operator's `support retry`): one by id, or every `failed` and
 * `no_channel` one. A pending request only moves its next attempt to now (a worker may hold it). Returns the ids queued.
 */
export async function requeueSupportRequests(
  db: Kysely<Database>,
  target: { id: string } | { allUndelivered: true },
  now = new Date(),
) {
  const nowIso = now.toISOString();
  const requeue = db
    .updateTable("support_requests")
    .set({
      delivery_status: "pending",
      next_attempt_at: nowIso,
      first_failed_at: null,
      claimed_by: null,
      claimed_until: null,
    })
    .where("delivery_status", "in", ["failed", "no_channel"])
    .returning("id");
  if (!("id" in target)) return (await requeue.execute()).map((r) => r.id);
  const again = await requeue.where("id", "=", target.id).execute();
  if (again.length > 0) return again.map((r) => r.id);
  const pending = await db
    .updateTable("support_requests")
    .set({ next_attempt_at: nowIso })
    .where("id", "=", target.id)
    .where("delivery_status", "=", "pending")
    .returning("id")
    .execute();
  return pending.map((r) => r.id);
}
