// The bot's two-way side (issue 30, docs/decisions/025): visitor messages posted into their request's thread (claimed
// like the support outbox, each with a nonce so Discord keeps one copy), and the team's replies read back from the
// threads over REST by one instance at a time (a lease), fast while the visitor is there, slower otherwise.
import crypto from "node:crypto";
import type { Kysely } from "kysely";
import { ringConversation } from "~/features/support-conversation/conversation-doorbell.server";
import { type ConversationRow, resolveConversation } from "~/features/support-conversation/conversation-store.server";
import { CONVERSATION_IDLE_MS, VISITOR_ACTIVE_MS } from "~/features/support-conversation/support-conversation";
import { addTeamReply, setRepliesBlocked } from "~/features/support-conversation/support-conversation.server";
import type { DbDialect } from "../../../db/client";
import type { Database } from "../../../db/schema";
import { discordNonce, GIVE_UP_AFTER_MS, postOutcome, postPassList, STOP_GRACE_MS } from "./delivery-worker.server";
import type { DiscordBot, DiscordBotError, ThreadMessage } from "./discord-bot.server";
import {
  type ClaimedVisitorMessage,
  dueConversations,
  type ReadSchedule,
  readRelayBlocked,
  saveReadCursor,
  scheduleNextRead,
  VISITOR_MESSAGE_ROWS,
  type VisitorMessageAttempt,
  type VisitorMessageRow,
  visitorIsActive,
  withThreads,
  writeRelayBlocked,
} from "./thread-relay-store.server";
import { addConversationNote } from "~/features/support-conversation/conversation-notes.server";
import { postDueThreadPosts, THREAD_POST_ROWS } from "./thread-posts.server";
import { startLeasedJob } from "~/platform/leases.server";
import { threadPostAttempts } from "~/platform/metrics.server";
import { deliverDue, type Outbox, releaseClaims, scheduleRetry, startOutboxWorker } from "~/platform/outbox.server";

/** The lease (table `leases`, as the catalogue sync's) under which one instance reads the threads. */
export const REPLY_READER_LEASE = "support-replies";
export const REPLY_READER_LEASE_MS = 15_000;
/** An active visitor's thread: read every 2 s, so a reply is on the page within 3 s with the stream's second. */
export const ACTIVE_READ_INTERVAL_MS = 2_000;
/** Everyone else's: once a minute (the visitor gets the reply by mail after 2 min anyway). */
export const IDLE_READ_INTERVAL_MS = 60_000;
/** How often a thread is asked whether the team archived or locked it (one GET of the thread). */
export const STATE_CHECK_INTERVAL_MS = 5 * 60_000;
/** Reads in flight at once: enough to reach Discord's 50 requests per second at ~150 ms a request. */
export const READ_CONCURRENCY = 8;
/** Pages (of 100 messages) read from one thread in one go; the rest at its next read. */
const MAX_PAGES_PER_READ = 10;

/** Why replies cannot reach the visitor: the bot's refusals and the Message Content intent switched off. */
export type RelayBlock =
  | "unauthorized"
  | "missing_access"
  | "missing_permissions"
  | "unsupported_channel"
  | "intent_missing";
const BLOCKING_ERRORS = new Set<DiscordBotError["kind"]>(["unauthorized", "missing_access", "missing_permissions"]);

/** Keeps this instance's pages and the shared row in step; writes only when the verdict changes. */
export function relayBlocker(db: Kysely<Database>, onError: (error: unknown) => void = () => {}) {
  let current: string | null | undefined;
  // Writes one after the other, so an older verdict never lands after a newer one.
  let writes: Promise<void> = Promise.resolve();
  return {
    /** Resolves once the shared row says so too (a failed write is reported, and tried again at the next change). */
    set(reason: RelayBlock | null): Promise<void> {
      setRepliesBlocked(reason);
      if (current === reason) return writes;
      current = reason;
      writes = writes.then(() =>
        writeRelayBlocked(db, reason).catch((error: unknown) => {
          current = undefined;
          onError(error);
        }),
      );
      return writes;
    },
    /** Another instance's verdict (it reads the threads), taken over by this instance's pages. */
    async refresh() {
      current = await readRelayBlocked(db);
      setRepliesBlocked(current);
    },
    get current() {
      return current ?? null;
    },
  };
}
export type RelayBlocker = ReturnType<typeof relayBlocker>;

