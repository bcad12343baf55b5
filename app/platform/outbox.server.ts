// Work that must be done exactly once (a support request into the chat channel, a mail, a visitor message into its
// Discord thread): rows claimed one at a time under a lease that is renewed while the peer answers, each attempt
// written only by the claim's holder, retried with exponential backoff and jitter, given up on a permanent failure or
// a deadline. Each outbox says only what is its own: its table, how to send one item, which failures are permanent.
import crypto from "node:crypto";
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { DbDialect } from "../../db/client";
import type { Database } from "../../db/schema";
import { backoffMs } from "./backoff";

export { backoffMs };

type Db = Kysely<Database>;

/** The tables that are outboxes: each row has `id`, `attempts`, `next_attempt_at`, `claimed_by`, `claimed_until`. */
export type OutboxTable = "support_requests" | "mail_outbox" | "support_conversation_messages" | "support_thread_posts";

/** Where an outbox keeps its rows. */
export interface OutboxRows {
  table: OutboxTable;
  /** The column that says `pending` while a row waits for delivery. */
  statusColumn: "delivery_status" | "status";
  /** What a row done with is marked (`delivered` at `delivered_at`, `sent` at `sent_at`). */
  done: { status: string; atColumn: string };
  /** More conditions a due row (`o`) meets, such as a deadline not yet passed or its thread known. */
  dueAlso?: (nowIso: string) => RawBuilder<unknown>;
}

/** What the engine reads of a claimed item. */
export interface OutboxItem {
  id: string;
  attempts: number;
  firstFailedAt: string | null;
}

/** How one attempt is written in its row. */
export type OutboxOutcome =
  | { outcome: "done"; also?: Record<string, string | null> }
  | { outcome: "retry"; reason: string; nextAttemptAt: Date }
  /** Not an attempt: the peer asked us to wait (a 429 and its Retry-After); the row is due again then. */
  | { outcome: "wait"; reason: string; until: Date }
  /** Never tried again: refused for good, failing for too long, or past its deadline (`status`, default `failed`). */
  | { outcome: "failed"; reason: string; status?: string; nextAttemptAt?: Date }
  /** Not an attempt: an operator's retry of a failed row; pending again, due at `at`, its failing clock restarted. */
  | { outcome: "requeued"; at: Date };

/** When a failed attempt is tried again, and whether the item has failed for so long that it is given up instead. */
export function scheduleRetry(
  item: Omit<OutboxItem, "id">,
  at: Date,
  policy: { random: () => number; baseMs: number; maxMs?: number; giveUpAfterMs: number },
): { nextAttemptAt: Date; giveUp: boolean } {
  const failingSince = item.firstFailedAt ? Date.parse(item.firstFailedAt) : at.getTime();
  const wait = backoffMs(item.attempts + 1, policy.random, policy.baseMs, policy.maxMs);
  return {
    nextAttemptAt: new Date(at.getTime() + wait),
    giveUp: at.getTime() - failingSince >= policy.giveUpAfterMs,
  };
}

/** `SET a = ?, b = ?` from an object. */
function assignments(values: Record<string, unknown>) {
  return sql.join(Object.entries(values).map(([column, value]) => sql`${sql.ref(column)} = ${value}`));
}

/**
 * Claims due pending rows for one worker until `leaseMs` from now; an expired claim (a crashed worker) is free again.
 * PostgreSQL: `FOR UPDATE SKIP LOCKED` lets several instances claim side by side without taking the same row.
 * SQLite: the single UPDATE ... RETURNING runs under SQLite's one-writer lock, so it is atomic too.
 */
export async function claimDueRows<Row>(
  db: Db,
  dialect: DbDialect,
  rows: OutboxRows,
  options: { workerId: string; limit: number; leaseMs: number; now: Date; ids?: string[] },
): Promise<Row[]> {
  const nowIso = options.now.toISOString();
  const until = new Date(options.now.getTime() + options.leaseMs).toISOString();
  const table = sql.table(rows.table);
  const onlyIds = options.ids && options.ids.length > 0 ? sql`AND o.id IN (${sql.join(options.ids)})` : sql``;
  const dueAlso = rows.dueAlso ? sql`AND ${rows.dueAlso(nowIso)}` : sql``;
  const lock = dialect === "postgres" ? sql`FOR UPDATE OF o SKIP LOCKED` : sql``;
  const result = await sql<Row>`
    UPDATE ${table} SET claimed_by = ${options.workerId}, claimed_until = ${until}
    WHERE id IN (
      SELECT o.id FROM ${table} o
      WHERE ${sql.ref(`o.${rows.statusColumn}`)} = 'pending' AND o.next_attempt_at <= ${nowIso}
        AND (o.claimed_until IS NULL OR o.claimed_until < ${nowIso}) ${dueAlso} ${onlyIds}
      ORDER BY o.next_attempt_at, o.created_at
      LIMIT ${options.limit}
      ${lock}
    )
    RETURNING *`.execute(db);
  return result.rows;
}

