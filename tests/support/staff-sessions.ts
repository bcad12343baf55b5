import crypto from "node:crypto";
import { openStoreDatabase } from "./store-database";

/** What the server keeps of a session id: SHA-256 under the console's domain (app/platform/hashed-secrets.server.ts). */
export function staffSessionHash(token: string): string {
  return crypto.createHash("sha256").update(`kestrel-staff-session:${token}`).digest("hex");
}

/**
 * Puts a signed-in staff member (a passkey and a live passkey session) straight into an app server's SQLite
 * database; returns the session token, sent as the `kestrel-staff` cookie. `beganWith: "setup-link"` makes someone
 * who opened their setup link and has no passkey yet; `passkeyId` names their passkey.
 */
export function addStaffSession(
  dataDir: string,
  email: string,
  role: "owner" | "admin" | "support",
  options: { beganWith?: "passkey" | "setup-link"; passkeyId?: string } = {},
): string {
  const beganWith = options.beganWith ?? "passkey";
  const db = openStoreDatabase(dataDir);
  try {
    const now = new Date();
    const id = crypto.randomUUID();
    db.prepare("INSERT INTO staff (id, email, role, webauthn_user_id, created_at) VALUES (?, ?, ?, ?, ?)").run(
      id,
      email,
      role,
      crypto.randomBytes(32).toString("base64url"),
      now.toISOString(),
    );
    if (beganWith === "passkey")
      db.prepare(
        "INSERT INTO staff_passkeys (id, staff_id, public_key, counter, transports, name, created_at) VALUES (?, ?, 'pk', 0, '[]', 'Laptop', ?)",
      ).run(options.passkeyId ?? `cred-${id}`, id, now.toISOString());
    const token = crypto.randomBytes(32).toString("base64url");
    db.prepare(
      "INSERT INTO staff_sessions (id_hash, staff_id, began_with, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
    ).run(
      staffSessionHash(token),
      id,
      beganWith,
      now.toISOString(),
      now.toISOString(),
      new Date(now.getTime() + 60 * 60 * 1000).toISOString(),
    );
    return token;
  } finally {
    db.close();
  }
}
