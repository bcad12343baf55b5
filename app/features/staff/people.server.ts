// Staff, their passkeys, setup links, sessions and WebAuthn challenges in the database (issue 34, docs/console.md).
// Every secret a browser holds (session ids, setup-link tokens, challenges) is kept only as its hash.
import crypto from "node:crypto";
import { type Kysely, PostgresAdapter, type Transaction } from "kysely";
import { hashSecret, newSecretToken } from "~/platform/hashed-secrets.server";
import type { Database, StaffTable } from "../../../db/schema";
import {
  CHALLENGE_TTL_MS,
  SESSION_IDLE_MS,
  SESSION_MAX_MS,
  SETUP_LINK_TTL_MS,
  SETUP_SESSION_TTL_MS,
  type StaffRole,
} from "./roles";

type Db = Kysely<Database> | Transaction<Database>;
export type Staff = StaffTable;
export type SessionOrigin = "passkey" | "setup-link";

const hashOf = (kind: "session" | "setup" | "challenge", secret: string) => hashSecret(`kestrel-staff-${kind}`, secret);

export function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Why a change to staff was refused: the shop must always keep one owner. */
export class LastOwnerError extends Error {
  constructor() {
    super("The last owner cannot be removed or made anything else.");
  }
}

export async function findStaffByEmail(db: Db, email: string): Promise<Staff | undefined> {
  return db.selectFrom("staff").selectAll().where("email", "=", normalEmail(email)).executeTakeFirst();
}

