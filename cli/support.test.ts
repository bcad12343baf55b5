import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { conversationDoorbell } from "~/features/support-conversation/conversation-doorbell.server";
import {
  conversationMessages,
  findConversation,
  openConversation,
} from "~/features/support-conversation/conversation-store.server";
import { questionnaireLines } from "~/features/support-conversation/support-conversation.server";
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

  describe("conversations", () => {
    const open = async (contact: string) => {
      const request = await insertSupportRequest(
        database.handle.db,
        { ...keyReset, answers: ["Kestrel Vault", "New PC", contact] },
        { channelConfigured: false },
      );
      return openConversation(database.handle.db, {
        requestId: request.id,
        category: keyReset.category,
        locale: "en",
        visitorEmail: contact.includes("@example.com") ? contact : null,
        lines: questionnaireLines(keyReset.category, keyReset.answers),
      });
    };

    it("lists the open ones with whether the visitor left an address, never the address or a key", async () => {
      const mailed = await open("listed@example.com");
      const chat = await open("@chat_user");
      expect(await run("conversations")).toBe(0);
      const table = stdout.join("\n");
      expect(table).toMatch(/^ID\s+CATEGORY\s+CREATED\s+LAST MESSAGE\s+EMAIL/);
      expect(table).toMatch(new RegExp(`${mailed.conversation.id}\\s+Key Reset\\s+\\S+\\s+\\S+\\s+yes`));
      expect(table).toMatch(new RegExp(`${chat.conversation.id}\\s+Key Reset\\s+\\S+\\s+\\S+\\s+no`));
      expect(await run("conversations", "--json")).toBe(0);
      const listed = JSON.parse(stdout.join("\n"));
      expect(listed).toContainEqual({
        id: mailed.conversation.id,
        requestId: mailed.conversation.request_id,
        category: "Key Reset",
        createdAt: mailed.conversation.created_at,
        lastMessageAt: mailed.conversation.last_message_at,
        email: true,
      });
      for (const output of [table, JSON.stringify(listed)]) {
        expect(output).not.toContain("listed@example.com");
        expect(output).not.toContain(mailed.token);
        expect(output).not.toContain(mailed.linkKey);
      }
    });

    it("stores a team reply under the default name or --as, and rings the doorbell", async () => {
      const { conversation } = await open("reply@example.com");
      let rung = 0;
      const stopListening = conversationDoorbell().listen(conversation.id, () => rung++);
      try {
        expect(await run("reply", conversation.id, "  Your key is reset.  ")).toBe(0);
        expect(stdout.join("\n")).toContain(`Replied to conversation ${conversation.id} as Support team`);
        expect(await run("reply", conversation.id, "Anything else?", "--as", "Ada")).toBe(0);
      } finally {
        stopListening();
      }
      expect(rung).toBe(2);
      const team = (await conversationMessages(database.handle.db, conversation.id)).filter((m) => m.author === "team");
      expect(team.map((m) => [m.authorName, m.body])).toEqual([
        ["Support team", "Your key is reset."],
        ["Ada", "Anything else?"],
      ]);
    });

    it("refuses an unknown id, a resolved conversation and an empty reply with a clear message", async () => {
      const { conversation } = await open("resolve@example.com");
      expect(await run("reply", "no-such-conversation", "Hello")).toBe(1);
      expect(stderr.join("")).toBe("Error: No conversation with id no-such-conversation");
      expect(await run("reply", conversation.id, "   ")).toBe(2);
      expect(stderr.join("")).toContain("The reply is empty");
      expect(await run("reply", conversation.id)).toBe(2);
      expect(await run("reply", conversation.id, "x".repeat(2001))).toBe(2);

      expect(await run("resolve", conversation.id)).toBe(0);
      expect(stdout).toEqual([`Conversation ${conversation.id} is resolved.`]);
      expect((await findConversation(database.handle.db, conversation.id))?.status).toBe("resolved");
      expect(await run("resolve", conversation.id)).toBe(1);
      expect(stderr.join("")).toContain("was resolved already");
      expect(await run("reply", conversation.id, "Too late", "--json")).toBe(1);
      expect(JSON.parse(stderr.join("")).error).toMatch(
        /^Conversation \S+ was resolved at .+: the visitor starts a new request$/,
      );
      expect(await run("resolve", "nope")).toBe(1);
      expect(await run("conversations")).toBe(0);
      expect(stdout.join("\n")).not.toContain(conversation.id);
    });
  });
});
