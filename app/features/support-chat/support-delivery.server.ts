// Delivers the support outbox to the chat channel: at-least-once, with backoff, honouring 429s, giving up after 24 h.
import crypto from "node:crypto";
import type { Kysely } from "kysely";
import type { DbDialect } from "../../../db/client";
import type { Database } from "../../../db/schema";
import { buildChatChannelMessage, CHANNEL_TIMEOUT_MS, postToChatChannel } from "./chat-channel.server";
import { type AttemptRecord, claimDueSupportRequests, recordDeliveryAttempt, releaseSupportClaims, type SupportRequest } from "./support-requests.server";

export const GIVE_UP_AFTER_MS = 24 * 60 * 60 * 1000;
/** Spacing between posts from one worker, well under Discord's global 50 requests per second. */
export const MIN_POST_INTERVAL_MS = 25;

export interface DeliveryOptions {
  db: Kysely<Database>;
  dialect: DbDialect;
  webhookUrl: string;
  workerId?: string;
  now?: () => Date;
  /** 0..1; injectable so tests can pin the jitter. */
  random?: () => number;
  timeoutMs?: number;
  /** How long a claim lasts; longer than one attempt so a live worker never loses its claim. */
  leaseMs?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  signal?: AbortSignal;
  onAttempt?: (request: SupportRequest, record: AttemptRecord) => void;
}

/** Exponential backoff with jitter: attempt n waits between half and all of base·2^(n-1), capped. */
export function retryDelayMs(attempt: number, random: () => number, baseMs = 2_000, maxMs = 10 * 60_000): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** One attempt at one request; returns what to record (it does not touch the database). */
export async function deliverSupportRequest(request: SupportRequest, options: DeliveryOptions): Promise<AttemptRecord> {
  const now = options.now ?? (() => new Date());
  const message = buildChatChannelMessage({
    id: request.id,
    category: request.category,
    questions: request.questions,
    answers: request.answers,
    createdAt: request.createdAt,
  });
  const result = await postToChatChannel(options.webhookUrl, message, { timeoutMs: options.timeoutMs ?? CHANNEL_TIMEOUT_MS, signal: options.signal });
  if (result.outcome !== "retry") return result;
  const at = now();
  const failingSince = request.firstFailedAt ? Date.parse(request.firstFailedAt) : at.getTime();
  const wait = result.retryAfterMs ?? retryDelayMs(request.attempts + 1, options.random ?? Math.random, options.backoffBaseMs, options.backoffMaxMs);
  return {
    outcome: "retry",
    reason: result.reason,
    nextAttemptAt: new Date(at.getTime() + wait),
    giveUp: at.getTime() - failingSince >= GIVE_UP_AFTER_MS,
    rateLimited: result.retryAfterMs !== undefined,
  };
}

export interface DeliveryPass {
  delivered: string[];
  retrying: string[];
  failed: string[];
}

/** Claims and delivers due requests until none is left (optionally only the given ids). */
export async function deliverDueSupportRequests(options: DeliveryOptions & { ids?: string[]; batchSize?: number }): Promise<DeliveryPass> {
  const workerId = options.workerId ?? `worker-${crypto.randomUUID()}`;
  const now = options.now ?? (() => new Date());
  const timeoutMs = options.timeoutMs ?? CHANNEL_TIMEOUT_MS;
  const pass: DeliveryPass = { delivered: [], retrying: [], failed: [] };
  for (;;) {
    if (options.signal?.aborted) return pass;
    const claimed = await claimDueSupportRequests(options.db, options.dialect, {
      workerId,
      limit: options.batchSize ?? 10,
      leaseMs: options.leaseMs ?? timeoutMs * 2 + 5_000,
      now: now(),
      ids: options.ids,
    });
    if (claimed.length === 0) return pass;
    let lastPostAt = 0;
    for (const [index, request] of claimed.entries()) {
      if (options.signal?.aborted) {
        await releaseSupportClaims(options.db, claimed.slice(index).map((r) => r.id), workerId);
        return pass;
      }
      const spacing = lastPostAt + MIN_POST_INTERVAL_MS - Date.now();
      if (spacing > 0) await new Promise((r) => setTimeout(r, spacing));
      lastPostAt = Date.now();
      const record = await deliverSupportRequest(request, { ...options, workerId });
      await recordDeliveryAttempt(options.db, request, workerId, record, now());
      options.onAttempt?.(request, record);
      if (record.outcome === "delivered") pass.delivered.push(request.id);
      else if (record.outcome === "rejected" || record.giveUp) pass.failed.push(request.id);
      else pass.retrying.push(request.id);
      if (record.outcome === "retry" && record.rateLimited) {
        // The channel asked us to wait: the rest of this batch waits too instead of collecting more 429s.
        const rest = claimed.slice(index + 1);
        await releaseSupportClaims(options.db, rest.map((r) => r.id), workerId, record.nextAttemptAt);
        pass.retrying.push(...rest.map((r) => r.id));
        return pass;
      }
    }
  }
}

export interface DeliveryWorker {
  /** Look for work now (after a new request) instead of at the next poll. */
  kick(): void;
  stop(): Promise<void>;
}

/** Polls the outbox every `pollMs` (and on kick); stop() aborts an attempt in flight (recorded as a retry) and hands back the rest. */
export function startDeliveryWorker(options: DeliveryOptions & { pollMs?: number; onError?: (error: unknown) => void }): DeliveryWorker {
  const controller = new AbortController();
  const workerId = options.workerId ?? `worker-${crypto.randomUUID()}`;
  let wake: (() => void) | undefined;
  let kicked = false;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });
  const loop = (async () => {
    while (!controller.signal.aborted) {
      kicked = false;
      try {
        await deliverDueSupportRequests({ ...options, workerId, signal: controller.signal });
      } catch (error) {
        if (!controller.signal.aborted) options.onError?.(error);
      }
      if (!kicked && !controller.signal.aborted) await sleep(options.pollMs ?? 1000);
    }
  })();
  return {
    kick() {
      kicked = true;
      wake?.();
    },
    async stop() {
      controller.abort();
      wake?.();
      await loop;
    },
  };
}
