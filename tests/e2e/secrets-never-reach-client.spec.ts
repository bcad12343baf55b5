import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { SECRET_ENV_NAMES } from "../../app/platform/env.server";
import { type AppServer, startAppServer } from "../support/app-server";
import { allPagePaths } from "../support/site-routes";
import { builtWithSentinels, SECRET_SENTINELS, SENTINEL_COMPANIONS } from "../support/secret-sentinels";
import { secretsInLog } from "../support/server-log";

// Configured secrets are recognisable sentinels; neither they nor the names of secret variables may show up in the
// built client assets, any rendered page, its client-navigation data or a public API answer.
// Built with the secrets in the environment, so anything that inlines env values at build time is caught: `npm test`
// makes its one build that way; run on its own, this file builds its own.
const sharedBuild = process.env.BUILD_DIR ?? "build";
const reuseBuild = builtWithSentinels(sharedBuild);
const buildDir = reuseBuild ? sharedBuild : `build-secrets-check-${process.pid}`;

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
}

function leaksIn(text: string): string[] {
  const found = Object.entries(SECRET_SENTINELS)
    .filter(([, value]) => text.includes(value) || text.includes(encodeURIComponent(value)))
    .map(([name]) => `value of ${name}`);
  return [...found, ...SECRET_ENV_NAMES.filter((name) => text.includes(name)).map((name) => `name ${name}`)];
}

let server: AppServer;
test.describe.configure({ mode: "serial" });
test.beforeAll(async () => {
  test.setTimeout(120_000);
  if (!reuseBuild) {
    const build = spawnSync("node_modules/.bin/react-router", ["build"], {
      env: { ...process.env, ...SECRET_SENTINELS, ...SENTINEL_COMPANIONS, BUILD_DIR: buildDir },
      encoding: "utf8",
    });
    if (build.status !== 0) throw new Error(`build failed:\n${build.stdout}\n${build.stderr}`);
  }
  server = await startAppServer({
    env: { ...SECRET_SENTINELS, ...SENTINEL_COMPANIONS, BUILD_DIR: buildDir, LOG_LEVEL: "warn" },
  });
});
test.afterAll(async () => {
  await server?.stop();
  if (!reuseBuild) fs.rmSync(buildDir, { recursive: true, force: true });
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
  // Some 240 server renders: more than 30 s on a 2-core machine under load, even four at a time.
  test.setTimeout(120_000);
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
  // A few requests at a time: some 240 answers, each checked whole.
  const pending = [...urls];
  const fetchNext = async () => {
    for (let url = pending.shift(); url !== undefined; url = pending.shift()) {
      const res = await fetch(server.url + url);
      for (const leak of leaksIn(await res.text())) leaks.push(`${url}: ${leak}`);
      for (const [name, value] of res.headers)
        for (const leak of leaksIn(value)) leaks.push(`${url} header ${name}: ${leak}`);
    }
  };
  await Promise.all(Array.from({ length: 4 }, fetchNext));
  expect(leaks.sort()).toEqual([]);
});

test("the server log never prints a secret value", async () => {
  await fetch(`${server.url}/api/support`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}",
  });
  expect(secretsInLog(server.logs(), SECRET_SENTINELS)).toEqual([]);
});
