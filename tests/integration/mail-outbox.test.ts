import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { mailRetryDelayMs } from "~/features/mail/mail";
import {
  claimDueMail,
  findMail,
  getMailDeliveryState,
  insertMail,
  listKeptMail,
  listMail,
} from "~/features/mail/mail-outbox.server";
import { deliverDueMail, type MailWorkerOptions, startMailWorker } from "~/features/mail/mail-worker.server";
import { mailDeliveryState, queueMail, startMailDelivery } from "~/features/mail/mail.server";
import { createSmtpSender, type SmtpSender } from "~/features/mail/smtp.server";
import { closeDatabase, getDb, initDatabase } from "~/platform/db.server";
import { parseEnv, resetEnvForTests } from "~/platform/env.server";
import { hashIdentityForLog } from "~/platform/log-identity.server";
import { configureLogger, createLogger } from "~/platform/logger.server";
import { mailFailed, mailQueued, mailRetries, mailSent } from "~/platform/metrics.server";
import { type SmtpReceiver, startSmtpReceiver } from "../fakes/smtp-receiver";
import { makeDataDir } from "../support/app-server";
import { createTestDatabase, type TestDatabase, testDialects } from "../support/databases";

const dialects = await testDialects();
const FROM = "Kestrel Software <shop@example.com>";
const BUYER = "buyer@example.com";
const signInCode = {
  kind: "sign-in-code",
  to: BUYER,
  subject: "Your sign-in code — Kestrel",
  text: "Your code is 493201.\nIt works for 10 minutes.",
};

/** A pino logger whose lines the test reads back as JSON. */
function captureLog() {
  const lines: Array<Record<string, unknown>> = [];
  const raw: string[] = [];
  const log = createLogger("info", {
    write(line: string) {
      raw.push(line);
      lines.push(JSON.parse(line) as Record<string, unknown>);
    },
  });
  return { log, lines, text: () => raw.join("") };
}

