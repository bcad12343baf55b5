import fs from "node:fs";
import path from "node:path";

/** Recognisable values for every secret: none may show up in a build, a page, an API answer or a log. */
export const SECRET_SENTINELS: Record<string, string> = {
  SHOP_API_KEY: "sk_live_SENTINEL_api_key_5f1c9e",
  SHOP_WEBHOOK_SECRET: "whsec_SENTINEL_webhook_7a2b4d",
  ALTCHA_HMAC_KEY: "SENTINEL_altcha_hmac_3e8f0a",
  SUPPORT_WEBHOOK_URL: "http://127.0.0.1:9/api/webhooks/123/SENTINEL_support_token_9c4d1b",
  DISCORD_BOT_TOKEN: "SENTINEL.discord-bot.token_4b8e2f",
};
/** Not secrets, but the bot's token is only accepted with its channel. */
export const SENTINEL_COMPANIONS: Record<string, string> = { DISCORD_SUPPORT_CHANNEL_ID: "1234567890123456789" };

const MARKER = ".built-with-secret-sentinels";
const markerText = () => JSON.stringify({ ...SECRET_SENTINELS, ...SENTINEL_COMPANIONS });

/** `npm test` builds once with the sentinels in the environment and marks the build so (scripts/test.mjs). */
export function markBuiltWithSentinels(buildDir: string): void {
  fs.writeFileSync(path.join(buildDir, MARKER), markerText());
}

/** Whether `buildDir` was built with these sentinels in its environment. */
export function builtWithSentinels(buildDir: string): boolean {
  const marker = path.join(buildDir, MARKER);
  return fs.existsSync(marker) && fs.readFileSync(marker, "utf8") === markerText();
}