// ---------------------------------------------------------------------------------------------------------------------
// Visitor messages into the thread

export interface ThreadPostOptions {
  db: Kysely<Database>;
  dialect: DbDialect;
  bot: DiscordBot;
  workerId: string;
  now?: () => Date;
  random?: () => number;
  /** Longer than a post may take with its waits (the bot gives up on a 429 longer than its in-call wait). */
  leaseMs?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  signal?: AbortSignal;
  /** Give up on a post in flight (the shutdown grace is over): the message goes back unattempted. */
  abandon?: AbortSignal;
  blocker?: RelayBlocker;
  onAttempt?: (message: ClaimedVisitorMessage, attempt: VisitorMessageAttempt) => void;
}

export interface ThreadPostPass {
  delivered: string[];
  retrying: string[];
  failed: string[];
  /** A 429 asked us to wait until then before posting anything more. */
  pausedUntil?: Date;
}

/** One post of one claimed message; what to record. A locked thread is the team's "resolved": the message fails. */
async function postVisitorMessage(message: ClaimedVisitorMessage, options: ThreadPostOptions, now: Date) {
  const posted = await options.bot.postToThread(message.thread_id, message.body, { nonce: discordNonce(message.id) });
  if (posted.ok) {
    if (options.blocker?.current !== "intent_missing") await options.blocker?.set(null);
    return { outcome: "delivered", discordMessageId: posted.value.messageId } as const;
  }
  const { error } = posted;
  const reason = `discord bot: ${error.kind}: ${error.message}`;
  if (BLOCKING_ERRORS.has(error.kind)) await options.blocker?.set(error.kind as RelayBlock);
  if (error.kind === "rate_limited")
    return { outcome: "rate_limited", reason, until: new Date(now.getTime() + error.retryAfterMs) } as const;
  if (error.kind === "rejected") return { outcome: "rejected", reason } as const;
  if (error.kind === "thread_closed" || error.kind === "not_found") {
    if (await resolveConversation(options.db, message.conversation_id, now)) ringConversation(message.conversation_id);
    return { outcome: "rejected", reason } as const;
  }
  const { nextAttemptAt, giveUp } = scheduleRetry(progressOf(message), now, {
    random: options.random ?? Math.random,
    baseMs: options.backoffBaseMs ?? 2_000,
    maxMs: options.backoffMaxMs,
    giveUpAfterMs: GIVE_UP_AFTER_MS,
  });
  return { outcome: "retry", reason, nextAttemptAt, giveUp } as const;
}

const progressOf = (message: VisitorMessageRow) => ({
  attempts: Number(message.attempts),
  firstFailedAt: message.first_failed_at,
});

/** Visitor messages for the delivery engine: a 429 stops the pass until Discord's Retry-After. */
function visitorMessageOutbox(
  options: ThreadPostOptions,
  now: () => Date,
): Outbox<ClaimedVisitorMessage, VisitorMessageAttempt, ThreadPostPass> {
  return {
    rows: VISITOR_MESSAGE_ROWS,
    progress: progressOf,
    toItems: (rows) => withThreads(options.db, rows as VisitorMessageRow[]),
    attempt: (message) => postVisitorMessage(message, options, now()),
    cutShort: (attempt) => attempt.outcome === "retry",
    whenCutShort: "release",
    outcome: (_message, attempt) => postOutcome(attempt),
    report: (_message, attempt) => {
      threadPostAttempts.inc({ outcome: postPassList(attempt) === "failed" ? "failed" : attempt.outcome });
    },
    emptyPass: () => ({ delivered: [], retrying: [], failed: [] }),
    listFor: postPassList,
    pauseAfter: (attempt) => (attempt.outcome === "rate_limited" ? attempt.until : undefined),
  };
}

