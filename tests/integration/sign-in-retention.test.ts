import { describe, expect, it } from "vitest";
import { forgetOldSignIns, RETENTION } from "~/features/buyer-orders/retention.server";
import { createBuyerSession, createSignInCode } from "~/features/buyer-orders/sign-in-store.server";
import { insertMail } from "~/features/mail/mail-outbox.server";
import { testDialects } from "../support/databases";
import { useTestDatabase } from "../support/test-environment";

const dialects = await testDialects();
const DAY = 24 * 60 * 60 * 1000;

// What the sign-in leaves behind (mail with codes and links, codes, sessions) goes once it is of no use.
describe.each(dialects)("sign-in retention on %s", (dialect) => {
  const database = useTestDatabase(dialect);

  it("deletes finished mail after a week, dead codes after a day and ended sessions, and keeps the rest", async () => {
    const { db } = database().handle;
    const now = new Date("2026-11-27T12:00:00Z");
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const mail = (when: Date, deliver: boolean) =>
      insertMail(
        db,
        { to: "buyer@example.com", subject: "Your code", text: "123456", kind: "sign-in-code" },
        { from: "shop@example.com", deliver, now: when },
      );
    const oldKept = await mail(ago(RETENTION.mailDays * DAY + 60_000), false);
    const oldPending = await mail(ago(RETENTION.mailDays * DAY + 60_000), true);
    const recentKept = await mail(ago(DAY), false);
    await createSignInCode(db, { email: "old@example.com", locale: "en", now: ago(2 * DAY) });
    await createSignInCode(db, { email: "new@example.com", locale: "en", now: ago(60_000) });
    await createBuyerSession(db, { email: "old@example.com", now: ago(2 * DAY) });
    await createBuyerSession(db, { email: "new@example.com", now: ago(60_000) });

    expect(await forgetOldSignIns(db, now)).toEqual({ mail: 1, codes: 1, sessions: 1 });
    const mailLeft = (await db.selectFrom("mail_outbox").select("id").execute()).map((row) => row.id).sort();
    expect(mailLeft).toEqual([oldPending.id, recentKept.id].sort());
    expect(mailLeft).not.toContain(oldKept.id);
    expect((await db.selectFrom("buyer_sign_in_codes").select("email").execute()).map((r) => r.email)).toEqual([
      "new@example.com",
    ]);
    expect((await db.selectFrom("buyer_sessions").select("email").execute()).map((r) => r.email)).toEqual([
      "new@example.com",
    ]);
    expect(await forgetOldSignIns(db, now)).toEqual({ mail: 0, codes: 0, sessions: 0 });
  });
});
