import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  appendConversationMessage,
  conversationMessages,
  findConversationByLinkKey,
  findConversationByToken,
  hashConversationToken,
  issueConversationKey,
  latestSeqs,
  markVisitorPresent,
  openConversation,
  resolveConversation,
} from "~/features/support-conversation/conversation-store.server";
import { questionnaireLines, visitorEmailFrom } from "~/features/support-conversation/support-conversation.server";
import { createTestDatabase, type TestDatabase, testDialects } from "../support/databases";

const dialects = await testDialects();

describe.each(dialects)("support conversations in the database (%s)", (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database?.drop();
  });

  async function open(answers = ["Kestrel Studio", "New laptop", "visitor@example.com"]) {
    return openConversation(database.handle.db, {
      requestId: crypto.randomUUID(),
      category: "Key Reset",
      locale: "de",
      visitorEmail: visitorEmailFrom(answers),
      lines: questionnaireLines("Key Reset", answers),
    });
  }

  it("opens with the questionnaire as its first lines, and is found by its keys' hashes only", async () => {
    const { conversation, token, linkKey } = await open();
    expect(conversation.visitor_email).toBe("visitor@example.com");
    const lines = await conversationMessages(database.handle.db, conversation.id);
    expect(lines.map((m) => [m.seq, m.author])).toEqual([
      [1, "system"],
      [2, "visitor"],
      [3, "system"],
      [4, "visitor"],
      [5, "system"],
      [6, "visitor"],
      [7, "system"],
      [8, "visitor"],
      [9, "system"],
    ]);
    expect(lines[1]?.body).toBe("Key Reset");
    expect(lines[8]?.body).toMatch(/^Thank you! Your key reset request has been submitted/);
    expect((await findConversationByToken(database.handle.db, token))?.id).toBe(conversation.id);
    expect((await findConversationByLinkKey(database.handle.db, linkKey))?.id).toBe(conversation.id);
    // Each key opens only what it was made for, and nothing stores a key itself.
    expect(await findConversationByToken(database.handle.db, linkKey)).toBeUndefined();
    expect(await findConversationByLinkKey(database.handle.db, token)).toBeUndefined();
    expect(await findConversationByToken(database.handle.db, "not a key")).toBeUndefined();
    const keys = await database.handle.db.selectFrom("support_conversation_keys").selectAll().execute();
    expect(JSON.stringify(keys)).not.toContain(token);
    expect(keys.map((k) => k.key_hash)).toContain(hashConversationToken(token));
    const another = await issueConversationKey(database.handle.db, conversation.id, "browser");
    expect((await findConversationByToken(database.handle.db, another))?.id).toBe(conversation.id);
  });

  it("keeps a chat username out of the address a mail could go to", async () => {
    const { conversation } = await open(["Kestrel Studio", "New laptop", "@kestrel_fan"]);
    expect(conversation.visitor_email).toBeNull();
  });

  it("numbers messages without gaps or repeats when writers race, and relays a Discord message once", async () => {
    const { conversation } = await open();
    const second = database.open();
    const writes = Array.from({ length: 12 }, (_, i) =>
      appendConversationMessage(i % 2 ? second.db : database.handle.db, conversation.id, {
        author: i % 3 ? "team" : "visitor",
        body: `message ${i}`,
        authorName: "Ada",
      }),
    );
    await Promise.all(writes);
    const all = await conversationMessages(database.handle.db, conversation.id);
    expect(all.map((m) => m.seq)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    expect(new Set(all.map((m) => m.body)).size).toBe(21);
    const relayed = await appendConversationMessage(database.handle.db, conversation.id, {
      author: "team",
      body: "Done",
      discordMessageId: "1234567890",
    });
    const again = await appendConversationMessage(database.handle.db, conversation.id, {
      author: "team",
      body: "Done",
      discordMessageId: "1234567890",
    });
    expect(relayed?.seq).toBe(22);
    expect(again).toBeUndefined();
    expect((await conversationMessages(database.handle.db, conversation.id, 21)).map((m) => m.body)).toEqual(["Done"]);
    expect((await latestSeqs(database.handle.db, [conversation.id])).get(conversation.id)).toBe(22);
  });

  it("records what the visitor saw, never backwards, and resolves once", async () => {
    const { conversation } = await open();
    await markVisitorPresent(database.handle.db, conversation.id, 12);
    await markVisitorPresent(database.handle.db, conversation.id, 10);
    const row = await database.handle.db
      .selectFrom("support_conversations")
      .select(["visitor_seen_seq", "status"])
      .where("id", "=", conversation.id)
      .executeTakeFirstOrThrow();
    expect(Number(row.visitor_seen_seq)).toBe(12);
    expect(await resolveConversation(database.handle.db, conversation.id)).toBe(true);
    expect(await resolveConversation(database.handle.db, conversation.id)).toBe(false);
  });
});
