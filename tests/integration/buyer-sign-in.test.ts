import { describe, expect, it } from "vitest";
import {
  buyerSessionEmail,
  checkSignInCode,
  createBuyerSession,
  createSignInCode,
  endBuyerSession,
  hashSecret,
  liveSignInCode,
  revokeBuyerSessions,
  spendSignInLink,
} from "../../app/features/buyer-orders/sign-in-store.server";
import { testDialects } from "../support/databases";
import { useTestDatabase } from "../support/test-environment";

const dialects = await testDialects();

describe.each(dialects)("the buyer's sign-in codes and sessions on %s", (dialect) => {
  const database = useTestDatabase(dialect);
  const db = () => database().handle.db;
  const newCode = async (email: string, now = new Date()) => {
    const created = await createSignInCode(db(), { email, locale: "en", now });
    if ("limited" in created) throw new Error("limited");
    return created;
  };

  it("stores only hashes of the code, its link and its id", async () => {
    const created = await newCode("hashes@example.com");
    const rows = await db()
      .selectFrom("buyer_sign_in_codes")
      .selectAll()
      .where("email", "=", "hashes@example.com")
      .execute();
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(created.code);
    expect(stored).not.toContain(created.link);
    expect(stored).not.toContain(created.id);
    expect(rows[0]?.id).toBe(hashSecret("code", created.id));
  });

  it("signs in with the right code once; the code and its link are dead after", async () => {
    const created = await newCode("once@example.com");
    expect(await checkSignInCode(db(), { id: created.id, code: created.code })).toEqual({
      ok: true,
      email: "once@example.com",
    });
    expect(await checkSignInCode(db(), { id: created.id, code: created.code })).toEqual({ ok: false, triesLeft: 0 });
    expect(await spendSignInLink(db(), { link: created.link })).toBeUndefined();
    expect(await liveSignInCode(db(), created.id)).toBeUndefined();
  });

  it("lets the link sign in once, and then the code is dead too", async () => {
    const created = await newCode("link@example.com");
    expect(await spendSignInLink(db(), { link: created.link })).toBe("link@example.com");
    expect(await spendSignInLink(db(), { link: created.link })).toBeUndefined();
    expect((await checkSignInCode(db(), { id: created.id, code: created.code })).ok).toBe(false);
  });

  it("allows 5 wrong tries (4, 3, 2, 1, then dead) and the right code after them fails", async () => {
    const created = await newCode("guess@example.com");
    const wrong = created.code === "000000" ? "111111" : "000000";
    const left = [];
    for (let i = 0; i < 5; i++) left.push(await checkSignInCode(db(), { id: created.id, code: wrong }));
    expect(left).toEqual([4, 3, 2, 1, 0].map((triesLeft) => ({ ok: false, triesLeft })));
    expect(await checkSignInCode(db(), { id: created.id, code: created.code })).toEqual({ ok: false, triesLeft: 0 });
  });

  it("never lets parallel guesses past 5 tries", async () => {
    const created = await newCode("parallel@example.com");
    const guesses = Array.from({ length: 20 }, (_, i) => String(i).padStart(6, "9")).filter((c) => c !== created.code);
    const results = await Promise.all(guesses.map((code) => checkSignInCode(db(), { id: created.id, code })));
    expect(results.filter((r) => !r.ok && r.triesLeft < 5).length).toBeLessThanOrEqual(20);
    const row = await db()
      .selectFrom("buyer_sign_in_codes")
      .select("tries_left")
      .where("id", "=", hashSecret("code", created.id))
      .executeTakeFirstOrThrow();
    expect(Number(row.tries_left)).toBe(0);
  });

  it("expires a code and its link after 10 minutes", async () => {
    const made = new Date(Date.now() - 10 * 60_000 - 1000);
    const created = await newCode("late@example.com", made);
    expect(await checkSignInCode(db(), { id: created.id, code: created.code })).toEqual({ ok: false, triesLeft: 0 });
    expect(await spendSignInLink(db(), { link: created.link })).toBeUndefined();
    const fresh = await newCode("late@example.com");
    expect(await liveSignInCode(db(), fresh.id)).toBeDefined();
  });

  it("makes at most 3 codes per address per 15 minutes", async () => {
    const old = new Date(Date.now() - 16 * 60_000);
    await newCode("limit@example.com", old);
    for (let i = 0; i < 3; i++) await newCode("limit@example.com");
    expect(await createSignInCode(db(), { email: "limit@example.com", locale: "en" })).toEqual({ limited: true });
    expect("limited" in (await createSignInCode(db(), { email: "other@example.com", locale: "en" }))).toBe(false);
  });

  it("keeps sessions hashed for 24 hours, replaces the browser's earlier one, and revokes an address's sessions", async () => {
    const first = await createBuyerSession(db(), { email: "s@example.com" });
    expect(await buyerSessionEmail(db(), first)).toBe("s@example.com");
    const stored = JSON.stringify(await db().selectFrom("buyer_sessions").selectAll().execute());
    expect(stored).not.toContain(first);
    const second = await createBuyerSession(db(), { email: "s@example.com", replacing: first });
    expect(await buyerSessionEmail(db(), first)).toBeUndefined();
    expect(await buyerSessionEmail(db(), second)).toBe("s@example.com");
    expect(await buyerSessionEmail(db(), second, new Date(Date.now() + 24 * 60 * 60_000 + 1000))).toBeUndefined();
    const elsewhere = await createBuyerSession(db(), { email: "s@example.com" });
    const kept = await createBuyerSession(db(), { email: "t@example.com" });
    expect(await revokeBuyerSessions(db(), " S@example.com")).toBe(2);
    expect(await buyerSessionEmail(db(), elsewhere)).toBeUndefined();
    expect(await buyerSessionEmail(db(), kept)).toBe("t@example.com");
    await endBuyerSession(db(), kept);
    expect(await buyerSessionEmail(db(), kept)).toBeUndefined();
  });
});
