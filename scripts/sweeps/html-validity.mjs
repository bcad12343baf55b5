// Nu Html Checker (vnu-jar) over every page's server-rendered HTML: 0 errors allowed (warnings are printed).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pagePaths, runSweep } from "../lib/sweep-support.mjs";

const VNU_JAR = "node_modules/vnu-jar/build/dist/vnu.jar";

await runSweep("Nu Html Checker over every route", async (server) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kestrel-vnu-"));
  const files = new Map();
  for (const page of await pagePaths(server.url)) {
    const res = await fetch(server.url + page);
    const file = path.join(dir, `${files.size}.html`);
    fs.writeFileSync(file, await res.text());
    files.set(file, page);
  }
  // vnu writes its JSON report to stderr.
  const run = spawnSync("java", ["-jar", VNU_JAR, "--format", "json", "--exit-zero-always", ...files.keys()], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0 || !run.stderr.trim().startsWith("{"))
    throw new Error(`vnu did not run: ${run.error ?? run.stderr}`);
  const report = run.stderr;
  const parsed = JSON.parse(report);
  const problems = [];
  const warnings = new Map();
  for (const message of parsed.messages) {
    const page = files.get(decodeURIComponent(new URL(message.url).pathname)) ?? message.url;
    const where = `${page}${message.lastLine ? `:${message.lastLine}` : ""}`;
    if (message.type === "error" || message.subType === "fatal")
      problems.push(
        `${where} ${message.message} ${message.extract ? `[${message.extract.trim().slice(0, 120)}]` : ""}`,
      );
    // React writes void elements as <meta />; that info message says nothing about our markup.
    else if (!message.message.startsWith("Trailing slash on void elements"))
      warnings.set(message.message, [...(warnings.get(message.message) ?? []), page]);
  }
  for (const [text, pages] of warnings) console.log(`  warning (${pages.length}x, e.g. ${pages[0]}): ${text}`);
  console.log(`checked ${files.size} pages`);
  fs.rmSync(dir, { recursive: true, force: true });
  return problems;
});
