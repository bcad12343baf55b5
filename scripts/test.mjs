// `npm test`: lint, types, unit + integration (SQLite, PostgreSQL where reachable), build, end-to-end in Chromium, and the
// cluster test (three instances behind nginx) when PostgreSQL and Redis answer on 127.0.0.1.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import { markBuiltWithSentinels, SECRET_SENTINELS, SENTINEL_COMPANIONS } from "../tests/support/secret-sentinels.ts";
import { ensureChromium } from "./ensure-chromium.mjs";
import { failureLines } from "./lib/failure-lines.mjs";
import { playwrightFileTimes, slowestFilesLines, vitestFileTimes } from "./lib/time-report.mjs";

const bin = (name) => `node_modules/.bin/${name}`;
const results = [];
let passed = 0;
let failed = 0;
let skipped = 0;
const noticed = [];

// CI shows only the end of the log, so each step's output is kept to repeat a failing step's errors there.
const OUTPUT_KEPT = 400_000;

/**
 * Runs one step; its line in the summary keeps the order the steps started in. `buffered`: its output is printed in
 * one block when it ends, for a step that runs beside another whose output streams.
 */
async function step(name, command, args, { env, buffered = false } = {}) {
  const started = Date.now();
  const header = `\n=== ${name}: ${[command, ...args].join(" ")}`;
  const result = { name, ok: false, seconds: "0", errors: [] };
  results.push(result);
  if (!buffered) console.log(header);
  let output = "";
  const child = spawn(command, args, { stdio: ["inherit", "pipe", "pipe"], env: { ...process.env, ...env } });
  const keep = (stream) => (chunk) => {
    if (!buffered) stream.write(chunk);
    output = (output + chunk.toString()).slice(-OUTPUT_KEPT);
  };
  child.stdout.on("data", keep(process.stdout));
  child.stderr.on("data", keep(process.stderr));
  const status = await new Promise((resolve) => {
    child.on("error", (error) => {
      output += String(error);
      resolve(1);
    });
    child.on("close", (code) => resolve(code));
  });
  if (buffered) console.log(`${header}\n${output}`);
  result.ok = status === 0;
  result.seconds = ((Date.now() - started) / 1000).toFixed(1);
  result.errors = result.ok ? [] : failureLines(output);
  return result.ok;
}

/** Whether something accepts TCP connections on 127.0.0.1:port. */
function reachable(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port, timeout: 2000 });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
    socket.once("timeout", () => done(false));
  });
}

const readJson = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : undefined);

function countVitest(file) {
  const report = readJson(file);
  if (!report) return;
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}

function everyVitestTestPassed(file) {
  const report = readJson(file);
  return (
    report !== undefined &&
    report.numTotalTests > 0 &&
    report.numFailedTests === 0 &&
    report.numPassedTests + report.numPendingTests + report.numTodoTests === report.numTotalTests
  );
}

function countPlaywright(file) {
  const stats = readJson(file)?.stats;
  if (!stats) return;
  passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
  failed += stats.unexpected ?? 0;
  skipped += stats.skipped ?? 0;
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

// The unit and integration tests mostly wait (databases, timers, child processes): lint, the build, types, the cluster
// and the sweeps (each needs only the build and servers of its own) use the CPU meanwhile, their output printed whole
// as each ends. End-to-end, which keeps both cores busy, starts once all of them are done.
async function buildThenClusterAndSweeps() {
  const built =
    (await step("content validation", bin("tsx"), ["scripts/validate-content.ts"], { buffered: true })) &&
    (await step("build", bin("react-router"), ["build"], {
      buffered: true,
      env: { ...SECRET_SENTINELS, ...SENTINEL_COMPANIONS },
    }));
  // The one build, made with recognisable secrets in its environment: the secrets spec checks it instead of its own.
  if (built) {
    markBuiltWithSentinels(process.env.BUILD_DIR ?? "build");
    await Promise.all([cluster(), ...sweeps.map(sweep)]);
  } else {
    // Without the build, one after another, so only the first sweep builds (scripts/lib/sweep-support.mjs).
    for (const extra of sweeps) await sweep(extra);
  }
  return built;
}

async function lintAndTypes() {
  await step("lint", bin("biome"), ["check", "."]);
  (await step("typecheck", bin("react-router"), ["typegen"], { buffered: true })) &&
    (await step("typecheck", bin("tsc"), ["-p", "."], { buffered: true }));
}

async function unitAndIntegration() {
  const vitestArgs = ["run", "--reporter=default", "--reporter=json", "--outputFile=test-results/vitest.json"];
  if (
    !(await step("unit + integration", bin("vitest"), vitestArgs)) &&
    everyVitestTestPassed("test-results/vitest.json")
  ) {
    // Every test passed yet Vitest failed the run: an error outside any test (a pool worker that died, a stray rejection).
    // Its lines stay in the log's last section; one rerun tells a runner glitch from a fault that comes back.
    const first = results.find((r) => r.name === "unit + integration");
    results.splice(results.indexOf(first), 1);
    noticed.push(...first.errors.map((line) => `unit + integration, first run: ${line}`));
    await step("unit + integration (rerun after an error outside any test)", bin("vitest"), vitestArgs);
  }
  countVitest("test-results/vitest.json");
}

const sweeps = fs.existsSync("scripts/sweeps")
  ? fs
      .readdirSync("scripts/sweeps")
      .filter((f) => f.endsWith(".mjs"))
      .sort()
  : [];
const sweep = (extra) => step(`sweep ${extra}`, process.execPath, [`scripts/sweeps/${extra}`], { buffered: true });

async function cluster() {
  if ((await reachable(5432)) && (await reachable(6379)))
    await step("cluster (3 instances behind nginx)", bin("tsx"), ["tests/cluster/run.ts"], { buffered: true });
  else console.log("\n=== cluster\nskipped: PostgreSQL/Redis not reachable");
}

const [built] = await Promise.all([buildThenClusterAndSweeps(), lintAndTypes(), unitAndIntegration()]);
if (built) {
  await step("end-to-end (Chromium)", bin("playwright"), ["test"]);
  countPlaywright("test-results/e2e.json");
}

// Where the time went, per runner, from the reports above (docs/performance.md keeps these tables run after run).
console.log("\n=== where the time went (each file's test durations summed: worker-seconds)");
for (const line of slowestFilesLines("unit + integration", vitestFileTimes(readJson("test-results/vitest.json"))))
  console.log(line);
for (const line of slowestFilesLines("end-to-end", playwrightFileTimes(readJson("test-results/e2e.json"))))
  console.log(line);

if (noticed.length > 0) {
  console.log("\n=== noticed (did not fail the run)");
  for (const line of noticed) console.log(line);
}
const failedSteps = results.filter((r) => !r.ok && r.errors?.length);
if (failedSteps.length > 0) {
  console.log("\n=== what failed");
  for (const r of failedSteps) for (const line of r.errors) console.log(`${r.name}: ${line}`);
}
console.log("\n=== summary");
for (const r of results) console.log(`${r.ok ? "ok  " : "FAIL"} ${r.name} (${r.seconds}s)`);
const stepFailures = results.filter((r) => !r.ok).length;
if (stepFailures > 0 && failed === 0) failed = stepFailures;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
