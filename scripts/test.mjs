// `npm test`: lint, types, unit + integration (SQLite, PostgreSQL where reachable), build, end-to-end in Chromium.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { ensureChromium } from "./ensure-chromium.mjs";

const bin = (name) => `node_modules/.bin/${name}`;
const results = [];
let passed = 0;
let failed = 0;
let skipped = 0;

function step(name, command, args, { env } = {}) {
  const started = Date.now();
  console.log(`\n=== ${name}: ${[command, ...args].join(" ")}`);
  const run = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  const ok = run.status === 0;
  results.push({ name, ok, seconds: ((Date.now() - started) / 1000).toFixed(1) });
  return ok;
}

function countVitest(file) {
  if (!fs.existsSync(file)) return;
  const report = JSON.parse(fs.readFileSync(file, "utf8"));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}

function countPlaywright(file) {
  if (!fs.existsSync(file)) return;
  const { stats } = JSON.parse(fs.readFileSync(file, "utf8"));
  passed += (stats?.expected ?? 0) + (stats?.flaky ?? 0);
  failed += stats?.unexpected ?? 0;
  skipped += stats?.skipped ?? 0;
}

fs.rmSync("test-results", { recursive: true, force: true });
fs.mkdirSync("test-results", { recursive: true });

try {
  ensureChromium();
  results.push({ name: "chromium", ok: true, seconds: "0" });
} catch (error) {
  console.error(String(error));
  results.push({ name: "chromium", ok: false, seconds: "0" });
}

step("lint", bin("biome"), ["check", "."]);
step("typecheck", bin("react-router"), ["typegen"]) && step("typecheck", bin("tsc"), ["-p", "."]);
step("unit + integration", bin("vitest"), ["run", "--reporter=default", "--reporter=json", "--outputFile=test-results/vitest.json"]);
countVitest("test-results/vitest.json");
if (step("content validation", bin("tsx"), ["scripts/validate-content.ts"]) && step("build", bin("react-router"), ["build"])) {
  step("end-to-end (Chromium)", bin("playwright"), ["test"]);
  countPlaywright("test-results/e2e.json");
}
for (const extra of fs.existsSync("scripts/sweeps") ? fs.readdirSync("scripts/sweeps").filter((f) => f.endsWith(".mjs")).sort() : []) {
  step(`sweep ${extra}`, process.execPath, [`scripts/sweeps/${extra}`]);
}

console.log("\n=== summary");
for (const r of results) console.log(`${r.ok ? "ok  " : "FAIL"} ${r.name} (${r.seconds}s)`);
const stepFailures = results.filter((r) => !r.ok).length;
if (stepFailures > 0 && failed === 0) failed = stepFailures;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
