// Staff sessions in the database (issue 34): a cookie's id kept only as its hash, idle and absolute lifetimes, and the
// dashboard's once-per-session reminder.
import { newSecretToken } from "~/platform/hashed-secrets.server";
import { type Db, hashOf, type Staff } from "./people.server";
import { SESSION_IDLE_MS, SESSION_MAX_MS, SETUP_SESSION_TTL_MS } from "./roles";

export type SessionOrigin = "passkey" | "setup-link";

export async function createSession(
  db: Db,
  input: { staffId: string; beganWith: SessionOrigin; now?: Date },
): Promise<string> {
  const now = input.now ?? new Date();
  const token = newSecretToken();
  const maxMs = input.beganWith === "setup-link" ? SETUP_SESSION_TTL_MS : SESSION_MAX_MS;
  await db
    .insertInto("staff_sessions")
    .values({
      id_hash: hashOf("session", token),
      staff_id: input.staffId,
      began_with: input.beganWith,
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: new Date(now.getTime() + maxMs).toISOString(),
      reminded_at: null,
    })
    .execute();
  return token;
}

export interface StaffSession {
  idHash: string;
  beganWith: SessionOrigin;
  remindedAt: string | null;
  staff: Staff;
}

// A session's last use is written at most once a minute: reading a page must not cost a write each time.
const TOUCH_EVERY_MS = 60_000;

/** The live session the cookie names (not idle for 12 hours, not older than its maximum), its use recorded. */
export async function readSession(db: Db, token: string, now = new Date()): Promise<StaffSession | undefined> {
  return sessionByHash(db, hashOf("session", token), now, { touch: true });
}

/**
 * Whether a session read before is still live, as its person is now (their role may have changed), without counting
 * as a use: an open event stream asks this, and a page left open must still reach the 12-hour idle end.
 */
export async function recheckSession(db: Db, idHash: string, now = new Date()): Promise<StaffSession | undefined> {
  return sessionByHash(db, idHash, now, { touch: false });
}

async function sessionByHash(
  db: Db,
  idHash: string,
  now: Date,
  { touch }: { touch: boolean },
): Promise<StaffSession | undefined> {
  const row = await db
    .selectFrom("staff_sessions")
    .innerJoin("staff", "staff.id", "staff_sessions.staff_id")
    .select([
      "staff_sessions.began_with",
      "staff_sessions.last_seen_at",
      "staff_sessions.expires_at",
      "staff_sessions.reminded_at",
      "staff.id",
      "staff.email",
      "staff.role",
      "staff.webauthn_user_id",
      "staff.created_at",
    ])
    .where("staff_sessions.id_hash", "=", idHash)
    .executeTakeFirst();
  if (!row) return undefined;
  const at = now.getTime();
  if (Date.parse(row.expires_at) <= at || Date.parse(row.last_seen_at) + SESSION_IDLE_MS <= at) {
    await db.deleteFrom("staff_sessions").where("id_hash", "=", idHash).execute();
    return undefined;
  }
  if (touch && at - Date.parse(row.last_seen_at) >= TOUCH_EVERY_MS)
    await db
      .updateTable("staff_sessions")
      .set({ last_seen_at: now.toISOString() })
      .where("id_hash", "=", idHash)
      .execute();
  return {
    idHash,
    beganWith: row.began_with,
    remindedAt: row.reminded_at,
    staff: {
      id: row.id,
      email: row.email,
      role: row.role,
      webauthn_user_id: row.webauthn_user_id,
      created_at: row.created_at,
    },
  };
}

export async function endSession(db: Db, idHash: string): Promise<void> {
  await db.deleteFrom("staff_sessions").where("id_hash", "=", idHash).execute();
}

/** Ends every session of a person: the number ended. */
export async function endAllSessions(db: Db, staffId: string): Promise<number> {
  const result = await db.deleteFrom("staff_sessions").where("staff_id", "=", staffId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Marks the second-passkey reminder shown for this session: true the first time only. */
export async function takeReminder(db: Db, idHash: string, now = new Date()): Promise<boolean> {
  const result = await db
    .updateTable("staff_sessions")
    .set({ reminded_at: now.toISOString() })
    .where("id_hash", "=", idHash)
    .where("reminded_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