export async function findStaffById(db: Db, id: string): Promise<Staff | undefined> {
  return db.selectFrom("staff").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function listStaff(db: Db): Promise<Array<Staff & { passkeys: number; lastUsedAt: string | null }>> {
  const rows = await db
    .selectFrom("staff")
    .leftJoin("staff_passkeys", "staff_passkeys.staff_id", "staff.id")
    .select(["staff.id", "staff.email", "staff.role", "staff.webauthn_user_id", "staff.created_at"])
    .select((eb) => [
      eb.fn.count<number | string>("staff_passkeys.id").as("passkeys"),
      eb.fn.max("staff_passkeys.last_used_at").as("last_used_at"),
    ])
    .groupBy(["staff.id", "staff.email", "staff.role", "staff.webauthn_user_id", "staff.created_at"])
    .orderBy("staff.email")
    .execute();
  return rows.map(({ passkeys, last_used_at, ...staff }) => ({
    ...staff,
    passkeys: Number(passkeys),
    lastUsedAt: (last_used_at as string | null) ?? null,
  }));
}

export async function countStaff(db: Db): Promise<number> {
  const row = await db
    .selectFrom("staff")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * A one-time setup link for the address: a new person with `role`, or (the recovery path) a link that adds a passkey
 * to an existing person's account, whose role stays as it is. Returns the token, shown once.
 */
export async function inviteStaff(
  db: Kysely<Database>,
  input: { email: string; role: StaffRole; by: string; now?: Date },
): Promise<{ token: string; staff: Staff; existed: boolean }> {
  try {
    return await inviteOnce(db, input);
  } catch (error) {
    // Two invitations of the same new address at once: the second finds the person the first just added.
    if (!isUniqueViolation(error)) throw error;
    return inviteOnce(db, input);
  }
}

function isUniqueViolation(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === "23505" || (typeof message === "string" && message.includes("UNIQUE constraint failed"));
}

async function inviteOnce(
  db: Kysely<Database>,
  input: { email: string; role: StaffRole; by: string; now?: Date },
): Promise<{ token: string; staff: Staff; existed: boolean }> {
  const now = input.now ?? new Date();
  const email = normalEmail(input.email);
  return db.transaction().execute(async (trx) => {
    let staff = await findStaffByEmail(trx, email);
    const existed = staff !== undefined;
    if (!staff) {
      staff = {
        id: crypto.randomUUID(),
        email,
        role: input.role,
        webauthn_user_id: crypto.randomBytes(32).toString("base64url"),
        created_at: now.toISOString(),
      };
      await trx.insertInto("staff").values(staff).execute();
    }
    const token = newSecretToken();
    await trx
      .insertInto("staff_setup_links")
      .values({
        token_hash: hashOf("setup", token),
        staff_id: staff.id,
        created_by: input.by,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + SETUP_LINK_TTL_MS).toISOString(),
        used_at: null,
      })
      .execute();
    return { token, staff, existed };
  });
}

/** Spends a setup link (once, within its hour): the person it was made for, or why not. */
export async function spendSetupLink(
  db: Kysely<Database>,
  token: string,
  now = new Date(),
): Promise<{ staff: Staff } | { refused: "unknown" | "used" | "expired" }> {
  const at = now.toISOString();
  const hash = hashOf("setup", token);
  const spent = await db
    .updateTable("staff_setup_links")
    .set({ used_at: at })
    .where("token_hash", "=", hash)
    .where("used_at", "is", null)
    .where("expires_at", ">", at)
    .returning(["staff_id"])
    .executeTakeFirst();
  if (spent) {
    const staff = await findStaffById(db, spent.staff_id);
    return staff ? { staff } : { refused: "unknown" };
  }
  const link = await db
    .selectFrom("staff_setup_links")
    .select(["used_at"])
    .where("token_hash", "=", hash)
    .executeTakeFirst();
  return { refused: !link ? "unknown" : link.used_at ? "used" : "expired" };
}

/** Locks the owners' rows on PostgreSQL, so two removals of two owners cannot both see the other one left. */
async function ownerCount(trx: Transaction<Database>): Promise<number> {
  let query = trx.selectFrom("staff").select("id").where("role", "=", "owner");
  if (trx.getExecutor().adapter instanceof PostgresAdapter) query = query.forUpdate();
  return (await query.execute()).length;
}

/** Removes a person with their passkeys, links and sessions (which end at once, everywhere). */
export async function removeStaff(db: Kysely<Database>, email: string): Promise<Staff | undefined> {
  return db.transaction().execute(async (trx) => {
    const owners = await ownerCount(trx);
    const staff = await findStaffByEmail(trx, email);
    if (!staff) return undefined;
    if (staff.role === "owner" && owners <= 1) throw new LastOwnerError();
    await trx.deleteFrom("staff_sessions").where("staff_id", "=", staff.id).execute();
    await trx.deleteFrom("staff_setup_links").where("staff_id", "=", staff.id).execute();
    await trx.deleteFrom("staff_passkeys").where("staff_id", "=", staff.id).execute();
    await trx.deleteFrom("staff").where("id", "=", staff.id).execute();
    return staff;
  });
}

/** Changes a person's role: the role before, or undefined when there is no such person. */
export async function changeRole(
  db: Kysely<Database>,
  email: string,
  role: StaffRole,
): Promise<{ before: StaffRole; staff: Staff } | undefined> {
  return db.transaction().execute(async (trx) => {
    const owners = await ownerCount(trx);
    const staff = await findStaffByEmail(trx, email);
    if (!staff) return undefined;
    if (staff.role === "owner" && role !== "owner" && owners <= 1) throw new LastOwnerError();
    await trx.updateTable("staff").set({ role }).where("id", "=", staff.id).execute();
    return { before: staff.role, staff: { ...staff, role } };
  });
}

// Sessions

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
  const idHash = hashOf("session", token);
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
  if (at - Date.parse(row.last_seen_at) >= TOUCH_EVERY_MS)
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

// Passkeys

export interface Passkey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

export async function listPasskeys(db: Db, staffId: string): Promise<Passkey[]> {
  const rows = await db
    .selectFrom("staff_passkeys")
    .select(["id", "name", "created_at", "last_used_at"])
    .where("staff_id", "=", staffId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, createdAt: r.created_at, lastUsedAt: r.last_used_at }));
}

export async function passkeyCredentials(db: Db, staffId: string) {
  return db.selectFrom("staff_passkeys").select(["id", "transports"]).where("staff_id", "=", staffId).execute();
}

export async function findPasskey(db: Db, credentialId: string) {
  return db.selectFrom("staff_passkeys").selectAll().where("id", "=", credentialId).executeTakeFirst();
}

