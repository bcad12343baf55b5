// Issue 30 on the built server: with DISCORD_BOT_TOKEN the request gets its thread and the team's reply is stored once;
// with a token Discord refuses, one log line, /readyz stays 200 and requests still reach the channel one-way.
import { expect, test } from "@playwright/test";
import { openDatabase } from "../../db/client";
import { startChatWebhookReceiver } from "../fakes/chat-webhook-receiver";
import { startDiscordEmulator } from "../fakes/discord-emulator";
import { makeDataDir, startAppServer } from "../support/app-server";
import { solveCaptchaPayload } from "../support/captcha-solver";
import { secretsInLog } from "../support/server-log";

async function sendRequest(url: string, answers: string[]) {
  const altcha = await solveCaptchaPayload(await (await fetch(`${url}/api/captcha/challenge`)).json());
  const accepted = await fetch(`${url}/api/support`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ category: "Key Reset", answers, altcha }),
  });
  expect(accepted.status).toBe(202);
  return (await accepted.json()) as { id: string; conversation: { id: string } };
}

test("a request gets its thread from the bot, and the team's reply in it is stored once", async () => {
  const emulator = await startDiscordEmulator();
  const channelId = emulator.addChannel({ kind: "text" });
  const dataDir = makeDataDir();
  const server = await startAppServer({
    dataDir,
    env: {
      DISCORD_BOT_TOKEN: emulator.token,
      DISCORD_SUPPORT_CHANNEL_ID: channelId,
      DISCORD_API_BASE: emulator.apiBase,
    },
  });
  const handle = openDatabase({ dataDir });
  try {
    const { conversation } = await sendRequest(server.url, ["Kestrel Vault", "New PC", "me@example.com"]);
    await expect.poll(() => emulator.threadsOf(channelId).length, { timeout: 15_000 }).toBe(1);
    const threadId = emulator.threadsOf(channelId)[0]?.id ?? "";
    emulator.postAsTeam(threadId, "Done, your key is reset.", { author: { globalName: "Dana" } });
    emulator.postNote(threadId, "refunded nothing");
    const teamRows = () =>
      handle.db
        .selectFrom("support_conversation_messages")
        .select(["author_name", "body"])
        .where("conversation_id", "=", conversation.id)
        .where("author", "=", "team")
        .execute();
    await expect
      .poll(teamRows, { timeout: 15_000 })
      .toEqual([{ author_name: "Dana", body: "Done, your key is reset." }]);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    expect(secretsInLog(server.logs(), [emulator.token])).toEqual([]);
  } finally {
    await handle.close();
    await server.kill();
    await emulator.close();
  }
});

test("a token Discord refuses: one log line, /readyz stays 200, requests reach the webhook one-way", async () => {
  const emulator = await startDiscordEmulator();
  const receiver = await startChatWebhookReceiver();
  const channelId = emulator.addChannel({ kind: "text" });
  const server = await startAppServer({
    env: {
      DISCORD_BOT_TOKEN: "refused.token-value-1234",
      DISCORD_SUPPORT_CHANNEL_ID: channelId,
      DISCORD_API_BASE: emulator.apiBase,
      SUPPORT_WEBHOOK_URL: receiver.url,
      LOG_LEVEL: "info",
    },
  });
  try {
    await sendRequest(server.url, ["Kestrel Vault", "New PC", "me@example.com"]);
    await sendRequest(server.url, ["Kestrel Vault", "Old PC", "me@example.com"]);
    await receiver.waitForDelivered(2);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const refusals = server
      .logs()
      .split("\n")
      .filter((line) => line.includes("Discord refused the token"));
    expect(refusals).toHaveLength(1);
    expect(secretsInLog(server.logs(), ["refused.token-value-1234"])).toEqual([]);
  } finally {
    await server.kill();
    await receiver.close();
    await emulator.close();
  }
});
