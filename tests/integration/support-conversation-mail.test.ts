import { sql } from "kysely";
import type { AnyLocale } from "~/features/i18n/locales";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { startMailDelivery } from "~/features/mail/mail.server";
import { mailUnseenReplies, startUnseenReplyMailer } from "~/features/support-conversation/conversation-mail.server";
import {
  findConversationByLinkKey,
  markVisitorPresent,
} from "~/features/support-conversation/conversation-store.server";
import { addTeamReply } from "~/features/support-conversation/support-conversation.server";
import { acceptSupportRequest } from "~/features/support-relay/support-relay.server";
import { closeDatabase, getDb, initDatabase } from "~/platform/db.server";
import { parseEnv, resetEnvForTests } from "~/platform/env.server";
import { configureLogger } from "~/platform/logger.server";
import { type ReceivedMail, type SmtpReceiver, startSmtpReceiver } from "../fakes/smtp-receiver";
import { makeDataDir } from "../support/app-server";
import { createTestDatabase, type TestDatabase, testDialects } from "../support/databases";

const dialects = await testDialects();
const ORIGIN = "http://shop.test";
const MINUTE = 60_000;

/** The `?key=` of the private link in a mail's text. */
function linkKeyIn(text: string): string {
  return /\/support\/conversation\?key=([\w-]{43})/.exec(text)?.[1] ?? "";
}

