// Delivers the support outbox to the chat channel: at-least-once, one request at a time under a claim that is renewed
// while the channel answers, with backoff, a channel-wide pause on 429, giving up after 24 h.
import crypto from "node:crypto";
import type { Kysely } from "kysely";
import { supportChannelPauses, supportDeliveryAttempts } from "~/platform/metrics.server";
import {
  backoffMs,
  deliverDue,
  newWorkerId,
  type Outbox,
  type OutboxOutcome,
  type OutboxWorker,
  recordPatiently,
  releaseClaims,
  scheduleRetry,
  startOutboxWorker,
} from "~/platform/outbox.server";
import type { DbDialect } from "../../../db/client";
import type { Database } from "../../../db/schema";
import {
  type ChannelPauseStore,
  channelKey,
  databaseChannelPauses,
  rememberingChannelPauses,
} from "./channel-pauses.server";
import { findConversationByRequest } from "~/features/support-conversation/conversation-store.server";
import {
  buildChatChannelMessage,
  CHANNEL_TIMEOUT_MS,
  type ChannelPostResult,
  type ChannelSupportRequest,
  postToChatChannel,
  STATUS_ALERT_CATEGORY,
} from "./chat-channel.server";
import { type DiscordBot, NONCE_LIMIT } from "./discord-bot.server";
import { recordConversationThread } from "./thread-relay-store.server";
import {
  type AttemptRecord,
  SUPPORT_OUTBOX_ROWS,
  type SupportRequest,
  type SupportRequestRow,
  toSupportRequest,
} from "./support-outbox.server";

export const GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;
/** Spacing between posts from one worker, well under Discord's global 50 requests per second. */
export const MIN_POST_INTERVAL_MS = 25;
/** How long stop() lets a post in flight finish: longer than a post may take, well within a 25 s shutdown. */
export const STOP_GRACE_MS = 15_000;

export interface DeliveryOptions {
  db: Kysely<Database>;
  dialect: DbDialect;
  /** The one-way channel: every request without a bot, status alerts, and requests while the bot is refused. */
  webhookUrl?: string;
  /** Posts each visitor's request with a thread of its own (DISCORD_BOT_TOKEN); status alerts stay on the webhook. */
  bot?: DiscordBot;
  /** Told when the bot is refused (token, access, permission) or works again: pages stop promising live replies. */
  onBotProblem?: (problem: BotProblem | null) => void | Promise<void>;
  workerId?: string;
  now?: () => Date;
  /** 0..1; injectable so tests can pin the jitter. */
  random?: () => number;
  timeoutMs?: number;
  /** How long a claim lasts without renewal (a crashed worker's requests are free again after it). */
  leaseMs?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Stop taking work; a post in flight still finishes and is recorded. */
  signal?: AbortSignal;
  /** Give up on a post in flight (shutdown grace is over): its request goes back unattempted, due at once. */
  abandon?: AbortSignal;
  /** Where a 429's pause is kept for every worker (default: the database, plus this worker's own copy). */
  pauses?: ChannelPauseStore;
  onAttempt?: (request: SupportRequest, record: AttemptRecord) => void;
}

/** Exponential backoff with jitter: attempt n waits between half and all of base·2^(n-1), capped. */
export function retryDelayMs(attempt: number, random: () => number, baseMs = 2_000, maxMs = 10 * 60_000): number {
  return backoffMs(attempt, random, baseMs, maxMs);
}

/** The bot's refusals that only the shop owner can fix; meanwhile requests go one-way through the webhook if set. */
export type BotProblem = "unauthorized" | "missing_access" | "missing_permissions" | "unsupported_channel";
const BOT_PROBLEMS = new Set<string>(["unauthorized", "missing_access", "missing_permissions", "unsupported_channel"]);

/** The nonce of a post (Discord's at most 25 characters), the same for every attempt at it: posted once. */
export function discordNonce(id: string): string {
  return crypto.createHash("sha256").update(`kestrel-support:${id}`).digest("base64url").slice(0, NONCE_LIMIT);
}

/**
 * Posts a visitor's request with the bot and records its thread on the conversation (next read: now). A request whose
 * thread is recorded already was posted (a crash came before its delivery was recorded): delivered, not posted again.
 */
