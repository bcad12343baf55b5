// Staff and their setup links in the database (issue 34, docs/console.md); sessions, passkeys and challenges have
// stores of their own. Every secret a browser holds (session ids, setup-link tokens, challenges) is kept only as its hash.
import crypto from "node:crypto";
import { type Kysely, PostgresAdapter, type Transaction } from "kysely";
import { type AuditEntryInput, auditedChange } from "~/features/audit/audit-log.server";
import { inTransaction } from "~/platform/db.server";
import { hashSecret, newSecretToken } from "~/platform/hashed-secrets.server";
import type { Database, StaffTable } from "../../../db/schema";
import { SETUP_LINK_TTL_MS, type StaffRole } from "./roles";

export type Db = Kysely<Database> | Transaction<Database>;
export type Staff = StaffTable;

/** The hash a staff secret is kept as, salted by its kind. */
export const hashOf = (kind: "session" | "setup" | "challenge", secret: string) =>
  hashSecret(`kestrel-staff-${kind}`, secret);

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

export interface Invitation {
  token: string;
  staff: Staff;
  existed: boolean;
}

/**
 * A one-time setup link for the address: a new person with `role`, or (the recovery path) a link that adds a passkey
 * to an existing person's account, whose role stays as it is. Returns the token, shown once. `entryFor` is the audit
 * entry written in the invitation's transaction.
 */
export async function inviteStaff(
  db: Kysely<Database>,
  input: InviteInput,
  entryFor: (invited: Invitation) => AuditEntryInput | null = () => null,
): Promise<Invitation> {
  const once = () => auditedChange(db, (trx) => inviteOnce(trx, input), entryFor);
  try {
    return await once();
  } catch (error) {
    // Two invitations of the same new address at once: the second finds the person the first just added.
    if (!isUniqueViolation(error)) throw error;
    return once();
  }
}

/** `withInvitation`: more writes in the invitation's transaction (the console's notice mail to an existing person). */
type InviteInput = {
  email: string;
  role: StaffRole;
  by: string;
  now?: Date;
  withInvitation?: (trx: Transaction<Database>, invited: Invitation) => Promise<void>;
};

function isUniqueViolation(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === "23505" || (typeof message === "string" && message.includes("UNIQUE constraint failed"));
}

async function inviteOnce(db: Db, input: InviteInput): Promise<Invitation> {
  const now = input.now ?? new Date();
  const email = normalEmail(input.email);
  return inTransaction(db, async (trx) => {
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
    const invited = { token, staff, existed };
    await input.withInvitation?.(trx, invited);
    return invited;
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
export async function removeStaff(db: Db, email: string): Promise<Staff | undefined> {
  return inTransaction(db, async (trx) => {
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
  db: Db,
  email: string,
  role: StaffRole,
): Promise<{ before: StaffRole; staff: Staff } | undefined> {
  return inTransaction(db, async (trx) => {
    const owners = await ownerCount(trx);
    const staff = await findStaffByEmail(trx, email);
    if (!staff) return undefined;
    if (staff.role === "owner" && role !== "owner" && owners <= 1) throw new LastOwnerError();
    await trx.updateTable("staff").set({ role }).where("id", "=", staff.id).execute();
    return { before: staff.role, staff: { ...staff, role } };
  });
}
