// Run by scripts/lib/bench-delivery.mjs under tsx: the three outboxes' throughput against real peers on 127.0.0.1 (the
// chat webhook receiver, the SMTP receiver, the Discord emulator), on SQLite and PostgreSQL, one worker and three side
// by side. Prints items per second and checks that each item arrived exactly once. Figures only.
import crypto from "node:crypto";
import { recordConversationThread } from "../../app/features/support-relay/thread-relay-store.server.ts";
import { createDiscordBot } from "../../app/features/support-relay/discord-bot.server.ts";
import { deliverDueSupportRequests } from "../../app/features/support-relay/delivery-worker.server.ts";
import { insertSupportRequest } from "../../app/features/support-relay/support-outbox.server.ts";
import { postDueVisitorMessages } from "../../app/features/support-relay/thread-relay.server.ts";
import { insertMail } from "../../app/features/mail/mail-outbox.server.ts";
import { deliverDueMail } from "../../app/features/mail/mail-worker.server.ts";
import { createSmtpSender } from "../../app/features/mail/smtp.server.ts";
import {
  appendConversationMessage,
  openConversation,
} from "../../app/features/support-conversation/conversation-store.server.ts";
import { startChatWebhookReceiver } from "../../tests/fakes/chat-webhook-receiver.ts";
import { startDiscordEmulator } from "../../tests/fakes/discord-emulator.ts";
import { startSmtpReceiver } from "../../tests/fakes/smtp-receiver.ts";
import { createTestDatabase, isPostgresReachable } from "../../tests/support/databases.ts";
import pino from "pino";

const COUNT = Number(process.env.BENCH_DELIVERY_COUNT ?? 300);
const quiet = pino({ level: "silent" });

type Dialect = "sqlite" | "postgres";

function line(name: string, dialect: Dialect, workers: number, count: number, ms: number, arrived: number) {
  const rate = (count / ms) * 1000;
  console.log(
    `${name.padEnd(22)} ${dialect.padEnd(8)} ${String(workers).padStart(2)} worker(s)  ${String(count).padStart(5)} items  ${(ms / 1000).toFixed(2).padStart(6)} s  ${rate.toFixed(1).padStart(7)} /s  arrived ${arrived}${arrived === count ? "" : "  ← NOT EXACTLY ONCE"}`,
  );
}

async function supportOutbox(dialect: Dialect, workers: number) {
  const database = await createTestDatabase(dialect);
  const receiver = await startChatWebhookReceiver();
  try {
    const { db } = database.handle;
    for (let i = 0; i < COUNT; i++)
      await insertSupportRequest(
        db,
        { category: "Key Reset", answers: [`bench ${i}`, "a@example.com", "", "", ""] },
        { channelConfigured: true },
      );
    const started = performance.now();
    await Promise.all(
      Array.from({ length: workers }, (_, w) =>
        deliverDueSupportRequests({ db, dialect, webhookUrl: receiver.url, workerId: `bench-${w}` }),
      ),
    );
    line("support requests", dialect, workers, COUNT, performance.now() - started, receiver.delivered().length);
  } finally {
    await receiver.close();
    await database.drop();
  }
}

async function mailOutbox(dialect: Dialect, workers: number) {
  const database = await createTestDatabase(dialect);
  const smtp = await startSmtpReceiver();
  try {
    const { db } = database.handle;
    for (let i = 0; i < COUNT; i++)
      await insertMail(
        db,
        { kind: "sign-in-code", to: `buyer${i}@example.com`, subject: `Code ${i}`, text: `Your code ${i}` },
        { from: "Kestrel <shop@example.com>", deliver: true },
      );
    const sender = createSmtpSender(smtp.url);
    const started = performance.now();
    await Promise.all(
      Array.from({ length: workers }, (_, w) =>
        deliverDueMail({ db, dialect, sender, workerId: `bench-${w}`, log: quiet }),
      ),
    );
    line("mail", dialect, workers, COUNT, performance.now() - started, smtp.received.length);
  } finally {
    await smtp.close();
    await database.drop();
  }
}

async function visitorMessages(dialect: Dialect, workers: number) {
  const database = await createTestDatabase(dialect);
  const emulator = await startDiscordEmulator();
  try {
    const { db } = database.handle;
    const channelId = emulator.addChannel({ kind: "text" });
    const conversations = 30;
    // Whole messages per conversation, so exactly COUNT are written when COUNT is a multiple of 30.
    const perConversation = Math.ceil(COUNT / conversations);
    for (let c = 0; c < conversations; c++) {
      const { conversation } = await openConversation(db, {
        requestId: crypto.randomUUID(),
        category: "Key Reset",
        locale: "en",
        visitorEmail: null,
        lines: [],
      });
      const threadId = emulator.addThread(channelId, `bench ${c}`);
      await recordConversationThread(db, conversation.id, { channelId, threadId }, new Date());
      for (let m = 0; m < perConversation; m++)
        await appendConversationMessage(db, conversation.id, {
          author: "visitor",
          body: `message ${m}`,
          deliveryStatus: "pending",
        });
    }
    const bot = createDiscordBot({ token: emulator.token, apiBase: emulator.apiBase, supportChannelId: channelId });
    const before = emulator.requests.filter((r) => r.method === "POST").length;
    const started = performance.now();
    // Each pass posts what is due; a conversation's next message is due once its previous one is delivered.
    for (;;) {
      const passes = await Promise.all(
        Array.from({ length: workers }, (_, w) => postDueVisitorMessages({ db, dialect, bot, workerId: `bench-${w}` })),
      );
      if (passes.every((p) => p.delivered.length + p.retrying.length + p.failed.length === 0)) break;
    }
    const posted = emulator.requests.filter((r) => r.method === "POST" && r.status < 300).length - before;
    const stored = emulator.threadsOf(channelId).reduce((n, t) => n + emulator.messagesOf(t.id).length, 0);
    const written = perConversation * conversations;
    line("visitor messages", dialect, workers, written, performance.now() - started, Math.min(posted, stored));
  } finally {
    await emulator.close();
    await database.drop();
  }
}

console.log(`## Delivery throughput (${COUNT} items each)`);
const dialects: Dialect[] = (await isPostgresReachable()) ? ["sqlite", "postgres"] : ["sqlite"];
for (const dialect of dialects)
  for (const workers of dialect === "postgres" ? [1, 3] : [1]) {
    await supportOutbox(dialect, workers);
    await mailOutbox(dialect, workers);
    await visitorMessages(dialect, workers);
  }
process.exit(0);
