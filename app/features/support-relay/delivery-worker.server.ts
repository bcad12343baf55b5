// Delivers the support outbox to the chat channel: at-least-once, one request at a time under a claim that is renewed
// while the channel answers, with backoff, a channel-wide pause on 429, giving up after 24 h.
import crypto from "node:crypto";
import type { Kysely } from "kysely";
import { supportChannelPauses, supportDeliveryAttempts } from "~/platform/metrics.server";
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
  claimDueSupportRequests,
  recordDeliveryAttempt,
  releaseSupportClaims,
  renewSupportClaim,
  type SupportRequest,
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
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
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
  const failingSince = request.firstFailedAt ? Date.parse(request.firstFailedAt) : at.getTime();
  const wait = retryDelayMs(
    request.attempts + 1,
    options.random ?? Math.random,
    options.backoffBaseMs,
    options.backoffMaxMs,
  );
  return {
    outcome: "retry",
    reason: result.reason,
    nextAttemptAt: new Date(at.getTime() + wait),
    giveUp: at.getTime() - failingSince >= GIVE_UP_AFTER_MS,
  };
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

/**
 * Posts one claimed request while holding its claim: the claim must still be this worker's and unexpired when the
 * post starts, and is renewed every third of the lease until the channel answers, so a slow channel never lets a
 * second worker take the request. Returns undefined when the claim was gone or the post was abandoned (not posted,
 * or posted without an answer: only then can the request reach the channel twice).
 */
async function postWhileClaimed(
  request: SupportRequest,
  options: DeliveryOptions & { workerId: string; leaseMs: number; now: () => Date },
) {
  const { db, workerId, leaseMs, now } = options;
  if (!(await renewSupportClaim(db, request.id, workerId, leaseMs, now()))) return undefined;
  const lost = new AbortController();
  const renewal = setInterval(() => {
    // A renewal that fails (database briefly away) is retried at the next tick while the lease still runs.
    renewSupportClaim(db, request.id, workerId, leaseMs, now()).then(
      (held) => held || lost.abort(),
      () => {},
    );
  }, leaseMs / 3);
  try {
    const signal = AbortSignal.any([lost.signal, ...(options.abandon ? [options.abandon] : [])]);
    const record = await deliverSupportRequest(request, { ...options, signal });
    return record.outcome === "retry" && signal.aborted ? undefined : record;
  } finally {
    clearInterval(renewal);
  }
}

/**
 * Writes an attempt's outcome, trying again over ~2 s if the database hiccups: a post the channel showed but we
 * failed to record would be posted again once its claim runs out.
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

export interface DeliveryPass {
  delivered: string[];
  retrying: string[];
  failed: string[];
  /** Set when the pass stopped because the channel is paused by a 429 until then. */
  pausedUntil?: Date;
}

/** Delivers due requests one at a time until none is left or the channel is paused (optionally only the given ids). */
export async function deliverDueSupportRequests(options: DeliveryOptions & { ids?: string[] }): Promise<DeliveryPass> {
  const workerId = options.workerId ?? `worker-${crypto.randomUUID()}`;
  const now = options.now ?? (() => new Date());
  const leaseMs = options.leaseMs ?? (options.timeoutMs ?? CHANNEL_TIMEOUT_MS) * 2 + 5_000;
  const pauses = options.pauses ?? rememberingChannelPauses(databaseChannelPauses(options.db));
  const channel = channelKey(options.webhookUrl ?? "discord-bot");
  const pass: DeliveryPass = { delivered: [], retrying: [], failed: [] };
  let lastPostAt = 0;
  for (;;) {
    if (options.signal?.aborted) return pass;
    const pausedUntil = await pauses.pausedUntil(channel, now());
    if (pausedUntil) return { ...pass, pausedUntil };
    const spacing = lastPostAt + MIN_POST_INTERVAL_MS - Date.now();
    if (spacing > 0) await new Promise((r) => setTimeout(r, spacing));
    // One at a time: a claim never waits behind other posts, so it is only as old as the post it covers.
    const [request] = await claimDueSupportRequests(options.db, options.dialect, {
      workerId,
      limit: 1,
      leaseMs,
      now: now(),
      ids: options.ids,
    });
    if (!request) return pass;
    lastPostAt = Date.now();
    const record = await postWhileClaimed(request, { ...options, workerId, leaseMs, now });
    if (!record) {
      await releaseSupportClaims(options.db, workerId, [request.id]);
      continue;
    }
    countAttempt(record);
    if (record.outcome === "rate_limited") await pauses.pause(channel, record.until, now());
    await recordPatiently(() => recordDeliveryAttempt(options.db, request, workerId, record, now()));
    options.onAttempt?.(request, record);
    if (record.outcome === "delivered") pass.delivered.push(request.id);
    else if (record.outcome === "rejected" || (record.outcome === "retry" && record.giveUp))
      pass.failed.push(request.id);
    else pass.retrying.push(request.id);
  }
}

export interface DeliveryWorker {
  /** Look for work now (after a new request) instead of at the next poll; a paused channel stays paused. */
  kick(): void;
  /** Takes no more work, lets a post in flight finish (up to `stopGraceMs`), and hands back every claim still held. */
  stop(): Promise<void>;
}

/** Polls the outbox every `pollMs` (and on kick), and sleeps through a channel pause whatever wakes it. */
export function startDeliveryWorker(
  options: DeliveryOptions & {
    pollMs?: number;
    stopGraceMs?: number;
    onError?: (error: unknown) => void;
    onPass?: (pass: DeliveryPass) => void;
  },
): DeliveryWorker {
  const stopping = new AbortController();
  const abandon = new AbortController();
  const workerId = options.workerId ?? `worker-${crypto.randomUUID()}`;
  const now = options.now ?? (() => new Date());
  const pauses = options.pauses ?? rememberingChannelPauses(databaseChannelPauses(options.db));
  let wake: (() => void) | undefined;
  let kickWakes = false;
  let kicked = false;
  const sleep = (ms: number, { wakeOnKick }: { wakeOnKick: boolean }) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.max(0, ms));
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
      kickWakes = wakeOnKick;
    });
  const loop = (async () => {
    while (!stopping.signal.aborted) {
      kicked = false;
      let pass: DeliveryPass | undefined;
      try {
        pass = await deliverDueSupportRequests({
          ...options,
          workerId,
          pauses,
          signal: stopping.signal,
          abandon: abandon.signal,
        });
        options.onPass?.(pass);
      } catch (error) {
        if (!stopping.signal.aborted) options.onError?.(error);
      }
      if (stopping.signal.aborted) break;
      if (pass?.pausedUntil) await sleep(pass.pausedUntil.getTime() - now().getTime(), { wakeOnKick: false });
      else if (!kicked) await sleep(options.pollMs ?? 1000, { wakeOnKick: true });
    }
    // Claims still held go back now, so another instance need not wait for their lease to run out.
    await releaseSupportClaims(options.db, workerId).catch((error: unknown) => options.onError?.(error));
  })();
  return {
    kick() {
      kicked = true;
      if (kickWakes) wake?.();
    },
    async stop() {
      stopping.abort();
      wake?.();
      const grace = setTimeout(() => abandon.abort(), options.stopGraceMs ?? STOP_GRACE_MS);
      try {
        await loop;
      } finally {
        clearTimeout(grace);
      }
    },
  };
}
