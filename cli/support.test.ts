import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { insertSupportRequest } from "~/features/support-relay/support-outbox.server";
import { parseEnv, resetEnvForTests } from "~/platform/env.server";
import { type ChatWebhookReceiver, startChatWebhookReceiver } from "../tests/fakes/chat-webhook-receiver";
import { createTestDatabase, type TestDatabase } from "../tests/support/databases";
import type { CliContext } from "./cli-context";
import { supportCommand } from "./support";

describe("support CLI", () => {
  let database: TestDatabase;
  let receiver: ChatWebhookReceiver;
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
    return supportCommand(argv, context);
  };
  const keyReset = { category: "Key Reset" as const, answers: ["Kestrel Vault", "New PC", "me@example.com"] };

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    receiver = await startChatWebhookReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await database.drop();
  });
  afterEach(() => resetEnvForTests(undefined));

  it("lists requests as a table, filtered by status, and as JSON", async () => {
    const parked = await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: false });
    expect(await run("list")).toBe(0);
    expect(stdout.join("\n")).toMatch(
      new RegExp(`^ID\\s+CREATED\\s+CATEGORY\\s+DELIVERY[\\s\\S]*${parked.id}\\s+\\S+\\s+Key Reset\\s+no_channel\\s+0`),
    );
    expect(await run("list", "--status", "delivered")).toBe(0);
    expect(stdout).toEqual(["No delivered support requests."]);
    expect(await run("list", "--status", "nope")).toBe(2);
    expect(await run("list", "--status", "no_channel", "--json")).toBe(0);
    expect(JSON.parse(stdout.join("\n"))).toMatchObject([
      { id: parked.id, deliveryStatus: "no_channel", answers: keyReset.answers },
    ]);
  });

  it("shows one request with its questions and answers", async () => {
    const request = await insertSupportRequest(database.handle.db, keyReset, { channelConfigured: false });
    expect(await run("show", request.id)).toBe(0);
    expect(stdout.join("\n")).toContain("  Which product key needs to be reset?\n    Kestrel Vault");
    expect(await run("show", "missing", "--json")).toBe(1);
    expect(JSON.parse(stderr.join(""))).toEqual({ error: "No support request with id missing" });
  });

  it("shows direction overrides and invisible characters in answers as visible marks", async () => {
    const request = await insertSupportRequest(
      database.handle.db,
      { ...keyReset, answers: ["Kestrel Vault", "New\u200BPC", "me@\u202Emoc.elpmaxe"] },
      { channelConfigured: false },
    );
    expect(await run("show", request.id)).toBe(0);
    expect(stdout.join("\n")).toContain("    New[U+200B]PC\n");
    expect(stdout.join("\n")).toContain("    me@[U+202E]moc.elpmaxe");
  });

  it("refuses to retry without a webhook URL", async () => {
    resetEnvForTests(parseEnv({}));
    expect(await run("retry", "--failed")).toBe(1);
    expect(stderr.join("")).toContain("SUPPORT_WEBHOOK_URL is not set");
  });

  it("delivers no_channel requests once a webhook URL is configured", async () => {
    resetEnvForTests(parseEnv({ SUPPORT_WEBHOOK_URL: receiver.url }));
    expect(await run("retry", "--failed", "--json")).toBe(0);
    const result = JSON.parse(stdout.join("\n"));
    expect(result.delivered.length).toBeGreaterThan(0);
    expect(result.delivered.sort()).toEqual(result.queued.sort());
    expect(receiver.delivered()).toHaveLength(result.queued.length);
    expect(await run("retry", "--failed")).toBe(0);
    expect(stdout).toEqual(["Nothing to retry: no failed or no_channel support requests."]);
    expect(await run("retry", result.delivered[0])).toBe(1);
    expect(stderr.join("")).toContain("was already delivered");
  });
});
