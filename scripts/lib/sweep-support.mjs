// Shared by scripts/sweeps/*: reuse (or make) the production build in BUILD_DIR and start a server on a free port.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { startAppServer } from "../../tests/support/app-server.ts";

export const BUILD_DIR = process.env.BUILD_DIR ?? "build";

/** `npm test` builds right before the sweeps; run on their own, the sweeps build once into BUILD_DIR. */
export function ensureBuild() {
  if (fs.existsSync(`${BUILD_DIR}/server/index.js`) && process.env.SWEEP_REBUILD !== "1") return;
  console.log(`building into ${BUILD_DIR}/ ...`);
  const run = spawnSync("node_modules/.bin/react-router", ["build"], {
    stdio: "inherit",
    env: { ...process.env, BUILD_DIR },
  });
  if (run.status !== 0) throw new Error("build failed");
}

export async function startServer(env = {}) {
  ensureBuild();
  return startAppServer({ env: { BUILD_DIR, ...env } });
}

/** Pages worth checking: everything in the sitemap, the success page and the 404 page. */
export async function pagePaths(baseUrl) {
  const sitemap = await (await fetch(`${baseUrl}/sitemap.xml`)).text();
  const paths = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
  // Pages outside the sitemap, in English and in a left-to-right and a right-to-left translation.
  const unlisted = ["/purchase/success", "/this-page-does-not-exist"].flatMap((p) => [p, `/de${p}`, `/ar${p}`]);
  return [...new Set([...paths, ...unlisted])];
}

/** Runs a sweep body with a server, prints PASS/FAIL with a summary and sets the exit code. */
export async function runSweep(name, body) {
  let server;
  try {
    server = await startServer();
    const problems = await body(server);
    if (problems.length === 0) {
      console.log(`PASS ${name}`);
      return;
    }
    console.error(`FAIL ${name}: ${problems.length} problem(s)`);
    for (const p of problems) console.error(`  - ${p}`);
    process.exitCode = 1;
  } catch (error) {
    console.error(`FAIL ${name}: ${error instanceof Error ? error.stack : error}`);
    if (server) console.error(server.logs().slice(-4000));
    process.exitCode = 1;
  } finally {
    await server?.stop();
  }
}
