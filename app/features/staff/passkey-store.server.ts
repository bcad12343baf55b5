// Passkeys and their WebAuthn challenges in the database (issue 34): credentials per person (never the last one
// removed) and one-time challenges kept only as their hashes.
import { PostgresAdapter } from "kysely";
import { inTransaction } from "~/platform/db.server";
import { type Db, hashOf } from "./people.server";
import { CHALLENGE_TTL_MS } from "./roles";

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
  db: Db,
  staffId: string,
  id: string,
): Promise<{ name: string } | "last" | undefined> {
  return inTransaction(db, async (trx) => {
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

/** A sign-in, a new passkey, or the fresh proof a signed-in person gives before adding one. */
export type ChallengePurpose = "sign-in" | "register" | "confirm";

export async function storeChallenge(
  db: Db,
  input: { challenge: string; purpose: ChallengePurpose; sessionHash: string | null; now?: Date },
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
  input: { challenge: string; purpose: ChallengePurpose; sessionHash: string | null; now?: Date },
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
