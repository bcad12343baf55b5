// The console's door on both databases (issue 34): passkeys registered and signed in with through a software
// authenticator, challenges spent once within 5 minutes and bound to their session, setup links (once, an hour), the
// recovery path, the last owner (also under racing removals), sessions (12 hours idle, 7 days at most) and passkeys.
import type { Kysely } from "kysely";
import { RouterContextProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadSetupPage } from "~/features/console/sign-in/sign-in-page.server";
import {
  registrationOptions,
  signInOptions,
  verifyRegistration,
  verifySignIn,
} from "~/features/staff/passkey-ceremonies.server";
import {
  CHALLENGE_TTL_MS,
  SESSION_IDLE_MS,
  SESSION_MAX_MS,
  SETUP_LINK_TTL_MS,
  type StaffRole,
} from "~/features/staff/roles";
import {
  changeRole,
  findStaffByEmail,
  inviteStaff,
  LastOwnerError,
  removeStaff,
  spendSetupLink,
} from "~/features/staff/people.server";
import { createSession, readSession } from "~/features/staff/sessions.server";
import { findPasskey, listPasskeys, removePasskey } from "~/features/staff/passkey-store.server";
import { getDb } from "~/platform/db.server";
import { clientAddressContext } from "~/platform/request-context";
import type { Database } from "../../db/schema";
import { testDialects } from "../support/databases";
import { FLAG_AT, FLAG_UP, FLAG_UV, SoftAuthenticator } from "../support/soft-authenticator";
import { useAppEnvironment } from "../support/test-environment";