async function postThroughBot(
  request: SupportRequest,
  bot: DiscordBot,
  options: DeliveryOptions,
  now: () => Date,
): Promise<ChannelPostResult | { outcome: "bot_refused"; problem: BotProblem; reason: string }> {
  const conversation = await findConversationByRequest(options.db, request.id);
  if (conversation?.thread_id) return { outcome: "delivered" };
  const posted = await bot.postRequest(channelRequest(request), { nonce: discordNonce(request.id), resume: true });
  if (posted.ok) {
    await options.onBotProblem?.(null);
    if (conversation)
      await recordPatiently(() => recordConversationThread(options.db, conversation.id, posted.value, now()));
    return { outcome: "delivered" };
  }
  const { error } = posted;
  const reason = `discord bot: ${error.kind}: ${error.message}`;
  if (BOT_PROBLEMS.has(error.kind)) return { outcome: "bot_refused", problem: error.kind as BotProblem, reason };
  if (error.kind === "rate_limited") return { outcome: "rate_limited", reason, retryAfterMs: error.retryAfterMs };
  if (error.kind === "rejected") return { outcome: "rejected", reason };
  return { outcome: "retry", reason };
}

function channelRequest(request: SupportRequest): ChannelSupportRequest {
  return {
    id: request.id,
    category: request.category,
    questions: request.questions,
    answers: request.answers,
    locale: request.locale,
    createdAt: request.createdAt,
  };
}

/** One attempt at one request; returns what to record (it does not touch the database, but for the bot's thread). */
export async function deliverSupportRequest(request: SupportRequest, options: DeliveryOptions): Promise<AttemptRecord> {
  const now = options.now ?? (() => new Date());
  let result: ChannelPostResult | undefined;
  if (options.bot && request.category !== STATUS_ALERT_CATEGORY) {
    const viaBot = await postThroughBot(request, options.bot, options, now);
    if (viaBot.outcome === "bot_refused") {
      await options.onBotProblem?.(viaBot.problem);
      // The bot is refused: the request still reaches the team, one-way, through the webhook when there is one.
      if (!options.webhookUrl) result = { outcome: "retry", reason: viaBot.reason };
    } else result = viaBot;
  }
  if (result === undefined) {
    if (!options.webhookUrl) return { outcome: "rejected", reason: "no SUPPORT_WEBHOOK_URL to post this into" };
    result = await postToChatChannel(options.webhookUrl, buildChatChannelMessage(channelRequest(request)), {
      timeoutMs: options.timeoutMs ?? CHANNEL_TIMEOUT_MS,
      signal: options.signal,
    });
  }
  if (result.outcome === "delivered" || result.outcome === "rejected") return result;
  const at = now();
  if (result.outcome === "rate_limited")
    return { outcome: "rate_limited", reason: result.reason, until: new Date(at.getTime() + result.retryAfterMs) };
  const { nextAttemptAt, giveUp } = scheduleRetry(request, at, {
    random: options.random ?? Math.random,
    baseMs: options.backoffBaseMs ?? 2_000,
    maxMs: options.backoffMaxMs,
    giveUpAfterMs: GIVE_UP_AFTER_MS,
  });
  return { outcome: "retry", reason: result.reason, nextAttemptAt, giveUp };
}

const METRIC_OUTCOME = {
  delivered: "delivered",
  rejected: "failed",
  rate_limited: "rate_limited",
  retry: "retry",
} as const;

function countAttempt(record: AttemptRecord) {
  supportDeliveryAttempts.inc({
    outcome: record.outcome === "retry" && record.giveUp ? "failed" : METRIC_OUTCOME[record.outcome],
  });
  if (record.outcome === "rate_limited") supportChannelPauses.inc();
}

export interface DeliveryPass {
  delivered: string[];
  retrying: string[];
  failed: string[];
  /** Set when the pass stopped because the channel is paused by a 429 until then. */
  pausedUntil?: Date;
}