/** Posts due visitor messages one at a time until none is left or Discord asks us to wait. */
export async function postDueVisitorMessages(options: ThreadPostOptions): Promise<ThreadPostPass> {
  const now = options.now ?? (() => new Date());
  return deliverDue(visitorMessageOutbox(options, now), {
    db: options.db,
    dialect: options.dialect,
    workerId: options.workerId,
    leaseMs: options.leaseMs ?? 120_000,
    now,
    signal: options.signal,
    abandon: options.abandon,
    onAttempt: options.onAttempt,
  });
}

// ---------------------------------------------------------------------------------------------------------------------
// The team's replies out of the threads

export interface ReplyReaderOptions {
  db: Kysely<Database>;
  bot: DiscordBot;
  now?: () => Date;
  schedule?: Partial<ReadSchedule>;
  stateCheckMs?: number;
  concurrency?: number;
  /** Conversations taken per round of a pass. */
  batch?: number;
  blocker?: RelayBlocker;
  signal?: AbortSignal;
  /** Each read of a thread (tests and the bench count them). */
  onRead?: (conversationId: string, outcome: ReadOutcome) => void;
}

export type ReadOutcome = "read" | "resolved" | "error" | "stopped";

export interface ReadPass {
  read: number;
  relayed: number;
  resolved: number;
  errors: number;
}

export const DEFAULT_SCHEDULE: ReadSchedule = {
  fastMs: ACTIVE_READ_INTERVAL_MS,
  slowMs: IDLE_READ_INTERVAL_MS,
  activeMs: VISITOR_ACTIVE_MS,
  idleMs: CONVERSATION_IDLE_MS,
};

/** The text a team reply shows: its words, then its attachments' addresses (the page makes them safe links). */
function replyBody(message: Extract<ThreadMessage, { kind: "team_reply" }>): string {
  return [message.text, ...message.attachmentUrls].filter((part) => part.trim() !== "").join("\n");
}

/**
 * Reads one thread after its cursor: each team reply is stored (once: by its Discord id) before the cursor moves past
 * it, so a crash or an outage in between means a second read that stores nothing new. A message Discord blanked (the
 * Message Content intent is off) stops the cursor before it, so it is relayed once the owner switches the intent on.
 */