/**
 * The claim is still this worker's and unexpired: it is extended by `leaseMs` (true), or it was lost (false).
 * Checked right before each attempt and renewed while the peer answers, so no other worker can take it meanwhile.
 */
export async function renewClaim(
  db: Db,
  rows: OutboxRows,
  id: string,
  workerId: string,
  leaseMs: number,
  now = new Date(),
): Promise<boolean> {
  const result = await sql<{ id: string }>`
    UPDATE ${sql.table(rows.table)} SET claimed_until = ${new Date(now.getTime() + leaseMs).toISOString()}
    WHERE id = ${id} AND claimed_by = ${workerId} AND claimed_until >= ${now.toISOString()}
      AND ${sql.ref(rows.statusColumn)} = 'pending'
    RETURNING id`.execute(db);
  return result.rows.length === 1;
}

/** Hands claims back without an attempt (shutdown): the given rows, or every one this worker holds but `keep`. */
export async function releaseClaims(
  db: Db,
  rows: OutboxRows,
  workerId: string,
  options: { ids?: string[]; keep?: string[] } = {},
) {
  if (options.ids?.length === 0) return;
  const only = options.ids ? sql`AND id IN (${sql.join(options.ids)})` : sql``;
  const keep = options.keep && options.keep.length > 0 ? sql`AND id NOT IN (${sql.join(options.keep)})` : sql``;
  await sql`
    UPDATE ${sql.table(rows.table)} SET claimed_by = NULL, claimed_until = NULL
    WHERE claimed_by = ${workerId} ${only} ${keep}`.execute(db);
}

/**
 * An operator's retry, first step: claims one row that has failed for good (its status one of `failedStatuses`) and
 * that nobody holds, so of two people pressing Retry at once exactly one gets it (PostgreSQL re-reads the row after
 * the other's UPDATE; SQLite has one writer). The second step is `recordOutcome(..., { outcome: "requeued" })`.
 */
export async function claimFailedRow(
  db: Db,
  rows: OutboxRows,
  id: string,
  options: { workerId: string; leaseMs: number; now: Date; failedStatuses: readonly string[] },
): Promise<OutboxItem | undefined> {
  const nowIso = options.now.toISOString();
  const until = new Date(options.now.getTime() + options.leaseMs).toISOString();
  const result = await sql<{ id: string; attempts: number | string; first_failed_at: string | null }>`
    UPDATE ${sql.table(rows.table)} SET claimed_by = ${options.workerId}, claimed_until = ${until}
    WHERE id = ${id} AND ${sql.ref(rows.statusColumn)} IN (${sql.join([...options.failedStatuses])})
      AND (claimed_until IS NULL OR claimed_until < ${nowIso})
    RETURNING id, attempts, first_failed_at`.execute(db);
  const row = result.rows[0];
  return row ? { id: row.id, attempts: Number(row.attempts), firstFailedAt: row.first_failed_at } : undefined;
}

/** Writes an attempt's outcome, only if this worker still holds the claim (true when it did). */
export async function recordOutcome(
  db: Db,
  rows: OutboxRows,
  item: OutboxItem,
  workerId: string,
  outcome: OutboxOutcome,
  now = new Date(),
): Promise<boolean> {
  const nowIso = now.toISOString();
  const released = { claimed_by: null, claimed_until: null };
  const counted = { ...released, attempts: item.attempts + 1 };
  const failing = { first_failed_at: item.firstFailedAt ?? nowIso };
  const values =
    outcome.outcome === "done"
      ? {
          ...counted,
          [rows.statusColumn]: rows.done.status,
          [rows.done.atColumn]: nowIso,
          last_error: null,
          ...outcome.also,
        }
      : outcome.outcome === "retry"
        ? {
            ...counted,
            ...failing,
            [rows.statusColumn]: "pending",
            last_error: outcome.reason,
            next_attempt_at: outcome.nextAttemptAt.toISOString(),
          }
        : outcome.outcome === "wait"
          ? { ...released, last_error: outcome.reason, next_attempt_at: outcome.until.toISOString() }
          : outcome.outcome === "requeued"
            ? {
                ...released,
                [rows.statusColumn]: "pending",
                next_attempt_at: outcome.at.toISOString(),
                first_failed_at: null,
              }
            : {
                ...counted,
                ...failing,
                [rows.statusColumn]: outcome.status ?? "failed",
                last_error: outcome.reason,
                ...(outcome.nextAttemptAt ? { next_attempt_at: outcome.nextAttemptAt.toISOString() } : {}),
              };
  const result = await sql<{ id: string }>`
    UPDATE ${sql.table(rows.table)} SET ${assignments(values)}
    WHERE id = ${item.id} AND claimed_by = ${workerId}
    RETURNING id`.execute(db);
  return result.rows.length === 1;
}

