// Issue 42, "Fresh proof for a new credential": a signed-in session adds a passkey only after a ceremony with one of
// the account's own passkeys, bound to that session, spent once and short-lived; a setup link stays the other way in.
// The console's passkey endpoints over real HTTP on 127.0.0.1, both databases, a software authenticator.
import type { AddressInfo } from "node:net";
import express from "express";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createConsoleApi } from "~/features/staff/passkey-api.server";
import { registrationOptions, verifyRegistration } from "~/features/staff/passkey-ceremonies.server";
import { listPasskeys } from "~/features/staff/passkey-store.server";
import { inviteStaff, type Staff } from "~/features/staff/people.server";
import { CHALLENGE_TTL_MS } from "~/features/staff/roles";
import { createSession, readSession } from "~/features/staff/sessions.server";
import { getDb } from "~/platform/db.server";
import type { Database } from "../../db/schema";
import { testDialects } from "../support/databases";
import { SoftAuthenticator } from "../support/soft-authenticator";
import { useAppEnvironment } from "../support/test-environment";

/** Run inside the WebAuthn library's registration check: what the test wants to know about the database then. */
const duringVerification = vi.hoisted(() => ({ probe: undefined as (() => Promise<void>) | undefined }));
vi.mock("@simplewebauthn/server", async (importOriginal) => {
  const original = await importOriginal<typeof import("@simplewebauthn/server")>();
  return {
    ...original,
    verifyRegistrationResponse: async (...args: Parameters<typeof original.verifyRegistrationResponse>) => {
      await duringVerification.probe?.();
      return original.verifyRegistrationResponse(...args);
    },
  };
});

const dialects = await testDialects();
const ORIGIN = "http://console.test";