async function readConversation(
  conversation: ConversationRow,
  options: ReplyReaderOptions,
  schedule: ReadSchedule,
  pass: ReadPass,
): Promise<ReadOutcome | { stopPass: DiscordBotError }> {
  const { db, bot } = options;
  const now = options.now ?? (() => new Date());
  const threadId = conversation.thread_id as string;
  let after = conversation.last_relayed_message_id ?? undefined;
  let error: DiscordBotError | undefined;
  let blankSeen = false;
  let readable = false;
  for (let page = 0; page < MAX_PAGES_PER_READ && !blankSeen; page++) {
    const result = await bot.readThread(threadId, after === undefined ? {} : { after });
    if (!result.ok) {
      error = result.error;
      break;
    }
    let cursor: string | undefined;
    for (const message of result.value.messages) {
      if (message.kind === "unreadable") {
        blankSeen = true;
        break;
      }
      if (message.kind === "team_reply") {
        readable = true;
        const stored = await addTeamReply(
          db,
          conversation.id,
          { authorName: message.authorName, body: replyBody(message), discordMessageId: message.id },
          now(),
        );
        if (stored) pass.relayed += 1;
      } else if (message.kind === "note") {
        readable = true;
        const stored = await addConversationNote(
          db,
          {
            conversationId: conversation.id,
            authorName: message.authorName,
            body: message.text,
            source: "discord",
            discordMessageId: message.id,
          },
          now(),
        );
        // The console's open pages hear of it; the visitor's streams read nothing new.
        if (stored) ringConversation(conversation.id);
      }
      cursor = message.id;
    }
    if (cursor !== undefined) {
      await saveReadCursor(db, conversation.id, cursor);
      after = cursor;
    }
    if (!result.value.more) break;
  }
  const at = now();
  const active = visitorIsActive(conversation, at, schedule.activeMs);
  const interval = active ? schedule.fastMs : schedule.slowMs;
  if (error) {
    if (error.kind === "not_found") {
      // The team deleted the thread: nothing more can come from it.
      if (await resolveConversation(db, conversation.id, at)) ringConversation(conversation.id);
      return "resolved";
    }
    if (BLOCKING_ERRORS.has(error.kind)) await options.blocker?.set(error.kind as RelayBlock);
    const wait = error.kind === "rate_limited" ? Math.max(error.retryAfterMs, interval) : interval;
    await scheduleNextRead(db, conversation.id, { readAt: at, nextReadAt: new Date(at.getTime() + wait) });
    if (BLOCKING_ERRORS.has(error.kind) || error.kind === "invalid_request_budget") return { stopPass: error };
    return "error";
  }
  if (blankSeen) await options.blocker?.set("intent_missing");
  else if (readable || (options.blocker?.current !== "intent_missing" && options.blocker?.current !== null))
    await options.blocker?.set(null);
  // Archiving or locking the thread is how the team resolves the conversation; Discord still answers reads then.
  const stateCheckMs = options.stateCheckMs ?? STATE_CHECK_INTERVAL_MS;
  const checkedAt = conversation.state_checked_at ? Date.parse(conversation.state_checked_at) : 0;
  let stateCheckedAt: Date | undefined;
  if (at.getTime() - checkedAt >= stateCheckMs) {
    const state = await bot.threadState(threadId);
    if (state.ok) {
      stateCheckedAt = at;
      if (state.value.resolved) {
        if (await resolveConversation(db, conversation.id, at)) {
          pass.resolved += 1;
          ringConversation(conversation.id);
        }
        return "resolved";
      }
    }
  }
  await scheduleNextRead(db, conversation.id, {
    readAt: at,
    nextReadAt: new Date(at.getTime() + interval),
    stateCheckedAt,
  });
  return "read";
}

/** Reads every thread due now, `concurrency` at a time; stops early when the bot is refused or the lease is lost. */
export async function readDueThreads(options: ReplyReaderOptions): Promise<ReadPass> {
  const now = options.now ?? (() => new Date());
  const schedule = { ...DEFAULT_SCHEDULE, ...options.schedule };
  const pass: ReadPass = { read: 0, relayed: 0, resolved: 0, errors: 0 };
  const batch = options.batch ?? 200;
  const seen = new Set<string>();
  let stop = false;
  while (!stop && !options.signal?.aborted) {
    const due = (await dueConversations(options.db, schedule, now(), batch)).filter((c) => !seen.has(c.id));
    if (due.length === 0) break;
    let next = 0;
    const worker = async () => {
      while (!stop && !options.signal?.aborted) {
        const conversation = due[next++];
        if (!conversation) return;
        seen.add(conversation.id);
        let outcome: ReadOutcome;
        try {
          const result = await readConversation(conversation, options, schedule, pass);
          if (typeof result === "object") {
            stop = true;
            outcome = "error";
          } else outcome = result;
        } catch {
          outcome = "error";
        }
        if (outcome === "error") pass.errors += 1;
        else pass.read += 1;
        options.onRead?.(conversation.id, outcome);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? READ_CONCURRENCY) }, worker));
  }
  return pass;
}

// ---------------------------------------------------------------------------------------------------------------------
// Running it

export interface ThreadRelayOptions extends Omit<ReplyReaderOptions, "signal"> {
  dialect: DbDialect;
  instanceId?: string;
  leaseMs?: number;
  /** How often the reader looks for due threads (and a non-holder tries for the lease). */
  tickMs?: number;
  /** How often visitor messages are looked for besides the wake-up a new one gives. */
  postPollMs?: number;
  /** How often a non-reading instance takes over the reader's verdict on the bot. */
  statusRefreshMs?: number;
  postBackoffBaseMs?: number;
  onError?: (error: unknown) => void;
  onPostAttempt?: ThreadPostOptions["onAttempt"];
  onPass?: (pass: ReadPass & { leaseHeld: boolean }) => void;
}