/** How a post's attempt (a request's, or a visitor message's with the Discord message it became) is written. */
export function postOutcome(record: AttemptRecord | { outcome: "delivered"; discordMessageId: string }): OutboxOutcome {
  switch (record.outcome) {
    case "delivered":
      return "discordMessageId" in record
        ? { outcome: "done", also: { discord_message_id: record.discordMessageId } }
        : { outcome: "done" };
    case "rejected":
      return { outcome: "failed", reason: record.reason };
    case "rate_limited":
      return { outcome: "wait", reason: record.reason, until: record.until };
    case "retry":
      return record.giveUp
        ? {
            outcome: "failed",
            reason: `gave up after 24 h of failures; last: ${record.reason}`,
            nextAttemptAt: record.nextAttemptAt,
          }
        : { outcome: "retry", reason: record.reason, nextAttemptAt: record.nextAttemptAt };
  }
}

/** The support outbox for the delivery engine: a 429 pauses the whole channel for every worker. */
function supportOutbox(
  options: DeliveryOptions,
  pauses: ChannelPauseStore,
  channel: string,
  now: () => Date,
): Outbox<SupportRequest, AttemptRecord, DeliveryPass> {
  return {
    rows: SUPPORT_OUTBOX_ROWS,
    progress: (request) => request,
    toItems: (rows) => (rows as SupportRequestRow[]).map(toSupportRequest),
    attempt: (request, signal) => deliverSupportRequest(request, { ...options, signal }),
    // A post cut short (claim lost, shutdown) goes back unattempted, due at once: only then can it reach it twice.
    cutShort: (record) => record.outcome === "retry",
    whenCutShort: "release",
    outcome: (_request, record) => postOutcome(record),
    async report(_request, record) {
      countAttempt(record);
      if (record.outcome === "rate_limited") await pauses.pause(channel, record.until, now());
    },
    emptyPass: () => ({ delivered: [], retrying: [], failed: [] }),
    listFor: postPassList,
  };
}

/** Which list of a pass a post's attempt goes into. */
export function postPassList(record: { outcome: AttemptRecord["outcome"]; giveUp?: boolean }) {
  return record.outcome === "delivered"
    ? ("delivered" as const)
    : record.outcome === "rejected" || (record.outcome === "retry" && record.giveUp)
      ? ("failed" as const)
      : ("retrying" as const);
}

/** Delivers due requests one at a time until none is left or the channel is paused (optionally only the given ids). */
export async function deliverDueSupportRequests(options: DeliveryOptions & { ids?: string[] }): Promise<DeliveryPass> {
  const now = options.now ?? (() => new Date());
  const pauses = options.pauses ?? rememberingChannelPauses(databaseChannelPauses(options.db));
  const channel = channelKey(options.webhookUrl ?? "discord-bot");
  return deliverDue(supportOutbox(options, pauses, channel, now), {
    db: options.db,
    dialect: options.dialect,
    workerId: options.workerId ?? newWorkerId("worker"),
    leaseMs: options.leaseMs ?? (options.timeoutMs ?? CHANNEL_TIMEOUT_MS) * 2 + 5_000,
    now,
    ids: options.ids,
    signal: options.signal,
    abandon: options.abandon,
    pausedUntil: () => pauses.pausedUntil(channel, now()),
    spacingMs: MIN_POST_INTERVAL_MS,
    onAttempt: options.onAttempt,
  });
}

export type DeliveryWorker = OutboxWorker;

/** Polls the outbox every `pollMs` (and on kick), and sleeps through a channel pause whatever wakes it. */
export function startDeliveryWorker(
  options: DeliveryOptions & {
    pollMs?: number;
    stopGraceMs?: number;
    onError?: (error: unknown) => void;
    onPass?: (pass: DeliveryPass) => void;
  },
): DeliveryWorker {
  const workerId = options.workerId ?? newWorkerId("worker");
  const pauses = options.pauses ?? rememberingChannelPauses(databaseChannelPauses(options.db));
  return startOutboxWorker({
    runPass: ({ signal, abandon }) => deliverDueSupportRequests({ ...options, workerId, pauses, signal, abandon }),
    releaseAll: () => releaseClaims(options.db, SUPPORT_OUTBOX_ROWS, workerId),
    now: options.now ?? (() => new Date()),
    pollMs: options.pollMs,
    stopGraceMs: options.stopGraceMs ?? STOP_GRACE_MS,
    onError: options.onError,
    onPass: options.onPass,
  });
}