describe.each(dialects)("fresh proof before a new passkey on %s", (dialect) => {
  const database = useAppEnvironment(dialect, { PUBLIC_URL: ORIGIN });
  const db = () => getDb().db;
  let base = "";
  let close = () => {};
  let n = 0;

  beforeAll(async () => {
    const app = express();
    // Each test is its own client address: the endpoints' per-address limit (10 a minute) is not what is tested here.
    app.set("trust proxy", true);
    app.use("/api", createConsoleApi());
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  async function post(path: string, token: string, json: unknown = {}) {
    const res = await fetch(`${base}/api/admin/passkeys/${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        origin: ORIGIN,
        cookie: `kestrel-staff=${token}`,
        "x-forwarded-for": `192.0.2.${n}`,
      },
      body: JSON.stringify(json),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  }

  /** A person with one passkey (on `laptop`) and a signed-in passkey session: its token. */
  async function signedIn(): Promise<{ staff: Staff; laptop: SoftAuthenticator; token: string }> {
    const { staff } = await inviteStaff(db(), { email: `proof-${++n}@example.com`, role: "admin", by: "cli" });
    const setup = await readSession(db(), await createSession(db(), { staffId: staff.id, beganWith: "setup-link" }));
    if (!setup) throw new Error("no setup session");
    const laptop = new SoftAuthenticator(ORIGIN);
    const options = await registrationOptions(db(), staff, setup.idHash);
    const check = await verifyRegistration(db(), staff, setup.idHash, laptop.register(options), "Laptop");
    if (!check.ok) throw new Error(check.reason);
    return { staff, laptop, token: await createSession(db(), { staffId: staff.id, beganWith: "passkey" }) };
  }

  it("refuses a new passkey to a signed-in session that has not proved itself", async () => {
    const { staff, token } = await signedIn();
    const options = await post("register/options", token);
    expect(options).toEqual({ status: 403, json: { error: "Confirm with one of your passkeys first." } });
    expect(await listPasskeys(db(), staff.id)).toHaveLength(1);
  });

  it("adds a second passkey after a ceremony with the first, once", async () => {
    const { staff, laptop, token } = await signedIn();
    const asked = await post("confirm/options", token);
    expect(asked.status).toBe(200);
    const request = asked.json.options as Parameters<SoftAuthenticator["signIn"]>[0];
    expect(request.userVerification).toBe("required");
    expect(request.allowCredentials?.map((c) => c.id)).toEqual([laptop.credentials[0]?.id]);
    const proof = laptop.signIn(request);
    const confirmed = await post("confirm", token, { credential: proof });
    expect(confirmed.status).toBe(200);
    const phone = new SoftAuthenticator(ORIGIN);
    const creation = confirmed.json.options as Parameters<SoftAuthenticator["register"]>[0];
    const answer = phone.register(creation);
    expect(await post("register", token, { credential: answer, name: "Phone" })).toEqual({
      status: 200,
      json: { redirect: null, name: "Phone" },
    });
    expect((await listPasskeys(db(), staff.id)).map((p) => p.name)).toEqual(["Laptop", "Phone"]);
    // Both the proof and what it earned are spent: neither buys a third passkey.
    expect((await post("confirm", token, { credential: proof })).status).toBe(401);
    const again = new SoftAuthenticator(ORIGIN).register(creation);
    expect((await post("register", token, { credential: again, name: "Third" })).status).toBe(400);
    expect(await listPasskeys(db(), staff.id)).toHaveLength(2);
  });

  it("takes no proof from another session, another person's passkey, or after five minutes", async () => {
    const { laptop, token } = await signedIn();
    const other = await signedIn();
    // Asked for by one session, answered in another of the same person: refused.
    const sameStaffOtherSession = await createSession(db(), { staffId: other.staff.id, beganWith: "passkey" });
    const forOther = (await post("confirm/options", other.token)).json.options as Parameters<
      SoftAuthenticator["signIn"]
    >[0];
    const crossed = await post("confirm", sameStaffOtherSession, { credential: other.laptop.signIn(forOther) });
    expect(crossed.status).toBe(401);
    // Someone else's passkey answering this person's challenge: refused.
    const mine = (await post("confirm/options", token)).json.options as Parameters<SoftAuthenticator["signIn"]>[0];
    const stranger = await post("confirm", token, {
      credential: other.laptop.signIn({ ...mine, allowCredentials: [] }),
    });
    expect(stranger).toEqual({ status: 401, json: { error: "Confirm with one of the passkeys of this account." } });
    // Answered too late: refused.
    const late = (await post("confirm/options", token)).json.options as Parameters<SoftAuthenticator["signIn"]>[0];
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + CHALLENGE_TTL_MS + 1000 });
    try {
      expect((await post("confirm", token, { credential: laptop.signIn(late) })).status).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });

  it("still lets a setup link add a passkey without one (an invitation of an existing person)", async () => {
    const { staff } = await signedIn();
    await inviteStaff(db(), { email: staff.email, role: "admin", by: "cli" });
    const token = await createSession(db(), { staffId: staff.id, beganWith: "setup-link" });
    const options = await post("register/options", token);
    expect(options.status).toBe(200);
    const found = new SoftAuthenticator(ORIGIN);
    const added = await post("register", token, { credential: found.register(options.json.options as never) });
    expect(added.status).toBe(200);
    expect(await listPasskeys(db(), staff.id)).toHaveLength(2);
  });

  it("checks the new passkey's signature before its transaction opens: nothing is held while the crypto runs", async () => {
    const other: Kysely<Database> = database().open().db;
    /** Whether another connection could write at that moment (SQLite) / no transaction of ours stood open (PostgreSQL). */
    const free = async (): Promise<boolean> => {
      if (dialect === "sqlite") {
        await sql`PRAGMA busy_timeout = 0`.execute(other);
        try {
          await sql`BEGIN IMMEDIATE`.execute(other);
          await sql`ROLLBACK`.execute(other);
          return true;
        } catch {
          return false;
        }
      }
      const open = await sql<{ n: string }>`SELECT count(*) AS n FROM pg_stat_activity
        WHERE datname = current_database() AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'`.execute(
        other,
      );
      return Number(open.rows[0]?.n) === 0;
    };
    const seen: boolean[] = [];
    duringVerification.probe = async () => {
      seen.push(await free());
    };
    try {
      const { staff } = await inviteStaff(db(), { email: `crypto-${++n}@example.com`, role: "support", by: "cli" });
      const token = await createSession(db(), { staffId: staff.id, beganWith: "setup-link" });
      const options = await post("register/options", token);
      const made = await post("register", token, {
        credential: new SoftAuthenticator(ORIGIN).register(options.json.options as never),
      });
      expect(made.status).toBe(200);
      expect(await listPasskeys(db(), staff.id)).toHaveLength(1);
      expect(seen).toEqual([true]);
    } finally {
      duringVerification.probe = undefined;
      if (dialect === "sqlite") await other.destroy();
    }
  });
});