export interface ThreadRelay {
  /** A visitor message waits: post it now instead of at the next poll. */
  kick(): void;
  /** Finishes the read and the post in flight, hands back claims and the lease. */
  stop(): Promise<void>;
}

/** Starts posting visitor messages (every instance: claims keep them apart) and reading replies (the lease holder). */
export function startThreadRelay(options: ThreadRelayOptions): ThreadRelay {
  const instanceId = options.instanceId ?? `relay-${crypto.randomUUID()}`;
  const now = options.now ?? (() => new Date());
  const onError = options.onError ?? (() => {});
  const blocker = options.blocker ?? relayBlocker(options.db, onError);

  const posting = startOutboxWorker({
    runPass: ({ signal, abandon }) =>
      postDueVisitorMessages({
        db: options.db,
        dialect: options.dialect,
        bot: options.bot,
        workerId: instanceId,
        now,
        blocker,
        signal,
        abandon,
        backoffBaseMs: options.postBackoffBaseMs,
        onAttempt: options.onPostAttempt,
      }),
    releaseAll: () => releaseClaims(options.db, VISITOR_MESSAGE_ROWS, instanceId),
    now,
    pollMs: options.postPollMs ?? 1_000,
    stopGraceMs: STOP_GRACE_MS,
    onError,
  });

  // What agents wrote in the console, and their Resolve and Reopen, into the threads: every instance, like the above.
  const consolePosting = startOutboxWorker({
    runPass: ({ signal, abandon }) =>
      postDueThreadPosts({
        db: options.db,
        dialect: options.dialect,
        bot: options.bot,
        workerId: instanceId,
        now,
        signal,
        abandon,
        backoffBaseMs: options.postBackoffBaseMs,
      }),
    releaseAll: () => releaseClaims(options.db, THREAD_POST_ROWS, instanceId),
    now,
    pollMs: options.postPollMs ?? 1_000,
    stopGraceMs: STOP_GRACE_MS,
    onError,
  });

  let lastRefresh = 0;
  const reading = startLeasedJob({
    db: options.db,
    lease: REPLY_READER_LEASE,
    holder: instanceId,
    leaseMs: options.leaseMs ?? REPLY_READER_LEASE_MS,
    everyMs: options.tickMs ?? 250,
    now,
    // Losing the lease (a pause longer than it) stops the pass.
    async work(signal) {
      const pass = await readDueThreads({ ...options, blocker, signal });
      options.onPass?.({ ...pass, leaseHeld: true });
    },
    async otherwise() {
      options.onPass?.({ read: 0, relayed: 0, resolved: 0, errors: 0, leaseHeld: false });
      if (Date.now() - lastRefresh >= (options.statusRefreshMs ?? 5_000)) {
        lastRefresh = Date.now();
        await blocker.refresh();
      }
    },
    onError,
  });

  return {
    kick: () => {
      posting.kick();
      consolePosting.kick();
    },
    stop: async () => {
      await Promise.all([posting.stop(), consolePosting.stop(), reading.stop()]);
    },
  };
}

/** Looks at the support channel once (boot): a refusal is logged by the bot and keeps pages from promising replies. */
export async function checkSupportChannel(bot: DiscordBot, blocker: RelayBlocker) {
  const channel = await bot.lookUpChannel();
  if (channel.ok) {
    if (blocker.current === "unauthorized" || blocker.current === "missing_access") await blocker.set(null);
    return channel;
  }
  const kind = channel.error.kind;
  if (BLOCKING_ERRORS.has(kind) || kind === "unsupported_channel") await blocker.set(kind as RelayBlock);
  return channel;
}
