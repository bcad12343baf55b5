import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { SECRET_ENV_NAMES } from "../../app/platform/env.server";
import { type AppServer, startAppServer } from "../support/app-server";
import { allPagePaths } from "../support/site-routes";

// Configured secrets are recognisable sentinels; neither they nor the names of secret variables may show up in the
// built client assets, any rendered page, its client-navigation data or a public API answer.
const SECRET_VALUES: Record<string, string> = {
  SHOP_API_KEY: "sk_live_SENTINEL_api_key_5f1c9e",
  SHOP_WEBHOOK_SECRET: "whsec_SENTINEL_webhook_7a2b4d",
  ALTCHA_HMAC_KEY: "SENTINEL_altcha_hmac_3e8f0a",
  SUPPORT_WEBHOOK_URL: "http://127.0.0.1:9/api/webhooks/123/SENTINEL_support_token_9c4d1b",
  DISCORD_BOT_TOKEN: "SENTINEL.discord-bot.token_4b8e2f",
};
// Not secrets, but the bot's token is only accepted with its channel.
const OTHER_VALUES = { DISCORD_SUPPORT_CHANNEL_ID: "1234567890123456789" };
// Built here, with the secrets in the environment, so anything that inlines env values at build time is caught.
const buildDir = `build-secrets-check-${process.pid}`;

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
}

function leaksIn(text: string): string[] {
  const found = Object.entries(SECRET_VALUES)
    .filter(([, value]) => text.includes(value) || text.includes(encodeURIComponent(value)))
    .map(([name]) => `value of ${name}`);
  return [...found, ...SECRET_ENV_NAMES.filter((name) => text.includes(name)).map((name) => `name ${name}`)];
}

let server: AppServer;
test.describe.configure({ mode: "serial" });
test.beforeAll(async () => {
  test.setTimeout(120_000);
  const build = spawnSync("node_modules/.bin/react-router", ["build"], {
    env: { ...process.env, ...SECRET_VALUES, ...OTHER_VALUES, BUILD_DIR: buildDir },
    encoding: "utf8",
  });
  if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
  server = await startAppServer({ env: { ...SECRET_VALUES, ...OTHER_VALUES, BUILD_DIR: buildDir, LOG_LEVEL: "warn" } });
});
test.afterAll(async () => {
  await server?.stop();
  fs.rmSync(buildDir, { recursive: true, force: true });
});

test("no built client asset contains a secret value or a secret variable name", () => {
  const files = filesUnder(path.join(buildDir, "client"));
  expect(files.length).toBeGreaterThan(0);
  const leaks = files.flatMap((file) =>
    leaksIn(fs.readFileSync(file, "latin1")).map((leak) => `${path.relative(buildDir, file)}: ${leak}`),
  );
  expect(leaks).toEqual([]);
});

test("no rendered page, route data or public API answer contains a secret", async () => {
  const leaks: string[] = [];
  const urls = [
    ...allPagePaths().flatMap((p) => [p, `${p === "/" ? "/_root" : p}.data`]),
    "/api/status",
    "/api/reviews",
    "/api/checkout/challenge",
    "/api/captcha/challenge",
    "/sitemap.xml",
    "/robots.txt",
  ];
  for (const url of urls) {
    const res = await fetch(server.url + url);
    for (const leak of leaksIn(await res.text())) leaks.push(`${url}: ${leak}`);
    for (const [name, value] of res.headers)
      for (const leak of leaksIn(value)) leaks.push(`${url} header ${name}: ${leak}`);
  }
  expect(leaks).toEqual([]);
});

test("the server log never prints a secret value", async () => {
  await fetch(`${server.url}/api/support`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  const logs = server.logs();
  expect(
    Object.entries(SECRET_VALUES)
      .filter(([, value]) => logs.includes(value))
      .map(([name]) => name),
  ).toEqual([]);
});
