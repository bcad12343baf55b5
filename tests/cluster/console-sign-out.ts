// Scenario l: Sign out everywhere ends a stream on another instance (issue 42). A support person's inbox feed is open
// on instance 1; the same person presses Sign out everywhere on instance 0 from another session. Nothing else happens
// meanwhile (no event for the stream to check before), so the stream must end by its own periodic re-check of the
// session: within 30 s, and the feed refuses the ended session on every instance afterwards.
import crypto from "node:crypto";
import type pg from "pg";
import { openEventStream } from "../support/event-stream";
import { staffSessionHash } from "../support/staff-sessions";
import { type Checks, type Cluster, clientAddresses } from "./cluster";

const WITHIN_MS = 30_000;

export async function consoleSignOutEverywhere(opts: { cluster: Cluster; db: pg.Client; checks: Checks }) {
  const { cluster, db, checks } = opts;
  const started = Date.now();
  const client = clientAddresses()();
  const run = crypto.randomUUID().slice(0, 8);
  const staffId = crypto.randomUUID();
  const now = new Date();
  await db.query(
    "INSERT INTO staff (id, email, role, webauthn_user_id, created_at) VALUES ($1, $2, 'support', $3, $4)",
    [staffId, `leaver-${run}@example.com`, crypto.randomBytes(16).toString("base64url"), now.toISOString()],
  );
  /** A passkey session of this person, as a sign-in leaves it: its cookie. */
  const session = async () => {
    const token = crypto.randomBytes(32).toString("base64url");
    await db.query(
      "INSERT INTO staff_sessions (id_hash, staff_id, began_with, created_at, last_seen_at, expires_at) VALUES ($1, $2, 'passkey', $3, $3, $4)",
      [staffSessionHash(token), staffId, now.toISOString(), new Date(now.getTime() + 3_600_000).toISOString()],
    );
    return `kestrel-staff=${token}`;
  };
  const streaming = await session();
  const other = await session();

  const feed = await openEventStream(`${cluster.url(1)}/api/admin/support/events`, { cookie: streaming });
  try {
    checks.that(feed.status === 200, `l: the inbox feed on instance 1 answered ${feed.status}`);
    let endedAt: number | undefined;
    void feed.ended.then(() => {
      endedAt = performance.now();
    });
    const signOut = await fetch(`${cluster.url(0)}/admin/sign-out`, {
      method: "POST",
      headers: {
        cookie: other,
        origin: cluster.url(0),
        "content-type": "application/x-www-form-urlencoded",
        "x-forwarded-for": client,
      },
      body: new URLSearchParams({ intent: "sign-out-everywhere" }).toString(),
      redirect: "manual",
      signal: AbortSignal.timeout(30_000),
    });
    const signedOutAt = performance.now();
    checks.that(signOut.status === 303, `l: Sign out everywhere on instance 0 answered ${signOut.status}`);
    const ended = await Promise.race([
      feed.ended.then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), WITHIN_MS + 5_000).unref()),
    ]);
    const afterMs = endedAt === undefined ? undefined : endedAt - signedOutAt;
    checks.that(
      ended && afterMs !== undefined && afterMs <= WITHIN_MS,
      `l: the stream on instance 1 ended ${afterMs === undefined ? "not at all" : `${afterMs.toFixed(0)} ms`} after Sign out everywhere on instance 0 (at most ${WITHIN_MS} ms)`,
    );
    const again = await Promise.all(
      cluster.ports.map(async (_p, i) => {
        const res = await fetch(`${cluster.url(i)}/api/admin/support/events`, {
          headers: { cookie: streaming, accept: "text/event-stream" },
          signal: AbortSignal.timeout(10_000),
        });
        await res.body?.cancel();
        return res.status;
      }),
    );
    checks.that(
      again.every((status) => status === 401),
      `l: the ended session's feed is refused on every instance (${again.join(", ")})`,
    );
    console.log(
      `l. sign out everywhere across instances: the inbox stream on instance 1 ended ${afterMs?.toFixed(0) ?? "—"} ms after the sign-out on instance 0 (at most ${WITHIN_MS} ms); ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    feed.close();
  }
}
