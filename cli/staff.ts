import { emailSchema } from "~/platform/form-input";
import { isStaffRole, SETUP_PATH, STAFF_ROLES } from "~/features/staff/roles";
import { endAllSessions } from "~/features/staff/sessions.server";
import { findStaffByEmail, inviteStaff, LastOwnerError, listStaff, removeStaff } from "~/features/staff/people.server";
import { getEnv } from "~/platform/env.server";
import { auditedCliChange, type CliCommand, cliEntry, formatTable, runWithDatabase, startCommand } from "./cli-context";

export const STAFF_USAGE = `Usage:
  npm run cli -- staff invite <email> --role owner|admin|support
  npm run cli -- staff list [--json]
  npm run cli -- staff remove <email>
  npm run cli -- staff sessions revoke <email>

The console's team (/admin, docs/console.md). "invite" prints a one-time setup link (one hour) on a line of its own:
opened, it lets the person create a passkey. Invited again, an existing person gets a link that adds a passkey to the
same account (their role stays). "remove" deletes the person with their passkeys and ends their sessions at once;
the last owner cannot be removed. Each change is written to the audit log as "cli".`;

const STAFF_OPTIONS = { role: { type: "string" } } as const;

/** `staff invite|list|remove|sessions revoke`. */
export const staffCommand: CliCommand = async (argv, { db, out, err }) => {
  const started = startCommand(argv, STAFF_OPTIONS, STAFF_USAGE, { out, err });
  if (typeof started === "number") return started;
  const { values, action, rest, fail } = started;

  if (action === "invite") {
    const email = emailSchema.safeParse(rest[0] ?? "");
    if (rest.length !== 1 || !email.success) return fail("staff invite takes one email address", 2);
    const role = values.role;
    if (!isStaffRole(role)) return fail(`--role must be one of ${STAFF_ROLES.join(", ")}`, 2);
    const { token, staff, existed } = await inviteStaff(db, { email: email.data, role, by: "cli" }, (invited) =>
      cliEntry({
        action: "staff-invited",
        target: invited.staff.email,
        detail: { role: invited.staff.role, existing: invited.existed },
      }),
    );
    const link = new URL(`${SETUP_PATH}?token=${token}`, getEnv().PUBLIC_URL).toString();
    if (existed && staff.role !== role)
      err(`${staff.email} is already ${staff.role}: the link adds a passkey; change the role at /admin/staff.`);
    out(
      existed
        ? `Setup link for ${staff.email} (adds a passkey to their account; works once, for one hour):`
        : `Setup link for ${staff.email} (${role}; works once, for one hour):`,
    );
    out(link);
    return 0;
  }

  if (action === "list") {
    if (rest.length > 0) return fail(`"staff list" takes no arguments`, 2);
    const staff = await listStaff(db);
    if (values.json)
      out(
        JSON.stringify(
          staff.map((s) => ({
            email: s.email,
            role: s.role,
            passkeys: s.passkeys,
            createdAt: s.created_at,
            lastUsedAt: s.lastUsedAt,
          })),
          null,
          2,
        ),
      );
    else if (staff.length === 0)
      out(`No staff yet. Create the first owner: npm run cli -- staff invite you@example.com --role owner`);
    else
      out(
        formatTable(
          ["EMAIL", "ROLE", "PASSKEYS", "ADDED", "LAST SIGN-IN"],
          staff.map((s) => [s.email, s.role, String(s.passkeys), s.created_at, s.lastUsedAt ?? "—"]),
        ),
      );
    return 0;
  }

  if (action === "remove") {
    const email = emailSchema.safeParse(rest[0] ?? "");
    if (rest.length !== 1 || !email.success) return fail("staff remove takes one email address", 2);
    try {
      const removed = await auditedCliChange(
        db,
        (trx) => removeStaff(trx, email.data),
        (removed) => removed && { action: "staff-removed", target: removed.email, detail: { role: removed.role } },
      );
      if (!removed) return fail(`No staff member ${email.data}`);
      out(`Removed ${removed.email} (${removed.role}); their sessions have ended.`);
      return 0;
    } catch (error) {
      if (error instanceof LastOwnerError) return fail(error.message);
      throw error;
    }
  }

  if (action === "sessions") {
    const email = emailSchema.safeParse(rest[1] ?? "");
    if (rest[0] !== "revoke" || rest.length !== 2 || !email.success)
      return fail("Usage: staff sessions revoke <email>", 2);
    const revoked = await auditedCliChange(
      db,
      async (trx) => {
        const staff = await findStaffByEmail(trx, email.data);
        return staff && { staff, ended: await endAllSessions(trx, staff.id) };
      },
      (revoked) =>
        revoked && { action: "sessions-revoked", target: revoked.staff.email, detail: { ended: revoked.ended } },
    );
    if (!revoked) return fail(`No staff member ${email.data}`);
    const { staff, ended } = revoked;
    out(`${ended} session${ended === 1 ? "" : "s"} ended for ${staff.email}.`);
    return 0;
  }

  return fail(`Unknown staff command "${action}"\n\n${STAFF_USAGE}`, 2);
};

/** Entry for the CLI dispatcher (`npm run cli -- staff ...`). */
export function runStaffCli(argv: string[]): Promise<number> {
  return runWithDatabase(staffCommand, argv);
}