/**
 * Writes an attempt's outcome, trying again over ~2 s if the database hiccups: an item the peer took but we failed to
 * record would be sent again once its claim runs out.
 */
export async function recordPatiently(write: () => Promise<unknown>, waitsMs: readonly number[] = [250, 500, 1_000]) {
  for (const wait of waitsMs) {
    try {
      return await write();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
  return write();
}

/** One outbox: where its rows are and how one item is sent; the engine does the claiming, leasing and recording. */
export interface Outbox<Item extends { id: string }, Attempt, Pass extends object> {
  rows: OutboxRows;
  /** How often the item was tried and since when it fails: what a retry's backoff and the record start from. */
  progress(item: Item): Omit<OutboxItem, "id">;
  /** The claimed rows as items (a row dropped here is handed back unattempted). */
  toItems(rows: unknown[]): Item[] | Promise<Item[]>;
  /** One attempt at one item while its claim is held; `signal` aborts when the claim is lost or shutdown cuts in. */
  attempt(item: Item, signal: AbortSignal): Promise<Attempt>;
  /** Whether an attempt that ended this way after `signal` aborted was cut short rather than answered. */
  cutShort(attempt: Attempt): boolean;
  /** How an attempt is written in the row. */
  outcome(item: Item, attempt: Attempt): OutboxOutcome;
  /** Counts an attempt in the metrics (logs it, tells other workers of a pause) before it is recorded. */
  report?(item: Item, attempt: Attempt): void | Promise<void>;
  /** A pass with nothing in it yet; and the list of it an attempt's item goes into. */
  emptyPass(): Pass;
  listFor(attempt: Attempt): { [K in keyof Pass]: Pass[K] extends string[] ? K : never }[keyof Pass];
  /** An attempt after which nothing more is sent until then (a 429 for the whole channel). */
  pauseAfter?(attempt: Attempt): Date | undefined;
  /**
   * A send cut short by shutdown: `release` hands the claim back (the item is due at once elsewhere), `keep` lets it
   * run out (the peer may have the item, so nobody sends it again before the lease ends).
   */
  whenCutShort: "release" | "keep";
}

export interface DeliverDueOptions<Item, Attempt> {
  db: Db;
  dialect: DbDialect;
  workerId: string;
  leaseMs: number;
  now: () => Date;
  /** Only these ids (an operator's retry). */
  ids?: string[];
  /** Stop taking work; an attempt in flight still finishes and is recorded. */
  signal?: AbortSignal;
  /** Give up on an attempt in flight (the shutdown grace is over). */
  abandon?: AbortSignal;
  /** Asked before each claim: a time to stop the pass until (the channel is paused), or nothing. */
  pausedUntil?: () => Promise<Date | null | undefined>;
  /** Least time between two attempts of this worker. */
  spacingMs?: number;
  onAttempt?: (item: Item, attempt: Attempt) => void;
}

export type PassEnd = { pausedUntil?: Date; cutShort?: string };

/**
 * Sends one claimed item while holding its claim: the claim must still be this worker's and unexpired when the
 * attempt starts, and is renewed every third of the lease until the peer answers, so a slow peer never lets a second
 * worker take the item. Returns undefined when the claim was gone before the attempt, and "cut short" when the claim
 * was lost or shutdown cut in while the peer had not answered.
 */
async function attemptWhileClaimed<Item extends { id: string }, Attempt, Pass extends object>(
  outbox: Outbox<Item, Attempt, Pass>,
  item: Item,
  options: DeliverDueOptions<Item, Attempt>,
): Promise<Attempt | "cut short" | undefined> {
  const { db, workerId, leaseMs, now } = options;
  if (!(await renewClaim(db, outbox.rows, item.id, workerId, leaseMs, now()))) return undefined;
  const lost = new AbortController();
  const renewal = setInterval(() => {
    // A renewal that fails (database briefly away) is retried at the next tick while the lease still runs.
    renewClaim(db, outbox.rows, item.id, workerId, leaseMs, now()).then(
      (held) => held || lost.abort(),
      () => {},
    );
  }, leaseMs / 3);
  try {
    const signal = AbortSignal.any([lost.signal, ...(options.abandon ? [options.abandon] : [])]);
    const attempt = await outbox.attempt(item, signal);
    return signal.aborted && outbox.cutShort(attempt) ? "cut short" : attempt;
  } finally {
    clearInterval(renewal);
  }
}

/** Sends due items one at a time until none is left, the pass is paused, stopped, or shutdown cut a send short. */
export async function deliverDue<Item extends { id: string }, Attempt, Pass extends object>(
  outbox: Outbox<Item, Attempt, Pass>,
  options: DeliverDueOptions<Item, Attempt>,
): Promise<Pass & PassEnd> {
  const { db, workerId, now } = options;
  const pass = outbox.emptyPass() as Pass & PassEnd;
  let lastAttemptAt = 0;
  for (;;) {
    if (options.signal?.aborted) return pass;
    const pausedUntil = await options.pausedUntil?.();
    if (pausedUntil) return Object.assign(pass, { pausedUntil });
    const spacing = lastAttemptAt + (options.spacingMs ?? 0) - Date.now();
    if (spacing > 0) await new Promise((resolve) => setTimeout(resolve, spacing));
    // One at a time: a claim never waits behind other sends, so it is only as old as the send it covers.
    const claimed = await claimDueRows(db, options.dialect, outbox.rows, {
      workerId,
      limit: 1,
      leaseMs: options.leaseMs,
      now: now(),
      ids: options.ids,
    });
    if (claimed.length === 0) return pass;
    const [item] = await outbox.toItems(claimed);
    if (!item) {
      await releaseClaims(db, outbox.rows, workerId, { ids: claimed.map((row) => (row as { id: string }).id) });
      continue;
    }
    lastAttemptAt = Date.now();
    const attempt = await attemptWhileClaimed(outbox, item, options);
    if (attempt === undefined || (attempt === "cut short" && outbox.whenCutShort === "release")) {
      await releaseClaims(db, outbox.rows, workerId, { ids: [item.id] });
      continue;
    }
    if (attempt === "cut short") return Object.assign(pass, { cutShort: item.id });
    await outbox.report?.(item, attempt);
    const outcome = outbox.outcome(item, attempt);
    const progress = { ...outbox.progress(item), id: item.id };
    await recordPatiently(() => recordOutcome(db, outbox.rows, progress, workerId, outcome, now()));
    options.onAttempt?.(item, attempt);
    (pass[outbox.listFor(attempt)] as string[]).push(item.id);
    const pauseUntil = outbox.pauseAfter?.(attempt);
    if (pauseUntil) return Object.assign(pass, { pausedUntil: pauseUntil });
  }
}

export interface OutboxWorker {
  /** Look for work now (after a new item) instead of at the next poll; a paused channel stays paused. */
  kick(): void;
  /** Takes no more work, lets an attempt in flight finish (up to the grace), and hands back the claims it holds. */
  stop(): Promise<void>;
}

/**
 * Runs `runPass` every `pollMs` (and on kick) in the background until stopped; sleeps through a pause whatever wakes
 * it. On stop, an attempt in flight gets `stopGraceMs` to finish, then every claim still held goes back (but those of
 * sends cut short, which run out), so another instance need not wait for their lease.
 */
export function startOutboxWorker<Pass extends object>(options: {
  runPass: (signals: { signal: AbortSignal; abandon: AbortSignal }) => Promise<Pass>;
  /** The items of a pass whose sends shutdown cut short: their claims are left to run out. */
  cutShortOf?: (pass: Pass) => string[];
  releaseAll: (keep: string[]) => Promise<void>;
  now: () => Date;
  pollMs?: number;
  stopGraceMs: number;
  onError?: (error: unknown) => void;
  onPass?: (pass: Pass) => void;
}): OutboxWorker {
  const stopping = new AbortController();
  const abandon = new AbortController();
  const cutShort: string[] = [];
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
      let pass: Pass | undefined;
      try {
        pass = await options.runPass({ signal: stopping.signal, abandon: abandon.signal });
        cutShort.push(...(options.cutShortOf?.(pass) ?? []));
        options.onPass?.(pass);
      } catch (error) {
        if (!stopping.signal.aborted) options.onError?.(error);
      }
      if (stopping.signal.aborted) break;
      const pausedUntil = (pass as PassEnd | undefined)?.pausedUntil;
      if (pausedUntil) await sleep(pausedUntil.getTime() - options.now().getTime(), { wakeOnKick: false });
      else if (!kicked) await sleep(options.pollMs ?? 1000, { wakeOnKick: true });
    }
    await options.releaseAll(cutShort).catch((error: unknown) => options.onError?.(error));
  })();
  return {
    kick() {
      kicked = true;
      if (kickWakes) wake?.();
    },
    async stop() {
      stopping.abort();
      wake?.();
      const grace = setTimeout(() => abandon.abort(), options.stopGraceMs);
      try {
        await loop;
      } finally {
        clearTimeout(grace);
      }
    },
  };
}

/** A worker's id in `claimed_by`: unique per process and outbox. */
export const newWorkerId = (prefix: string) => `${prefix}-${crypto.randomUUID()}`;