describe.each(dialects)("mail outbox on %s", (dialect) => {
  let database: TestDatabase;
  let receiver: SmtpReceiver;
  let sender: SmtpSender;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database.drop();
  });
  beforeEach(async () => {
    await database.handle.db.deleteFrom("mail_outbox").execute();
    receiver = await startSmtpReceiver({ auth: { user: "kestrel", pass: "s3cret pass" } });
    sender = createSmtpSender(receiver.url, { timeoutMs: 2_000 });
  });
  afterEach(async () => {
    sender.close();
    await receiver.close();
  });

  const queue = (extra: Partial<Parameters<typeof insertMail>[2]> = {}, input = signInCode) =>
    insertMail(database.handle.db, input, { from: FROM, deliver: true, ...extra });
  const claimedBy = async (id: string) =>
    (await database.handle.db.selectFrom("mail_outbox").select("claimed_by").where("id", "=", id).executeTakeFirst())
      ?.claimed_by;
  const options = (extra: Partial<MailWorkerOptions> = {}): MailWorkerOptions => ({
    db: database.handle.db,
    dialect,
    sender,
    random: () => 0.5,
    log: captureLog().log,
    ...extra,
  });

  it("sends a queued mail once with the right from, to, subject and text, and marks it sent", async () => {
    const mail = await queue();
    expect(mail).toMatchObject({ status: "pending", attempts: 0, from: FROM, to: BUYER });
    const pass = await deliverDueMail(options());
    expect(pass.sent).toEqual([mail.id]);
    expect(receiver.received).toHaveLength(1);
    const [received] = receiver.received;
    expect(received).toMatchObject({
      mailFrom: "shop@example.com",
      rcptTo: [BUYER],
      subject: signInCode.subject,
      text: signInCode.text,
      messageId: mail.messageId,
    });
    expect(received?.headers.get("from")).toBe(FROM);
    expect(received?.headers.get("to")).toBe(BUYER);
    expect(mail.messageId).toBe(`<${mail.id}@example.com>`);
    const stored = await findMail(database.handle.db, mail.id);
    expect(stored).toMatchObject({ status: "sent", attempts: 1, lastError: null });
    expect(stored?.sentAt).not.toBeNull();
    expect(await deliverDueMail(options())).toMatchObject({ sent: [], retrying: [], failed: [] });
    expect(receiver.received).toHaveLength(1);
  });

  it("tells a caller whether a mail was sent, without its text", async () => {
    const mail = await queue();
    expect(await getMailDeliveryState(database.handle.db, mail.id)).toEqual({
      id: mail.id,
      kind: "sign-in-code",
      status: "pending",
      createdAt: mail.createdAt,
      sendBy: null,
      attempts: 0,
      lastError: null,
      sentAt: null,
    });
    await deliverDueMail(options());
    expect(await getMailDeliveryState(database.handle.db, mail.id)).toMatchObject({ status: "sent", attempts: 1 });
    expect(await getMailDeliveryState(database.handle.db, "no-such-mail")).toBeUndefined();
  });

  it("sends an HTML mail with its text part alongside", async () => {
    const mail = await queue({}, { ...signInCode, html: "<p>Your code is <b>493201</b>.</p>" } as typeof signInCode);
    expect((await deliverDueMail(options())).sent).toEqual([mail.id]);
    const [received] = receiver.received;
    expect(received?.headers.get("content-type")).toMatch(/^multipart\/alternative/);
    expect(received?.text).toBe(signInCode.text);
    expect(received?.raw).toContain("<b>493201</b>");
  });

  it("retries while the SMTP server is down, and sends the mail exactly once after it comes back", async () => {
    await receiver.close();
    const mail = await queue();
    const start = new Date();
    const first = await deliverDueMail(options({ now: () => start }));
    expect(first.retrying).toEqual([mail.id]);
    const waiting = await findMail(database.handle.db, mail.id);
    expect(waiting).toMatchObject({ status: "pending", attempts: 1, firstFailedAt: start.toISOString() });
    expect(waiting?.lastError).toMatch(/ECONNECTION|ECONNREFUSED|ESOCKET/);
    expect(Date.parse(waiting?.nextAttemptAt ?? "") - start.getTime()).toBe(mailRetryDelayMs(1, () => 0.5));
    // Not due yet: nothing is tried.
    expect(await deliverDueMail(options({ now: () => start }))).toMatchObject({ sent: [], retrying: [] });

    await receiver.start();
    const later = new Date(start.getTime() + 60_000);
    expect((await deliverDueMail(options({ now: () => later }))).sent).toEqual([mail.id]);
    expect((await deliverDueMail(options({ now: () => new Date(later.getTime() + 3_600_000) }))).sent).toEqual([]);
    expect(receiver.received.map((m) => m.messageId)).toEqual([mail.messageId]);
    expect(await findMail(database.handle.db, mail.id)).toMatchObject({ status: "sent", attempts: 2, lastError: null });
  });

  it("retries a server answering 4xx with growing waits until it accepts, and keeps addresses out of the error", async () => {
    const mail = await queue();
    receiver.refuse(
      { at: "rcpt", code: 451, message: `4.7.1 <${BUYER}>: Greylisted, try again later` },
      { at: "data", code: 452, message: "4.3.1 Insufficient system storage" },
    );
    const start = new Date();
    expect((await deliverDueMail(options({ now: () => start }))).retrying).toEqual([mail.id]);
    let stored = await findMail(database.handle.db, mail.id);
    expect(stored?.lastError).toContain("451");
    expect(stored?.lastError).toContain("[address]");
    expect(stored?.lastError).not.toContain(BUYER);
    const second = new Date(start.getTime() + 60_000);
    expect((await deliverDueMail(options({ now: () => second }))).retrying).toEqual([mail.id]);
    stored = await findMail(database.handle.db, mail.id);
    expect(stored?.lastError).toContain("452");
    expect(Date.parse(stored?.nextAttemptAt ?? "") - second.getTime()).toBe(mailRetryDelayMs(2, () => 0.5));
    expect(mailRetryDelayMs(2, () => 0.5)).toBeGreaterThan(mailRetryDelayMs(1, () => 0.5));
    const third = new Date(second.getTime() + 60_000);
    expect((await deliverDueMail(options({ now: () => third }))).sent).toEqual([mail.id]);
    expect(receiver.received).toHaveLength(1);
    expect(await findMail(database.handle.db, mail.id)).toMatchObject({ status: "sent", attempts: 3 });
  });

  it("gives up a mail the server refuses with a permanent 5xx: marked failed, one clear log line, never retried", async () => {
    const mail = await queue();
    receiver.refuse({ at: "rcpt", code: 550, message: `5.1.1 <${BUYER}>: Recipient address rejected` });
    const capture = captureLog();
    const start = new Date();
    expect((await deliverDueMail(options({ now: () => start, log: capture.log }))).failed).toEqual([mail.id]);
    const stored = await findMail(database.handle.db, mail.id);
    expect(stored).toMatchObject({ status: "failed", attempts: 1 });
    expect(stored?.lastError).toContain("550");
    expect(stored?.lastError).not.toContain(BUYER);
    const given = capture.lines.filter((l) => l.msg === "mail given up: the SMTP server refused it permanently");
    expect(given).toEqual([
      expect.objectContaining({
        level: 50,
        mailId: mail.id,
        kind: "sign-in-code",
        to: hashIdentityForLog(BUYER),
        responseCode: 550,
        attempt: 1,
      }),
    ]);
    // Nothing that could reveal the buyer or the code reaches the log.
    for (const secret of [BUYER, "buyer", "493201", "sign-in code —", "s3cret"])
      expect(capture.text()).not.toContain(secret);

    const dayLater = new Date(start.getTime() + 24 * 3_600_000);
    expect(await deliverDueMail(options({ now: () => dayLater }))).toMatchObject({
      sent: [],
      retrying: [],
      failed: [],
    });
    expect(receiver.received).toHaveLength(0);
    expect((await findMail(database.handle.db, mail.id))?.attempts).toBe(1);
  });

  it("keeps retrying while the server refuses the login, then gives up after a day of failures", async () => {
    const badLogin = createSmtpSender(receiver.url.replace("s3cret%20pass", "wrong"), { timeoutMs: 2_000 });
    const mail = await queue();
    const start = new Date();
    try {
      expect((await deliverDueMail(options({ sender: badLogin, now: () => start }))).retrying).toEqual([mail.id]);
      expect((await findMail(database.handle.db, mail.id))?.lastError).toMatch(/^EAUTH: .*535/);
      const dayLater = new Date(start.getTime() + 24 * 3_600_000 + 1);
      expect((await deliverDueMail(options({ sender: badLogin, now: () => dayLater }))).failed).toEqual([mail.id]);
    } finally {
      badLogin.close();
    }
    const stored = await findMail(database.handle.db, mail.id);
    expect(stored).toMatchObject({ status: "failed", attempts: 2 });
    expect(stored?.lastError).toMatch(/^failing since .*; last: EAUTH/);
  });

  it("gives up as expired a mail not sent by its send-by time, and never sends it late", async () => {
    await receiver.close();
    const start = new Date();
    const soon = await queue({ sendBy: new Date(start.getTime() + 30_000), now: start });
    const tight = await queue({ sendBy: new Date(start.getTime() + 1_000), now: start });
    const capture = captureLog();
    const first = await deliverDueMail(options({ now: () => start, log: capture.log }));
    // The next attempt could only come after its deadline: given up at once.
    expect(first).toMatchObject({ retrying: [soon.id], expired: [tight.id] });
    expect(await getMailDeliveryState(database.handle.db, tight.id)).toMatchObject({ status: "expired" });

    await receiver.start();
    const late = new Date(start.getTime() + 31_000);
    expect(await deliverDueMail(options({ now: () => late, log: capture.log }))).toMatchObject({
      sent: [],
      expired: [soon.id],
    });
    expect(await getMailDeliveryState(database.handle.db, soon.id)).toMatchObject({
      status: "expired",
      lastError: "not sent by its send-by time",
    });
    expect(receiver.received).toHaveLength(0);
    expect(capture.lines.filter((l) => l.msg === "mail given up: not sent by its send-by time")).toHaveLength(2);
  });

  it("leaves a mail another worker holds alone until that claim runs out (a crashed worker)", async () => {
    const mail = await queue();
    const start = new Date();
    await claimDueMail(database.handle.db, dialect, { workerId: "crashed", limit: 1, leaseMs: 60_000, now: start });
    expect((await deliverDueMail(options({ now: () => start }))).sent).toEqual([]);
    const afterLease = new Date(start.getTime() + 61_000);
    expect((await deliverDueMail(options({ now: () => afterLease }))).sent).toEqual([mail.id]);
    expect(receiver.received).toHaveLength(1);
  });

  it("never sends a mail twice when two workers with their own connections run side by side", async () => {
    const slow = await startSmtpReceiver({ dataDelayMs: 5 });
    const slowSender = createSmtpSender(slow.url, { timeoutMs: 5_000 });
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) ids.add((await queue({}, { ...signInCode, to: `buyer${i}@example.com` })).id);
    const second = database.open();
    try {
      const [a, b] = await Promise.all([
        deliverDueMail(options({ sender: slowSender, workerId: "a" })),
        deliverDueMail(options({ sender: slowSender, db: second.db, workerId: "b" })),
      ]);
      expect(new Set([...a.sent, ...b.sent])).toEqual(ids);
      expect(a.sent.length + b.sent.length).toBe(20);
      const messageIds = slow.received.map((m) => m.messageId);
      expect(messageIds).toHaveLength(20);
      expect(new Set(messageIds).size).toBe(20);
      expect((await listMail(database.handle.db, { status: "sent" })).length).toBe(20);
    } finally {
      if (dialect === "sqlite") await second.close();
      slowSender.close();
      await slow.close();
    }
  });

  it("runs as a background worker: a kick sends at once, stop() ends it and hands back nothing held", async () => {
    const worker = startMailWorker({ ...options({ workerId: "background" }), pollMs: 60_000 });
    try {
      const mail = await queue();
      worker.kick();
      await vi.waitFor(() => expect(receiver.received).toHaveLength(1), { timeout: 5_000 });
      await vi.waitFor(async () => expect((await findMail(database.handle.db, mail.id))?.status).toBe("sent"));
    } finally {
      await worker.stop();
    }
    const held = await database.handle.db
      .selectFrom("mail_outbox")
      .select("id")
      .where("claimed_by", "=", "background")
      .execute();
    expect(held).toEqual([]);
  });

  it("stop() cuts short a send that outlasts its grace and leaves its claim to run out, so no worker sends it at once", async () => {
    const stuck = await startSmtpReceiver({ dataDelayMs: 3_000 });
    const stuckSender = createSmtpSender(stuck.url, { timeoutMs: 10_000 });
    const mail = await queue();
    const worker = startMailWorker({
      ...options({ sender: stuckSender, workerId: "stopping" }),
      pollMs: 60_000,
      stopGraceMs: 200,
    });
    try {
      await vi.waitFor(async () => expect(await claimedBy(mail.id)).toBe("stopping"));
      // The mail's data is with the server, which takes 3 s to answer.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await worker.stop();
      expect(await claimedBy(mail.id)).toBe("stopping");
      expect(await findMail(database.handle.db, mail.id)).toMatchObject({ status: "pending", attempts: 0 });
      expect((await deliverDueMail(options())).sent).toEqual([]);
    } finally {
      stuckSender.close();
      await stuck.close();
    }
  });

  it("keeps mail in the database without an SMTP server: listed as kept, never sent", async () => {
    const kept = await insertMail(database.handle.db, signInCode, { from: FROM, deliver: false });
    const other = await insertMail(
      database.handle.db,
      { ...signInCode, to: "someone@example.com" },
      { from: FROM, deliver: false },
    );
    expect(kept.status).toBe("kept");
    expect(await deliverDueMail(options())).toMatchObject({ sent: [], retrying: [], failed: [] });
    expect(receiver.received).toHaveLength(0);
    expect((await listKeptMail(database.handle.db)).map((m) => m.id).sort()).toEqual([kept.id, other.id].sort());
    expect(await listKeptMail(database.handle.db, { to: "BUYER@example.com " })).toEqual([
      expect.objectContaining({ id: kept.id, subject: signInCode.subject, text: signInCode.text, status: "kept" }),
    ]);
    expect(await getMailDeliveryState(database.handle.db, kept.id)).toMatchObject({ status: "kept" });
  });

  it("refuses a mail with two recipients or a subject of two lines before storing anything", async () => {
    await expect(queue({}, { ...signInCode, to: "a@example.com, b@example.com" })).rejects.toThrow();
    await expect(queue({}, { ...signInCode, subject: "Hello\r\nBcc: everyone@example.com" })).rejects.toThrow();
    expect(await listMail(database.handle.db)).toEqual([]);
  });

  it("counts mail queued, sent, retried and failed", async () => {
    const count = async (
      metric: { get(): Promise<{ values: Array<{ value: number; labels: object }> }> },
      labels = {},
    ) =>
      (await metric.get()).values.find((v) => Object.entries(labels).every(([k, x]) => (v.labels as never)[k] === x))
        ?.value ?? 0;
    const read = () =>
      Promise.all([
        count(mailQueued, { mode: "smtp" }),
        count(mailQueued, { mode: "kept" }),
        count(mailSent),
        count(mailRetries),
        count(mailFailed, { reason: "rejected" }),
      ]);
    const before = await read();
    await queue();
    await queue();
    await insertMail(database.handle.db, signInCode, { from: FROM, deliver: false });
    receiver.refuse(
      { at: "rcpt", code: 451, message: "4.7.1 Try again later" },
      { at: "rcpt", code: 550, message: "5.1.1 No such user" },
    );
    const start = new Date();
    await deliverDueMail(options({ now: () => start }));
    await deliverDueMail(options({ now: () => new Date(start.getTime() + 60_000) }));
    const after = await read();
    expect(after.map((value, i) => value - (before[i] ?? 0))).toEqual([2, 1, 1, 1, 1]);
  });
});