export async function addPasskey(
  db: Db,
  input: {
    staffId: string;
    id: string;
    publicKey: string;
    counter: number;
    transports: string[];
    name: string;
    now?: Date;
  },
): Promise<void> {
  const at = (input.now ?? new Date()).toISOString();
  await db
    .insertInto("staff_passkeys")
    .values({
      id: input.id,
      staff_id: input.staffId,
      public_key: input.publicKey,
      counter: input.counter,
      transports: JSON.stringify(input.transports),
      name: input.name,
      created_at: at,
      last_used_at: at,
    })
    .execute();
}

export async function recordPasskeyUse(db: Db, id: string, counter: number, now = new Date()): Promise<void> {
  await db
    .updateTable("staff_passkeys")
    .set({ counter, last_used_at: now.toISOString() })
    .where("id", "=", id)
    .execute();
}

/** Renames one of the person's passkeys: the name before, or undefined when it is not theirs. */
export async function renamePasskey(db: Db, staffId: string, id: string, name: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("staff_passkeys")
    .select("name")
    .where("id", "=", id)
    .where("staff_id", "=", staffId)
    .executeTakeFirst();
  if (!row) return undefined;
  await db.updateTable("staff_passkeys").set({ name }).where("id", "=", id).where("staff_id", "=", staffId).execute();
  return row.name;
}

/** Removes one of the person's passkeys, never their last: its name, "last", or undefined when it is not theirs. */
export async function removePasskey(
  db: Kysely<Database>,
  staffId: string,
  id: string,
): Promise<{ name: string } | "last" | undefined> {
  return db.transaction().execute(async (trx) => {
    // On PostgreSQL the person's passkeys are locked: two removals at once (two tabs, two instances) would otherwise
    // each see the other passkey left and remove both.
    let query = trx.selectFrom("staff_passkeys").select(["id", "name"]).where("staff_id", "=", staffId);
    if (trx.getExecutor().adapter instanceof PostgresAdapter) query = query.forUpdate();
    const keys = await query.execute();
    const key = keys.find((k) => k.id === id);
    if (!key) return undefined;
    if (keys.length <= 1) return "last";
    await trx.deleteFrom("staff_passkeys").where("id", "=", id).where("staff_id", "=", staffId).execute();
    return { name: key.name };
  });
}

// Challenges

export async function storeChallenge(
  db: Db,
  input: { challenge: string; purpose: "sign-in" | "register"; sessionHash: string | null; now?: Date },
): Promise<void> {
  const now = input.now ?? new Date();
  await db
    .insertInto("staff_challenges")
    .values({
      challenge_hash: hashOf("challenge", input.challenge),
      purpose: input.purpose,
      session_hash: input.sessionHash,
      expires_at: new Date(now.getTime() + CHALLENGE_TTL_MS).toISOString(),
    })
    .execute();
}

/** Spends a challenge once, if it lives and was made for this purpose (and session): whether it did. */
export async function spendChallenge(
  db: Db,
  input: { challenge: string; purpose: "sign-in" | "register"; sessionHash: string | null; now?: Date },
): Promise<boolean> {
  const at = (input.now ?? new Date()).toISOString();
  let query = db
    .deleteFrom("staff_challenges")
    .where("challenge_hash", "=", hashOf("challenge", input.challenge))
    .where("purpose", "=", input.purpose)
    .where("expires_at", ">", at);
  query =
    input.sessionHash === null
      ? query.where("session_hash", "is", null)
      : query.where("session_hash", "=", input.sessionHash);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Drops what has expired: challenges, setup links, sessions. */
export async function pruneExpired(db: Db, now = new Date()): Promise<void> {
  const at = now.toISOString();
  const idleSince = new Date(now.getTime() - SESSION_IDLE_MS).toISOString();
  await db.deleteFrom("staff_challenges").where("expires_at", "<=", at).execute();
  await db.deleteFrom("staff_setup_links").where("expires_at", "<=", at).execute();
  await db
    .deleteFrom("staff_sessions")
    .where((eb) => eb.or([eb("expires_at", "<=", at), eb("last_seen_at", "<=", idleSince)]))
    .execute();
}
