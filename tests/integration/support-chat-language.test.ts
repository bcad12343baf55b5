import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { supportRequestSchema } from "~/features/support-chat/support-chat";
import { deliverDueSupportRequests } from "~/features/support-relay/delivery-worker.server";
import { findSupportRequest, insertSupportRequest } from "~/features/support-relay/support-outbox.server";
import { type ChatWebhookReceiver, startChatWebhookReceiver } from "../fakes/chat-webhook-receiver";
import { createTestDatabase, type TestDatabase, testDialects } from "../support/databases";

const dialects = await testDialects();

// A visitor on /de/… is asked in German; the team reads the request in the shop's language, told which one to answer in.
describe.each(dialects)("a chat in another language reaching the channel, on %s", (dialect) => {
  let database: TestDatabase;
  let receiver: ChatWebhookReceiver;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database.drop();
  });
  beforeEach(async () => {
    await database.handle.db.deleteFrom("support_requests").execute();
    receiver = await startChatWebhookReceiver();
  });
  afterEach(async () => {
    await receiver.close();
  });

  /** What POST /api/support does with a body: the same schema, then the outbox. */
  async function accept(body: unknown) {
    const input = supportRequestSchema.parse(body);
    return insertSupportRequest(database.handle.db, input, { channelConfigured: true });
  }

  const deliver = () =>
    deliverDueSupportRequests({ db: database.handle.db, dialect, webhookUrl: receiver.url, timeoutMs: 2_000 });

  it("arrives in English, names German (de) in a field (the description stays the seed's), and carries the answers as typed", async () => {
    const answers = ["Kestrel Vault", "Neuer Rechner – „Lizenz ungültig“", "ich@example.de"];
    const request = await accept({ category: "Key Reset", locale: "de", answers, altcha: "checked by the API" });
    expect((await findSupportRequest(database.handle.db, request.id))?.locale).toBe("de");
    expect((await deliver()).delivered).toEqual([request.id]);
    const [received] = receiver.requests;
    expect(received?.problems).toEqual([]);
    expect(received?.body).toEqual({
      content: "New Key Reset Request",
      embeds: [
        {
          title: "Support Request - Key Reset",
          fields: [{ name: "Language", value: "German (de)", inline: true }],
          description: [
            "**Which product key needs to be reset?**\nKestrel Vault",
            "**What is the reason for the reset?**\nNeuer Rechner – „Lizenz ungültig“",
            "**What is your email address or chat username, so we can reach you?**\nich@example.de",
          ].join("\n\n"),
          color: 5793266,
          timestamp: request.createdAt,
          footer: { text: `Request ID: ${request.id}` },
        },
      ],
      allowed_mentions: { parse: [] },
    });
  });

  it("names Arabic (ar) for a right-to-left chat, answers untouched", async () => {
    const answers = ["Kestrel Vault", "لا يعمل البرنامج", "ما زال لا يعمل", "me@example.com"];
    await accept({ category: "Product Support", locale: "ar", answers, altcha: "x" });
    await deliver();
    const embed = receiver.requests[0]?.body.embeds?.[0];
    expect(embed?.fields).toEqual([{ name: "Language", value: "Arabic (ar)", inline: true }]);
    const description = embed?.description ?? "";
    expect(description).toMatch(/^\*\*Which product are you having issues with\?\*\*\n/);
    expect(description).toContain("**Please describe the issue you are experiencing.**\nلا يعمل البرنامج");
  });

  it("delivers a request from a client that sends no language exactly as before", async () => {
    const answers = ["Kestrel Vault", "New PC", "me@example.com"];
    const request = await accept({ category: "Key Reset", answers, altcha: "x" });
    expect((await findSupportRequest(database.handle.db, request.id))?.locale).toBeNull();
    await deliver();
    expect(receiver.requests[0]?.body.embeds?.[0]?.description).toBe(
      "**Which product key needs to be reset?**\nKestrel Vault\n\n**What is the reason for the reset?**\nNew PC\n\n**What is your email address or chat username, so we can reach you?**\nme@example.com",
    );
  });
});