describe("the running app's mail (queueMail, startMailDelivery)", () => {
  let receiver: SmtpReceiver;
  const useEnv = (env: Record<string, string>) => {
    resetEnvForTests(parseEnv({ DATA_DIR: makeDataDir("kestrel-mail-"), LOG_LEVEL: "silent", ...env }));
    configureLogger();
  };
  beforeAll(async () => {
    receiver = await startSmtpReceiver();
  });
  afterAll(async () => {
    await receiver.close();
  });
  afterEach(async () => {
    await closeDatabase();
    resetEnvForTests(undefined);
  });

  it("sends what a feature queues through SMTP_URL and tells the feature it was sent", async () => {
    useEnv({ SMTP_URL: receiver.url, MAIL_FROM: FROM });
    await initDatabase(async () => {});
    const stop = startMailDelivery();
    try {
      const queued = await queueMail(signInCode, { sendBy: new Date(Date.now() + 60_000) });
      expect(queued).toMatchObject({ kind: "sign-in-code", status: "pending", attempts: 0 });
      await vi.waitFor(async () => expect((await mailDeliveryState(queued.id))?.status).toBe("sent"), {
        timeout: 5_000,
      });
      expect(receiver.received.map((m) => [m.mailFrom, m.rcptTo, m.subject])).toEqual([
        ["shop@example.com", [BUYER], signInCode.subject],
      ]);
    } finally {
      await stop();
    }
  });

  it("keeps what a feature queues in the database when SMTP_URL is not set", async () => {
    useEnv({});
    await initDatabase(async () => {});
    const stop = startMailDelivery();
    try {
      const queued = await queueMail(signInCode);
      expect(queued.status).toBe("kept");
      expect(await mailDeliveryState(queued.id)).toMatchObject({ status: "kept" });
      expect((await listKeptMail(getDb().db, { to: BUYER })).map((m) => m.id)).toEqual([queued.id]);
    } finally {
      await stop();
    }
  });
});
