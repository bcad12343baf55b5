// Issue 42, "Bounded costs": refused sign-ins from one address are counted in one audit entry per minute, so anonymous
// refusals cannot grow the log without bound.
import { describe, expect, it } from "vitest";
import { recordRefusal } from "~/features/audit/audit-log.server";
import { testDialects } from "../support/databases";
import { useTestDatabase } from "../support/test-environment";

const dialects = await testDialects();

describe.each(dialects)("refusals at the door on %s", (dialect) => {
  const database = useTestDatabase(dialect);

  it("counts refusals from one address in one entry per minute, apart per address, actor and minute", async () => {
    const { db } = database().handle;
    const at = (seconds: number) => new Date(Date.UTC(2026, 10, 30, 12, 0, seconds));
    const refuse = (clientAddress: string | null, seconds: number, actor = "anonymous") =>
      recordRefusal(db, {
        actor,
        action: "sign-in-refused",
        detail: { why: seconds === 0 ? "unknown passkey" : "challenge expired or used" },
        clientAddress,
        now: at(seconds),
      });
    for (let second = 0; second < 50; second++) await refuse("198.51.100.7", second);
    await refuse("198.51.100.8", 10);
    await refuse(null, 20);
    await refuse(null, 21);
    await refuse("198.51.100.7", 30, "owner@example.com");
    await refuse("198.51.100.7", 61);

    const rows = await db
      .selectFrom("audit_log")
      .select(["actor", "client_address", "at", "detail"])
      .where("action", "=", "sign-in-refused")
      .orderBy("id")
      .execute();
    expect(rows.map((row) => [row.actor, row.client_address, row.at, JSON.parse(row.detail ?? "{}")])).toEqual([
      ["anonymous", "198.51.100.7", at(0).toISOString(), { why: "unknown passkey", count: 50 }],
      ["anonymous", "198.51.100.8", at(10).toISOString(), { why: "challenge expired or used" }],
      ["anonymous", null, at(20).toISOString(), { why: "challenge expired or used", count: 2 }],
      ["owner@example.com", "198.51.100.7", at(30).toISOString(), { why: "challenge expired or used" }],
      ["anonymous", "198.51.100.7", at(61).toISOString(), { why: "challenge expired or used" }],
    ]);
  });
});
