import { beforeAll, afterAll, beforeEach, describe, expect, it } from "vitest";
import { insertMail } from "~/features/mail/mail-outbox.server";
import { createTestDatabase, type TestDatabase } from "../tests/support/databases";
import type { CliContext } from "./cli-context";
import { mailCommand } from "./mail";

describe("mail CLI", () => {
  let database: TestDatabase;
  let stdout: string[];
  let stderr: string[];
  const run = (...argv: string[]) => {
    stdout = [];
    stderr = [];
    const context: CliContext = {
      db: database.handle.db,
      products: [],
      out: (t) => stdout.push(t),
      err: (t) => stderr.push(t),
    };
    return mailCommand(argv, context);
  };
  const signInCode = {
    kind: "sign-in-code",
    to: "buyer@example.com",
    subject: "Your sign-in code",
    text: "Your code is 493201.\nIt works for 10 minutes.",
  };
  const from = "Kestrel Software <shop@example.com>";

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
  });
  afterAll(async () => {
    await database.drop();
  });
  beforeEach(async () => {
    await database.handle.db.deleteFrom("mail_outbox").execute();
  });

  it("lists kept and queued mail newest first: id, created, status, kind, to, subject", async () => {
    const kept = await insertMail(database.handle.db, signInCode, {
      from,
      deliver: false,
      now: new Date("2026-11-27T09:00:00Z"),
    });
    const queued = await insertMail(
      database.handle.db,
      { ...signInCode, to: "other@example.com", subject: "Your orders" },
      { from, deliver: true, now: new Date("2026-11-27T09:05:00Z") },
    );
    expect(await run("list")).toBe(0);
    const [header, first, second] = stdout.join("\n").split("\n");
    expect(header).toMatch(/^ID\s+CREATED\s+STATUS\s+KIND\s+TO\s+SUBJECT$/);
    expect(first).toMatch(
      new RegExp(
        `^${queued.id}\\s+2026-11-27T09:05:00.000Z\\s+pending\\s+sign-in-code\\s+other@example.com\\s+Your orders$`,
      ),
    );
    expect(second).toMatch(
      new RegExp(`^${kept.id}\\s+\\S+\\s+kept\\s+sign-in-code\\s+buyer@example.com\\s+Your sign-in code$`),
    );
    expect(stdout.join("\n")).not.toContain("493201");

    expect(await run("list", "--status", "kept", "--json")).toBe(0);
    expect(JSON.parse(stdout.join("\n"))).toEqual([
      expect.objectContaining({ id: kept.id, status: "kept", to: "buyer@example.com", text: signInCode.text }),
    ]);
    expect(await run("list", "--status", "sent")).toBe(0);
    expect(stdout).toEqual(["No sent mail."]);
  });

  it("shows one mail with its body by --id", async () => {
    const kept = await insertMail(database.handle.db, signInCode, { from, deliver: false });
    expect(await run("list", "--id", kept.id)).toBe(0);
    const shown = stdout.join("\n");
    expect(shown).toContain(`Mail ${kept.id}`);
    expect(shown).toContain("  To:            buyer@example.com");
    expect(shown).toContain("  Status:        kept");
    expect(shown).toContain("    Your code is 493201.\n    It works for 10 minutes.");
    expect(await run("list", "--id", "missing", "--json")).toBe(1);
    expect(JSON.parse(stderr.join(""))).toEqual({ error: "No mail with id missing" });
  });

  it("says what is wrong with bad arguments", async () => {
    expect(await run("list", "--status", "lost")).toBe(2);
    expect(stderr.join("")).toContain("--status must be one of pending, sent, failed, expired, kept");
    expect(await run("list", "--limit", "0")).toBe(2);
    expect(await run("send")).toBe(2);
    expect(await run()).toBe(2);
    expect(stdout.join("")).toContain("npm run cli -- mail list");
  });
});
