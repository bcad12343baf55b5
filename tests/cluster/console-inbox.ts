// Scenario k: the support inbox across instances (issue 35). A visitor's stream is on instance 2 and an agent's inbox
// feed on instance 1; the agent replies from the console on instance 0. The reply reaches the visitor's stream once,
// the inbox feed names the conversation, and the bot posts it in the request's thread once, under the agent's name.
import crypto from "node:crypto";
import type pg from "pg";
import type { DiscordEmulator } from "../fakes/discord-emulator";
import { openEventStream } from "../support/event-stream";
import { staffSessionHash } from "../support/staff-sessions";
import { openConversationThroughApi } from "../support/support-conversation-client";
import { type Checks, type Cluster, clientAddresses, sleep, waitFor } from "./cluster";
import { Visitor } from "./support-conversations";

export async function consoleInboxAcrossInstances(opts: {
  cluster: Cluster;
  balancer: string;
  db: pg.Client;
  emulator: DiscordEmulator;
  checks: Checks;
}) {
  const { cluster, balancer, db, emulator, checks } = opts;
  const started = Date.now();
  const client = clientAddresses()();
  const run = crypto.randomUUID().slice(0, 8);
  const email = `agent-${run}@example.com`;
  const name = `agent-${run}`;

  // A signed-in support person, as a passkey sign-in leaves them (the door itself is scenario j).
  const staffId = crypto.randomUUID();
  const token = crypto.randomBytes(32).toString("base64url");
  const now = new Date();
  await db.query(
    "INSERT INTO staff (id, email, role, webauthn_user_id, created_at) VALUES ($1, $2, 'support', $3, $4)",
    [staffId, email, crypto.randomBytes(16).toString("base64url"), now.toISOString()],
  );
  await db.query(
    "INSERT INTO staff_sessions (id_hash, staff_id, began_with, created_at, last_seen_at, expires_at) VALUES ($1, $2, 'passkey', $3, $3, $4)",
    [staffSessionHash(token), staffId, now.toISOString(), new Date(now.getTime() + 3_600_000).toISOString()],
  );
  const cookie = `kestrel-staff=${token}`;

  const opened = await openConversationThroughApi(balancer, { client });
  const visitor = new Visitor(opened.conversationId, opened.cookie, client, balancer);
  const inbox = await openEventStream(`${cluster.url(1)}/api/admin/support/events`, { cookie });
  try {
    await visitor.connect(cluster.url(2));
    checks.that(inbox.status === 200, `k: the inbox feed answered ${inbox.status}`);
    const threadId = await waitFor(
      async () =>
        ((await db.query("SELECT thread_id FROM support_conversations WHERE id = $1", [opened.conversationId])).rows[0]
          ?.thread_id as string | null) ?? undefined,
      60_000,
      "the request's thread",
      200,
    );

    const body = `Console reply ${run}`;
    const sentAt = performance.now();
    const answer = await fetch(`${cluster.url(0)}/admin/support/${opened.conversationId}`, {
      method: "POST",
      headers: {
        cookie,
        origin: cluster.url(0),
        "content-type": "application/x-www-form-urlencoded",
        "x-forwarded-for": client,
      },
      body: new URLSearchParams({ intent: "reply", message: body }).toString(),
      redirect: "manual",
      signal: AbortSignal.timeout(30_000),
    });
    checks.that(answer.status === 303, `k: the console's reply answered ${answer.status}`);
    await waitFor(
      () => (visitor.received.some((m) => m.body === body) ? true : undefined),
      10_000,
      "the console's reply on the visitor's stream",
      5,
    );
    const toVisitorMs = performance.now() - sentAt;
    const feedEvent = await inbox.waitFor(
      (event) => event.event === "changed" && event.data === opened.conversationId,
      10_000,
    );
    checks.that(feedEvent !== undefined, "k: the inbox feed on instance 1 named the conversation");
    const inThread = () =>
      // The name as typed, Markdown escaped (`agent\-…`) so Discord shows it as it is.
      emulator.messagesOf(threadId).filter((m) => m.content === `**${name.replace("-", "\\-")}** (console): ${body}`)
        .length;
    await waitFor(() => (inThread() > 0 ? true : undefined), 20_000, "the reply in the thread", 50).catch((error) => {
      console.log(`k: the thread holds ${JSON.stringify(emulator.messagesOf(threadId).map((m) => m.content))}`);
      throw error;
    });
    const toThreadMs = performance.now() - sentAt;
    // Every instance's poster had its chance at it: still one post, and one copy on the stream.
    await sleep(3_000);
    const onStream = visitor.received.filter((m) => m.body === body).length;
    checks.that(onStream === 1, `k: the reply reached the visitor's stream ${onStream} times`);
    checks.that(inThread() === 1, `k: the reply was posted in the thread ${inThread()} times`);
    console.log(
      `k. console reply across instances: written on instance 0, on the visitor's stream on instance 2 after ${toVisitorMs.toFixed(0)} ms (${onStream}×), in the inbox feed on instance 1, in the Discord thread after ${toThreadMs.toFixed(0)} ms (${inThread()}×); ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    inbox.close();
    visitor.close();
  }
}