const dialects = await testDialects();
const ORIGIN = "http://console.test";
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe.each(dialects)("console passkeys on %s", (dialect) => {
  const database = useAppEnvironment(dialect, { PUBLIC_URL: ORIGIN });
  const db = () => getDb().db;
  let n = 0;
  const email = (who: string) => `${who}-${++n}@example.com`;

  afterEach(() => {
    vi.useRealTimers();
  });

  /** A setup-link session for a new (or, invited again, existing) person, as opening their link makes one. */
  async function setupSession(address: string, role: StaffRole = "support") {
    const { token, staff, existed } = await inviteStaff(db(), { email: address, role, by: "cli" });
    const spent = await spendSetupLink(db(), token);
    if (!("staff" in spent)) throw new Error(`the setup link was refused: ${spent.refused}`);
    const session = await readSession(db(), await createSession(db(), { staffId: staff.id, beganWith: "setup-link" }));
    if (!session) throw new Error("no setup-link session");
    return { staff, existed, session };
  }

  /** A person with one passkey on `auth`, registered through their setup link. */
  async function withPasskey(address: string, role: StaffRole = "support", auth = new SoftAuthenticator(ORIGIN)) {
    const { staff, session } = await setupSession(address, role);
    const options = await registrationOptions(db(), staff, session.idHash);
    const check = await verifyRegistration(db(), staff, session.idHash, auth.register(options), "Laptop");
    if (!check.ok) throw new Error(`registration refused: ${check.reason}`);
    return { staff, auth, passkeyId: check.passkeyId };
  }

  async function signIn(auth: SoftAuthenticator, overrides: Parameters<SoftAuthenticator["signIn"]>[1] = {}) {
    return verifySignIn(db(), auth.signIn(await signInOptions(db()), overrides));
  }

  /** Tests about owners start from no staff at all (the other tests leave people behind). */
  async function noStaff() {
    for (const table of ["staff_sessions", "staff_setup_links", "staff_passkeys", "staff"] as const)
      await db().deleteFrom(table).execute();
  }

  const owners = async () =>
    (await db().selectFrom("staff").select("email").where("role", "=", "owner").execute()).map((r) => r.email);

  it("verifies a registration and stores the passkey for the person, with the options a passkey needs", async () => {
    const auth = new SoftAuthenticator(ORIGIN);
    const { staff, session } = await setupSession(email("new"), "admin");
    const options = await registrationOptions(db(), staff, session.idHash);
    expect(options.rp).toEqual({ id: "console.test", name: "Kestrel console" });
    expect(options.user.id).toBe(staff.webauthn_user_id);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
    expect(options.excludeCredentials).toEqual([]);

    const answer = auth.register(options);
    const check = await verifyRegistration(db(), staff, session.idHash, answer, "Work laptop");
    expect(check).toEqual({ ok: true, passkeyId: answer.id, name: "Work laptop" });
    const stored = await findPasskey(db(), answer.id);
    expect(stored).toMatchObject({ staff_id: staff.id, counter: 0, name: "Work laptop" });
    expect(JSON.parse(stored?.transports ?? "null")).toEqual(["internal"]);
    // The stored key is the authenticator's: its x coordinate is in the COSE key kept.
    const x = auth.credentials[0]?.publicKey.export({ format: "jwk" }).x ?? "?";
    expect(Buffer.from(stored?.public_key ?? "", "base64url").includes(Buffer.from(x, "base64url"))).toBe(true);
    // The discoverable credential names the person by the user handle the server chose, never by email.
    expect(auth.credentials[0]?.userHandle).toBe(staff.webauthn_user_id);
  });

  it("verifies a sign-in with the passkey and records its counter and use", async () => {
    const { staff, auth, passkeyId } = await withPasskey(email("signer"));
    const first = await signIn(auth);
    expect(first).toEqual({ ok: true, staff, passkeyId });
    expect((await findPasskey(db(), passkeyId))?.counter).toBe(1);
    expect(await signIn(auth)).toMatchObject({ ok: true });
    const used = await findPasskey(db(), passkeyId);
    expect(used?.counter).toBe(2);
    expect(used?.last_used_at).not.toBeNull();
    // A cloned authenticator answering with a counter that did not go up is refused, and the counter stays.
    expect(await signIn(auth, { counter: 2 })).toMatchObject({ ok: false, reason: "not-verified" });
    expect((await findPasskey(db(), passkeyId))?.counter).toBe(2);
  });

  it("keeps a signature counter past 2^31 (WebAuthn's run to 2^32 - 1) on both databases", async () => {
    const { auth, passkeyId } = await withPasskey(email("big-counter"));
    expect(await signIn(auth, { counter: 3_000_000_000 })).toMatchObject({ ok: true });
    expect((await findPasskey(db(), passkeyId))?.counter).toBe(3_000_000_000);
    expect(await signIn(auth, { counter: 2 ** 32 - 1 })).toMatchObject({ ok: true });
    expect((await findPasskey(db(), passkeyId))?.counter).toBe(2 ** 32 - 1);
  });

  it("refuses an answer whose user handle names someone else than the passkey's owner", async () => {
    const { auth } = await withPasskey(email("handle"));
    const answer = auth.signIn(await signInOptions(db()));
    answer.response.userHandle = Buffer.from("someone else").toString("base64url");
    expect(await verifySignIn(db(), answer)).toMatchObject({ ok: false, reason: "unknown-passkey" });
  });

  it("spends a sign-in challenge once: the same answer replayed is refused", async () => {
    const { auth } = await withPasskey(email("replay"));
    const answer = auth.signIn(await signInOptions(db()));
    expect(await verifySignIn(db(), answer)).toMatchObject({ ok: true });
    expect(await verifySignIn(db(), answer)).toEqual({ ok: false, reason: "challenge" });
    // A challenge the server never gave is refused the same way.
    const made = auth.signIn(await signInOptions(db()), { challenge: "bm90LWdpdmVuLWJ5LXRoZS1zZXJ2ZXI" });
    expect(await verifySignIn(db(), made)).toEqual({ ok: false, reason: "challenge" });
  });

  it("lets a challenge live 5 minutes, no longer", async () => {
    const { auth, staff } = await withPasskey(email("slow"));
    const start = new Date("2031-03-01T10:00:00.000Z");
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    const inTime = auth.signIn(await signInOptions(db()));
    const tooLate = auth.signIn(await signInOptions(db()));
    vi.setSystemTime(start.getTime() + CHALLENGE_TTL_MS - 1);
    expect(await verifySignIn(db(), inTime)).toMatchObject({ ok: true, staff: { id: staff.id } });
    vi.setSystemTime(start.getTime() + CHALLENGE_TTL_MS);
    expect(await verifySignIn(db(), tooLate)).toEqual({ ok: false, reason: "challenge" });

    // A registration's challenge too.
    const session = await readSession(db(), await createSession(db(), { staffId: staff.id, beganWith: "passkey" }));
    if (!session) throw new Error("no session");
    const options = await registrationOptions(db(), staff, session.idHash);
    vi.setSystemTime(Date.now() + CHALLENGE_TTL_MS);
    const late = await verifyRegistration(
      db(),
      staff,
      session.idHash,
      new SoftAuthenticator(ORIGIN).register(options),
      "Late",
    );
    expect(late).toEqual({ ok: false, reason: "challenge" });
    expect(await listPasskeys(db(), staff.id)).toHaveLength(1);
  });

  it("refuses a registration answer made for another session's challenge, and a challenge of the other kind", async () => {
    const mine = await setupSession(email("mine"));
    const theirs = await setupSession(email("theirs"));
    const auth = new SoftAuthenticator(ORIGIN);
    const options = await registrationOptions(db(), mine.staff, mine.session.idHash);
    const answer = auth.register(options);
    // The other session (another person's) cannot use it: their passkey would land on the account named by the
    // challenge's session, not theirs.
    expect(await verifyRegistration(db(), theirs.staff, theirs.session.idHash, answer, "Stolen")).toEqual({
      ok: false,
      reason: "challenge",
    });
    expect(await verifyRegistration(db(), mine.staff, theirs.session.idHash, answer, "Stolen")).toEqual({
      ok: false,
      reason: "challenge",
    });
    expect(await listPasskeys(db(), theirs.staff.id)).toEqual([]);
    // A sign-in challenge answered as a registration is refused too.
    const signInChallenge = (await signInOptions(db())).challenge;
    const crossed = auth.register({ ...options, challenge: signInChallenge });
    expect(await verifyRegistration(db(), mine.staff, mine.session.idHash, crossed, "Crossed")).toEqual({
      ok: false,
      reason: "challenge",
    });
    // The refused attempts did not spend the challenge: its own session still registers with it.
    expect(await verifyRegistration(db(), mine.staff, mine.session.idHash, answer, "Mine")).toMatchObject({ ok: true });
    expect((await listPasskeys(db(), mine.staff.id)).map((p) => p.name)).toEqual(["Mine"]);
  });

  it("refuses a passkey the server does not know", async () => {
    await withPasskey(email("known"));
    const stranger = new SoftAuthenticator(ORIGIN);
    // A credential made for the site but never registered (its registration answer was never sent).
    const never = await setupSession(email("never"));
    stranger.register(await registrationOptions(db(), never.staff, never.session.idHash));
    expect(await signIn(stranger)).toEqual({ ok: false, reason: "unknown-passkey" });
  });

  it("refuses answers without user verification, without presence, or from another origin", async () => {
    const { auth, passkeyId, staff } = await withPasskey(email("uv"));
    expect(await signIn(auth, { flags: FLAG_UP })).toEqual({
      ok: false,
      reason: "not-verified",
      staffEmail: staff.email,
    });
    expect(await signIn(auth, { flags: FLAG_UV })).toMatchObject({ ok: false, reason: "not-verified" });
    expect(await signIn(auth, { origin: "http://evil.test" })).toMatchObject({ ok: false, reason: "not-verified" });
    expect(await signIn(auth, { type: "webauthn.create" })).toMatchObject({ ok: false, reason: "not-verified" });
    expect((await findPasskey(db(), passkeyId))?.counter).toBe(0);

    // Registration too: no passkey is stored without user verification.
    const { staff: other, session } = await setupSession(email("uv-register"));
    const options = await registrationOptions(db(), other, session.idHash);
    const unverified = new SoftAuthenticator(ORIGIN).register(options, { flags: FLAG_UP | FLAG_AT });
    expect(await verifyRegistration(db(), other, session.idHash, unverified, "No UV")).toMatchObject({ ok: false });
    expect(await listPasskeys(db(), other.id)).toEqual([]);
  });

  it("takes a setup link once and only within its hour", async () => {
    const at = new Date("2031-03-01T10:00:00.000Z");
    const person = email("link");
    const { token, staff } = await inviteStaff(db(), { email: person, role: "support", by: "cli", now: at });
    const late = (await inviteStaff(db(), { email: person, role: "support", by: "cli", now: at })).token;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only its hash is kept.
    const stored = await db().selectFrom("staff_setup_links").select("token_hash").execute();
    expect(stored.some((r) => r.token_hash.includes(token) || token.includes(r.token_hash))).toBe(false);

    expect(await spendSetupLink(db(), token, new Date(at.getTime() + SETUP_LINK_TTL_MS - 1))).toEqual({ staff });
    expect(await spendSetupLink(db(), token, new Date(at.getTime() + SETUP_LINK_TTL_MS - 1))).toEqual({
      refused: "used",
    });
    expect(await spendSetupLink(db(), late, new Date(at.getTime() + SETUP_LINK_TTL_MS))).toEqual({
      refused: "expired",
    });
    expect(await spendSetupLink(db(), "A".repeat(43))).toEqual({ refused: "unknown" });
  });

  it("opens a setup link on its page once: a setup-link session and a redirect without the token", async () => {
    const person = email("page");
    const { token } = await inviteStaff(db(), { email: person, role: "admin", by: "cli" });
    const context = new RouterContextProvider();
    context.set(clientAddressContext, "10.9.8.7");
    const open = () =>
      loadSetupPage(new Request(`${ORIGIN}/admin/setup?token=${token}`), context).then(
        () => undefined,
        (thrown: unknown) => thrown as Response,
      );
    const first = await open();
    expect(first?.status).toBe(303);
    expect(first?.headers.get("Location")).toBe("/admin/setup");
    const cookie = first?.headers.getSetCookie()[0] ?? "";
    expect(cookie).toMatch(/^kestrel-staff=[\w-]{43}; Path=\/; Max-Age=1800; HttpOnly; SameSite=Strict$/);
    const session = await readSession(db(), /=([\w-]+);/.exec(cookie)?.[1] ?? "");
    expect(session).toMatchObject({ beganWith: "setup-link", staff: { email: person } });

    const again = await open();
    expect(again?.status).toBe(303);
    expect(again?.headers.get("Location")).toBe("/admin/setup?link=used");
    expect(again?.headers.getSetCookie()).toEqual([]);
    const audit = await db()
      .selectFrom("audit_log")
      .select(["actor", "action", "detail"])
      .where("action", "in", ["setup-link-used", "setup-link-refused"])
      .where("client_address", "=", "10.9.8.7")
      .orderBy("id")
      .execute();
    expect(audit).toEqual([
      { actor: person, action: "setup-link-used", detail: null },
      { actor: "anonymous", action: "setup-link-refused", detail: JSON.stringify({ why: "used" }) },
    ]);
  });

  it("invited again, an existing person keeps their role and gets a second passkey on the same account", async () => {
    const person = email("recover");
    const { staff, auth: lost, passkeyId } = await withPasskey(person, "owner");
    const again = await setupSession(person, "support");
    expect(again.existed).toBe(true);
    expect(again.staff).toEqual(staff);
    expect((await findStaffByEmail(db(), person))?.role).toBe("owner");

    const options = await registrationOptions(db(), again.staff, again.session.idHash);
    expect(options.excludeCredentials?.map((c) => c.id)).toEqual([passkeyId]);
    expect(options.user.id).toBe(staff.webauthn_user_id);
    const found = new SoftAuthenticator(ORIGIN);
    const check = await verifyRegistration(db(), again.staff, again.session.idHash, found.register(options), "Phone");
    expect(check).toMatchObject({ ok: true });
    expect((await listPasskeys(db(), staff.id)).map((p) => p.name)).toEqual(["Laptop", "Phone"]);
    expect(await db().selectFrom("staff").select("id").where("email", "=", person).execute()).toHaveLength(1);
    expect(await signIn(found)).toMatchObject({ ok: true, staff: { id: staff.id, role: "owner" } });
    expect(await signIn(lost)).toMatchObject({ ok: true, staff: { id: staff.id } });
  });

  it("never removes or demotes the last owner", async () => {
    await noStaff();
    const first = email("owner");
    await inviteStaff(db(), { email: first, role: "owner", by: "cli" });
    await expect(removeStaff(db(), first)).rejects.toBeInstanceOf(LastOwnerError);
    await expect(changeRole(db(), first, "admin")).rejects.toBeInstanceOf(LastOwnerError);
    expect(await changeRole(db(), first, "owner")).toMatchObject({ before: "owner" });
    const admin = email("admin");
    await inviteStaff(db(), { email: admin, role: "admin", by: "cli" });
    expect(await removeStaff(db(), admin)).toMatchObject({ email: admin });

    const second = email("owner");
    await inviteStaff(db(), { email: second, role: "owner", by: "cli" });
    expect(await changeRole(db(), first, "support")).toMatchObject({ before: "owner" });
    await expect(removeStaff(db(), second)).rejects.toBeInstanceOf(LastOwnerError);
    await expect(changeRole(db(), second, "admin")).rejects.toBeInstanceOf(LastOwnerError);
    expect(await owners()).toEqual([second]);
  });

  it("keeps one owner when two owners are removed (or one removed and one demoted) at the same time", async () => {
    // On PostgreSQL each change runs on its own connection pool, as two instances would; SQLite has one writer.
    const other: Kysely<Database> = dialect === "postgres" ? database().open().db : db();
    for (let round = 0; round < 5; round++) {
      await noStaff();
      const a = email("racer");
      const b = email("racer");
      await inviteStaff(db(), { email: a, role: "owner", by: "cli" });
      await inviteStaff(db(), { email: b, role: "owner", by: "cli" });
      const raced = await Promise.allSettled([
        removeStaff(db(), a),
        round % 2 === 0 ? removeStaff(other, b) : changeRole(other, b, "admin"),
      ]);
      expect(raced.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      const refused = raced.filter((r) => r.status === "rejected");
      expect(refused.map((r) => (r as PromiseRejectedResult).reason)).toEqual([expect.any(LastOwnerError)]);
      expect(await owners()).toHaveLength(1);
    }
  });

  it("ends a removed person's sessions at once, with their passkeys and links", async () => {
    const person = email("leaver");
    const { staff, auth } = await withPasskey(person, "admin");
    const stays = await withPasskey(email("stayer"), "owner");
    const tokens = [
      await createSession(db(), { staffId: staff.id, beganWith: "passkey" }),
      await createSession(db(), { staffId: staff.id, beganWith: "passkey" }),
    ];
    const staying = await createSession(db(), { staffId: stays.staff.id, beganWith: "passkey" });
    await inviteStaff(db(), { email: person, role: "admin", by: "cli" });
    for (const token of tokens) expect(await readSession(db(), token)).toBeDefined();

    expect(await removeStaff(db(), person)).toMatchObject({ id: staff.id });
    for (const token of tokens) expect(await readSession(db(), token)).toBeUndefined();
    for (const table of ["staff_sessions", "staff_passkeys", "staff_setup_links"] as const)
      expect(await db().selectFrom(table).select("staff_id").where("staff_id", "=", staff.id).execute()).toEqual([]);
    expect(await signIn(auth)).toEqual({ ok: false, reason: "unknown-passkey" });
    expect(await readSession(db(), staying)).toMatchObject({ staff: { id: stays.staff.id } });
  });

  it("ends a session after 12 hours without use and after 7 days at most", async () => {
    const { staff } = await withPasskey(email("sessions"));
    const t0 = new Date("2031-03-01T10:00:00.000Z");
    const at = (ms: number) => new Date(t0.getTime() + ms);
    const idle = await createSession(db(), { staffId: staff.id, beganWith: "passkey", now: t0 });
    const idleOnce = await createSession(db(), { staffId: staff.id, beganWith: "passkey", now: t0 });
    const busy = await createSession(db(), { staffId: staff.id, beganWith: "passkey", now: t0 });
    expect(await readSession(db(), idleOnce, at(SESSION_IDLE_MS - 1))).toBeDefined();
    expect(await readSession(db(), idle, at(SESSION_IDLE_MS))).toBeUndefined();
    // Used every 11 hours, the session lives until its seventh day and ends there.
    for (let used = 11 * HOUR; used < SESSION_MAX_MS; used += 11 * HOUR)
      expect(await readSession(db(), busy, at(used))).toBeDefined();
    expect(await readSession(db(), busy, at(SESSION_MAX_MS - 1))).toBeDefined();
    expect(await readSession(db(), busy, at(SESSION_MAX_MS))).toBeUndefined();
    // Ended sessions are gone, not only refused: read earlier again, they are still unknown.
    expect(await readSession(db(), busy, at(SESSION_MAX_MS - 1))).toBeUndefined();
    expect(await readSession(db(), idle, at(1))).toBeUndefined();
    // A setup-link session only lasts long enough to create a passkey.
    const setup = await createSession(db(), { staffId: staff.id, beganWith: "setup-link", now: t0 });
    expect(await readSession(db(), setup, at(30 * MINUTE))).toBeUndefined();
  });

  it("removes a passkey only while another is left, and only the person's own", async () => {
    const { staff, auth, passkeyId } = await withPasskey(email("keys"));
    const someoneElse = await withPasskey(email("keys-other"));
    expect(await removePasskey(db(), staff.id, passkeyId)).toBe("last");
    expect(await removePasskey(db(), staff.id, someoneElse.passkeyId)).toBeUndefined();
    expect(await removePasskey(db(), someoneElse.staff.id, passkeyId)).toBeUndefined();

    // A second passkey, added from a signed-in session (the account page's "add another").
    const session = await readSession(db(), await createSession(db(), { staffId: staff.id, beganWith: "passkey" }));
    if (!session) throw new Error("no session");
    const phone = new SoftAuthenticator(ORIGIN);
    const added = await verifyRegistration(
      db(),
      staff,
      session.idHash,
      phone.register(await registrationOptions(db(), staff, session.idHash)),
      "Phone",
    );
    if (!added.ok) throw new Error(added.reason);
    expect(await removePasskey(db(), staff.id, passkeyId)).toEqual({ name: "Laptop" });
    expect(await signIn(auth)).toEqual({ ok: false, reason: "unknown-passkey" });
    expect(await removePasskey(db(), staff.id, added.passkeyId)).toBe("last");
    expect(await signIn(phone)).toMatchObject({ ok: true, staff: { id: staff.id } });
  });

  it("keeps the last passkey when two of two are removed at the same time", async () => {
    const other: Kysely<Database> = dialect === "postgres" ? database().open().db : db();
    for (let round = 0; round < 5; round++) {
      const { staff, passkeyId } = await withPasskey(email("two-keys"));
      const session = await readSession(db(), await createSession(db(), { staffId: staff.id, beganWith: "passkey" }));
      if (!session) throw new Error("no session");
      const second = await verifyRegistration(
        db(),
        staff,
        session.idHash,
        new SoftAuthenticator(ORIGIN).register(await registrationOptions(db(), staff, session.idHash)),
        "Second",
      );
      if (!second.ok) throw new Error(second.reason);
      const raced = await Promise.all([
        removePasskey(db(), staff.id, passkeyId),
        removePasskey(other, staff.id, second.passkeyId),
      ]);
      expect(raced.filter((r) => r === "last")).toHaveLength(1);
      expect(await listPasskeys(db(), staff.id)).toHaveLength(1);
    }
  });
});
