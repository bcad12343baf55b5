// Jobs that one instance of a cluster runs at a time (catalogue sync, reply reader, status probes, unseen-reply mail):
// each holds a named lease in the `leases` table, renews it while it works, and hands it back when it stops.
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";

type Db = Kysely<Database>;

/** Takes or renews the lease `name` for `holder`; true while it is ours. */
export async function holdLease(db: Db, name: string, holder: string, leaseMs: number, now: Date): Promise<boolean> {
  const expiresAt = new Date(now.getTime() + leaseMs).toISOString();
  const row = await db
    .insertInto("leases")
    .values({ name, holder, expires_at: expiresAt })
    .onConflict((oc) =>
      oc
        .column("name")
        .doUpdateSet({ holder, expires_at: expiresAt })
        .where((eb) => eb.or([eb("leases.holder", "=", holder), eb("leases.expires_at", "<", now.toISOString())])),
    )
    .returning("holder")
    .executeTakeFirst();
  return row?.holder === holder;
}

export async function releaseLease(db: Db, name: string, holder: string) {
  await db.deleteFrom("leases").where("name", "=", name).where("holder", "=", holder).execute();
}

export interface LeasedJob<T> {
  /** One tick now (tests, and a caller that wants the work done before it answers): the work's result if it ran. */
  runOnce(): Promise<T | undefined>;
  /** Runs no more ticks, waits for the one in flight (and `onStop`), and hands the lease back. */
  stop(): Promise<void>;
}

/**
 * Ticks every `everyMs` after the previous tick ended (the first after `firstTickAfterMs`): each tick asks for the
 * lease and, while this instance holds it, runs `work` with the lease renewed every third of its length; `signal`
 * aborts when the lease is lost (a pause longer than the lease) or the job stops.
 */
export function startLeasedJob<T>(options: {
  db: Db;
  lease: string;
  holder: string;
  leaseMs: number;
  everyMs: number;
  firstTickAfterMs?: number;
  now?: () => Date;
  /** Runs on every instance at each tick, before the lease is asked for (reading what the holder wrote). */
  beforeLease?: () => Promise<void>;
  work: (signal: AbortSignal, at: Date) => Promise<T>;
  /** What an instance without the lease does at its tick. */
  otherwise?: () => Promise<void>;
  /** Runs once on stop, after the last tick and before the lease is handed back. */
  onStop?: () => Promise<void>;
  onError: (error: unknown) => void;
}): LeasedJob<T> {
  const { db, lease, holder, leaseMs } = options;
  const now = options.now ?? (() => new Date());
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();

  async function tick(): Promise<T | undefined> {
    await options.beforeLease?.();
    const at = now();
    if (!(await holdLease(db, lease, holder, leaseMs, at))) {
      await options.otherwise?.();
      return undefined;
    }
    const lost = new AbortController();
    const renewal = setInterval(() => {
      // A renewal that fails (database briefly away) is retried at the next one while the lease still runs.
      holdLease(db, lease, holder, leaseMs, now()).then(
        (still) => still || lost.abort(),
        () => {},
      );
    }, leaseMs / 3);
    try {
      return await options.work(AbortSignal.any([stopping.signal, lost.signal]), at);
    } finally {
      clearInterval(renewal);
    }
  }

  const loop = () => {
    if (stopping.signal.aborted) return;
    running = tick()
      .catch((error: unknown) => {
        if (!stopping.signal.aborted) options.onError(error);
      })
      .finally(() => {
        if (!stopping.signal.aborted) timer = setTimeout(loop, options.everyMs);
      });
  };
  timer = setTimeout(loop, options.firstTickAfterMs ?? 0);

  return {
    runOnce: tick,
    async stop() {
      stopping.abort();
      clearTimeout(timer);
      await running;
      await options.onStop?.().catch(options.onError);
      await releaseLease(db, lease, holder).catch(options.onError);
    },
  };
}