// The conversation's mail through the real outbox and a real SMTP server on 127.0.0.1, on both databases.
describe.each(dialects)("support conversation mail on %s", (dialect) => {
  let database: TestDatabase;
  let receiver: SmtpReceiver;
  let stopMail: () => Promise<void>;
  const db = () => getDb().db;

  /** A Key Reset request whose last answer is `contact`, stored as the API stores it. */
  const request = (contact: string, locale: AnyLocale = "en") =>
    acceptSupportRequest({ category: "Key Reset", answers: ["Kestrel Vault", "New PC", contact], locale });

  const mailTo = (to: string, kind?: string) =>
    db()
      .selectFrom("mail_outbox")
      .selectAll()
      .where("to_address", "=", to)
      .$if(kind !== undefined, (q) => q.where("kind", "=", kind ?? ""))
      .execute();

  async function received(to: string, count: number): Promise<ReceivedMail[]> {
    let mails: ReceivedMail[] = [];
    await vi.waitFor(
      () => {
        mails = receiver.received.filter((m) => m.rcptTo.includes(to));
        expect(mails).toHaveLength(count);
      },
      { timeout: 10_000 },
    );
    return mails;
  }

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    receiver = await startSmtpReceiver();
    resetEnvForTests(
      parseEnv({
        DATA_DIR: dialect === "sqlite" ? database.dataDir : makeDataDir("kestrel-conversation-mail-"),
        DATABASE_URL: database.url ?? "",
        PUBLIC_URL: ORIGIN,
        SMTP_URL: receiver.url,
        MAIL_FROM: "Kestrel Software <shop@example.com>",
        LOG_LEVEL: "silent",
      }),
    );
    configureLogger();
    await initDatabase(async () => {});
    stopMail = startMailDelivery();
  });
  afterAll(async () => {
    await stopMail();
    await closeDatabase();
    resetEnvForTests(undefined);
    await receiver.close();
    await database.drop();
  });
  beforeEach(() => {
    receiver.received.length = 0;
  });

  it("mails the private link in the visitor's language when the last answer is an email address", async () => {
    const accepted = await request("Link.Mail@Example.com", "de");
    const [mail] = await received("link.mail@example.com", 1);
    expect(mail?.subject).toBe("Ihre Support-Anfrage: Schlüssel-Reset");
    expect(mail?.text).toContain("Unser Team antwortet in der Unterhaltung.");
    expect(mail?.text).toContain(`${ORIGIN}/de/support/conversation?key=`);
    // The mailed key opens this conversation, and it is the link the visitor got in the closing message.
    expect(linkKeyIn(mail?.text ?? "")).toBe(accepted.linkKey);
    expect((await findConversationByLinkKey(db(), linkKeyIn(mail?.text ?? "")))?.id).toBe(accepted.conversation.id);
    // The browser key (the cookie's value) never travels by mail.
    expect(mail?.raw).not.toContain(accepted.token);
  });

  it("mails nothing when the last answer is a chat username", async () => {
    const linkMails = async () =>
      (await db().selectFrom("mail_outbox").select("id").where("kind", "=", "support-link").execute()).length;
    const before = await linkMails();
    const accepted = await request("@kestrel_fan");
    expect(accepted.conversation.visitor_email).toBeNull();
    expect(await linkMails()).toBe(before);
  });

  it("accepts the request even when its link mail cannot be queued (logged, never thrown)", async () => {
    // The outbox table gone for a moment: the mail's insert fails for real, after the request committed.
    await sql`ALTER TABLE mail_outbox RENAME TO mail_outbox_away`.execute(db());
    try {
      const accepted = await request("unqueued@example.com");
      expect(accepted.request.id).toBeTruthy();
      const stored = await db()
        .selectFrom("support_conversations")
        .select("request_id")
        .where("id", "=", accepted.conversation.id)
        .executeTakeFirst();
      expect(stored?.request_id).toBe(accepted.request.id);
    } finally {
      await sql`ALTER TABLE mail_outbox_away RENAME TO mail_outbox`.execute(db());
    }
    expect(await mailTo("unqueued@example.com")).toEqual([]);
  });

  it("mails unseen team replies once, several in one mail, in German for a de conversation", async () => {
    const accepted = await request("wieder@example.com", "de");
    await received("wieder@example.com", 1);
    receiver.received.length = 0;
    const id = accepted.conversation.id;
    const now = new Date();
    await addTeamReply(
      db(),
      id,
      { authorName: "Ada", body: "Ihr Schlüssel ist zurückgesetzt." },
      new Date(+now - 3 * MINUTE),
    );
    await addTeamReply(db(), id, { authorName: "Grace", body: "Bitte neu starten." }, new Date(+now - 30_000));

    expect(await mailUnseenReplies(db(), { now })).toBe(1);
    expect(await mailUnseenReplies(db(), { now: new Date(+now + 5 * MINUTE) })).toBe(0);

    const [mail] = await received("wieder@example.com", 1);
    expect(mail?.subject).toBe("Neue Antwort auf Ihre Support-Anfrage");
    const text = mail?.text ?? "";
    expect(text).toContain("Unser Team hat auf Ihre Support-Anfrage geantwortet.");
    expect(text).toMatch(/Ada · .+\nIhr Schlüssel ist zurückgesetzt\./);
    expect(text).toMatch(/Grace · .+\nBitte neu starten\./);
    expect(text.indexOf("Ada ·")).toBeLessThan(text.indexOf("Grace ·"));
    // A fresh link key of its own (keys are kept hashed), opening the same conversation.
    const key = linkKeyIn(text);
    expect(key).not.toBe(accepted.linkKey);
    expect((await findConversationByLinkKey(db(), key))?.id).toBe(id);
    expect(await mailTo("wieder@example.com", "support-reply")).toHaveLength(1);
    // Stays once: a later pass, long after, sends nothing more.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(receiver.received).toHaveLength(1);
  });

  it("waits until the oldest unseen reply is 2 minutes old", async () => {
    const accepted = await request("early@example.com");
    const now = new Date();
    await addTeamReply(db(), accepted.conversation.id, { authorName: "Ada", body: "Fresh." }, new Date(+now - 90_000));
    expect(await mailUnseenReplies(db(), { now })).toBe(0);
    expect(await mailUnseenReplies(db(), { now: new Date(+now + 31_000) })).toBe(1);
  });

  it("never mails a reply the visitor saw within 2 minutes, nor one of a conversation without an address", async () => {
    const seen = await request("seen@example.com");
    const now = new Date();
    const reply = await addTeamReply(
      db(),
      seen.conversation.id,
      { authorName: "Ada", body: "Seen in time." },
      new Date(+now - 3 * MINUTE),
    );
    await markVisitorPresent(db(), seen.conversation.id, Number(reply?.seq), new Date(+now - 2.5 * MINUTE));
    const anonymous = await request("@chat_user");
    await addTeamReply(db(), anonymous.conversation.id, { authorName: "Ada", body: "Hi" }, new Date(+now - 3 * MINUTE));

    expect(await mailUnseenReplies(db(), { now: new Date(+now + 60 * MINUTE) })).toBe(0);
    expect(await mailTo("seen@example.com", "support-reply")).toEqual([]);
  });

  it("never lets two workers both send, with or without the lease", async () => {
    const now = new Date();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const accepted = await request(`race-${i}@example.com`);
      ids.push(accepted.conversation.id);
      await addTeamReply(
        db(),
        accepted.conversation.id,
        { authorName: "Ada", body: `Reply ${i}` },
        new Date(+now - 3 * MINUTE),
      );
    }
    // PostgreSQL: two handles are two instances racing on the same replies. SQLite serves one instance (embedded
    // mode), so its two passes race through that instance's one connection (node:sqlite blocks the thread on a lock,
    // so two connections in one process would only wait on each other).
    const other = dialect === "postgres" ? database.open() : getDb();
    try {
      const [a, b] = await Promise.all([mailUnseenReplies(db(), { now }), mailUnseenReplies(other.db, { now })]);
      expect(a + b).toBe(6);
      const replies = await db()
        .selectFrom("mail_outbox")
        .select("to_address")
        .where("kind", "=", "support-reply")
        .where("to_address", "like", "race-%")
        .execute();
      expect(replies.map((m) => m.to_address).sort()).toEqual(ids.map((_, i) => `race-${i}@example.com`).sort());

      // With the lease, only one of two mailers works at a time.
      const accepted = await request("lease@example.com");
      await addTeamReply(
        db(),
        accepted.conversation.id,
        { authorName: "Ada", body: "Lease" },
        new Date(+now - 3 * MINUTE),
      );
      const first = startUnseenReplyMailer({ db: db(), afterMs: 2 * MINUTE, intervalMs: 60 * MINUTE });
      const second = startUnseenReplyMailer({ db: other.db, afterMs: 2 * MINUTE, intervalMs: 60 * MINUTE });
      try {
        expect(await first.runOnce()).toBe(1);
        expect(await second.runOnce()).toBe(0);
        await addTeamReply(
          db(),
          accepted.conversation.id,
          { authorName: "Ada", body: "Again" },
          new Date(+now - 3 * MINUTE),
        );
        expect(await second.runOnce()).toBe(0);
        expect(await first.runOnce()).toBe(1);
      } finally {
        await first.stop();
        await second.stop();
      }
      expect(await mailTo("lease@example.com", "support-reply")).toHaveLength(2);
    } finally {
      if (dialect === "postgres") await other.close().catch(() => {});
    }
  });
});
