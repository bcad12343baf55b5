// Who may open which part of the console (issue 34): checked on the server for every loader, action and file.

export const STAFF_ROLES = ["owner", "admin", "support"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export function isStaffRole(value: unknown): value is StaffRole {
  return typeof value === "string" && (STAFF_ROLES as readonly string[]).includes(value);
}

/**
 * The console's rooms and the roles let in: owners everything, admins all but staff and the audit log, support the
 * dashboard, their account, the support inbox and order look-ups (not releases). Support uses saved replies in the inbox but does not
 * manage them.
 */
export const CONSOLE_AREAS = {
  dashboard: ["owner", "admin", "support"],
  account: ["owner", "admin", "support"],
  orders: ["owner", "admin", "support"],
  support: ["owner", "admin", "support"],
  deliveries: ["owner", "admin"],
  status: ["owner", "admin"],
  savedReplies: ["owner", "admin"],
  content: ["owner", "admin"],
  releases: ["owner", "admin"],
  staff: ["owner"],
  audit: ["owner"],
} as const satisfies Record<string, readonly StaffRole[]>;
export type ConsoleArea = keyof typeof CONSOLE_AREAS;

export function mayEnter(role: StaffRole, area: ConsoleArea): boolean {
  return (CONSOLE_AREAS[area] as readonly StaffRole[]).includes(role);
}

export const CONSOLE_PATH = "/admin";
export const SIGN_IN_PATH = "/admin/sign-in";
export const SETUP_PATH = "/admin/setup";

/** A setup link works once, for one hour. */
export const SETUP_LINK_TTL_MS = 60 * 60 * 1000;
/** The session a setup link opens: long enough to create a passkey, and only that. */
export const SETUP_SESSION_TTL_MS = 30 * 60 * 1000;
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
export const SESSION_MAX_MS = 7 * 24 * 60 * 60 * 1000;
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;

export const PASSKEY_NAME_MAX = 60;
