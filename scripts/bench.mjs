// `npm run bench` (not part of npm test): builds, starts the production server and prints Lighthouse mobile figures
// (median and range of BENCH_RUNS runs, each page beside its own copy without scripts)
// per page, autocannon throughput and latency (shop vs. the same HTML bytes from a tiny static server), and the
// server's memory. Figures go into docs/performance.md by hand, with this command.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import autocannon from "autocannon";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { freePort, startAppServer } from "../tests/support/app-server.ts";
import { ensureChromium } from "./ensure-chromium.mjs";
import { startNoScriptCopy } from "./lib/no-script-copy.mjs";

const BUILD_DIR = process.env.BUILD_DIR ?? "build";
const ALL_LIGHTHOUSE_ROUTES = ["/", "/products", "/product/446894", "/status", "/faq", "/reviews", "/docs", "/reseller"];
// BENCH_ROUTES="/,/faq" narrows Lighthouse to some routes while iterating on one change.
const LIGHTHOUSE_ROUTES = process.env.BENCH_ROUTES ? process.env.BENCH_ROUTES.split(",") : ALL_LIGHTHOUSE_ROUTES;
const LOAD_ROUTES = ["/", "/products", "/product/446894", "/status", "/api/status"];
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
// Lighthouse swings from run to run on a shared machine: report the median and range of several.
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const FIRST_ROUND_TRIP_BYTES = 10 * 1460;
// What Lighthouse's mobile run sends: a page's render can depend on the user agent (crawlers get it unstreamed).
const BROWSER_HEADERS = {
  "user-agent": "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/135.0.0.0 Mobile Safari/537.36",
  "accept-encoding": "gzip, deflate, br, zstd",
};
const CHROME_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

const kb = (bytes) => (bytes / 1024).toFixed(1);
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** CPU seconds (user + system) a process has used: per-request CPU stays meaningful on a busy machine. */
const cpuSeconds = (pid) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

console.log(`# npm run bench — ${new Date().toISOString()} — ${os.cpus().length} CPU(s) ${os.cpus()[0]?.model ?? ""}, Node ${process.version}`);
console.log(`building into ${BUILD_DIR}/ ...`);
const build = spawnSync("node_modules/.bin/react-router", ["build"], { env: { ...process.env, BUILD_DIR }, encoding: "utf8" });
if (build.status !== 0) {
  console.error(build.stdout, build.stderr);
  process.exit(1);
}

// The V8 flag is the one `npm start` uses (a 4 MB young generation keeps idle RSS under 150 MB at no throughput cost).
const server = await startAppServer({ env: { BUILD_DIR, LOG_LEVEL: "warn", NODE_OPTIONS: "--max-semi-space-size=4 --expose-gc --import ./scripts/lib/bench-gc-hook.mjs" } });
const pid = server.process.pid;
const measureIdleRss = async () => {
  process.kill(pid, "SIGUSR2");
  await sleep(1500);
  return rssMb(pid);
};

try {
  // Warm-up: every page once, so code paths are compiled and first renders cached.
  for (const route of [...LIGHTHOUSE_ROUTES, ...LOAD_ROUTES]) await (await fetch(server.url + route, { headers: BROWSER_HEADERS })).arrayBuffer();
  const idleRss = await measureIdleRss();

  console.log("\n## First-load JavaScript on / (from the build manifest, compressed)");
  const firstLoad = firstLoadJs("/", "routes/home");
  console.log(`${firstLoad.files.length} files: ${kb(firstLoad.raw)} KB raw, ${kb(firstLoad.gzip)} KB gzip-9, ${kb(firstLoad.brotli)} KB brotli-11 (served to browsers)`);

  console.log("\n## Documents as a browser gets them (gzip body + response headers)");
  console.log(`A new connection's first round trip carries ${FIRST_ROUND_TRIP_BYTES} bytes (10 TCP segments, as Lighthouse's simulation models it); a page past that waits one more round trip.`);
  console.log("| route | body | headers | total | first round trip |");
  console.log("|---|---|---|---|---|");
  for (const route of LIGHTHOUSE_ROUTES) {
    const document = await documentSize(server.url + route);
    console.log(`| ${route} | ${document.body} B | ${document.headers} B | ${document.body + document.headers} B | ${document.body + document.headers <= FIRST_ROUND_TRIP_BYTES ? "fits" : "spills over"} |`);
  }

  console.log(`\n## Lighthouse ${(await import("lighthouse/package.json", { with: { type: "json" } })).default.version} (mobile, simulated throttling), ${LIGHTHOUSE_RUNS} run(s) per page: median (min–max)`);
  console.log("Each route beside the same page with its scripts taken out (the limit for that page); ratio = ours / no-script, medians;");
  console.log("runs at target = the runs with performance 100 and TBT ≤ 50 ms, of those that completed.");
  // Blocking time scales with whatever else runs on the machine: the load says whether a run can be compared.
  console.log(`load average before: ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  console.log("| route | perf | FCP | LCP | TBT | CLS | a11y | BP | SEO | JS transferred | total transferred | runs at target | FCP ratio | LCP ratio |");
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  const chrome = process.env.BENCH_SKIP_LIGHTHOUSE ? undefined : await chromeLauncher.launch({ chromePath: process.env.CHROME_PATH ?? ensureChromium(), chromeFlags: CHROME_FLAGS });
  const noScript = chrome ? await startNoScriptCopy(server.url, LIGHTHOUSE_ROUTES, await freePort()) : undefined;
  try {
    for (const route of chrome ? LIGHTHOUSE_ROUTES : []) {
      const ours = [];
      const limit = [];
      // Interleaved, so a busy moment on the machine falls on both.
      for (let run = 0; run < LIGHTHOUSE_RUNS; run++) {
        ours.push(await lighthouseRun(chrome, server.url.replace("127.0.0.1", "localhost") + route));
        limit.push(await lighthouseRun(chrome, noScript.url + route));
      }
      const ratio = (id) => (median(ours.map((r) => r[id])) / median(limit.map((r) => r[id]))).toFixed(2);
      console.log(`${lighthouseRow(route, ours)} ${runsAtTarget(ours)} | ${ratio("fcp")} | ${ratio("lcp")} |`);
      console.log(`${lighthouseRow(`${route} without scripts`, limit)} ${runsAtTarget(limit)} | – | – |`);
    }
  } finally {
    await noScript?.close();
    await chrome?.kill();
  }

  if (!process.env.BENCH_SKIP_LOAD) {
    // The static baseline serves exactly the bytes the shop rendered for each route.
    const htmlDir = fs.mkdtempSync(path.join(os.tmpdir(), "kestrel-bench-html-"));
    for (const route of LOAD_ROUTES) fs.writeFileSync(path.join(htmlDir, `${route.replace(/\//g, "_") || "_"}.html`), Buffer.from(await (await fetch(server.url + route)).arrayBuffer()));
    const staticPort = await freePort();
    const staticServer = spawn(process.execPath, ["scripts/lib/static-html-server.mjs", htmlDir, String(staticPort)], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise((resolve) => staticServer.stdout.once("data", resolve));

    console.log(`\n## autocannon (${CONNECTIONS} connections, ${DURATION} s each, no compression)`);
    console.log(`load average before: ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
    console.log("| route | shop req/s | shop p50 | shop p99 | shop CPU/req | static req/s | static p50 | static p99 | static CPU/req | shop / static |");
    console.log("|---|---|---|---|---|---|---|---|---|---|");
    for (const route of LOAD_ROUTES) {
      const shop = await load(server.url + route, undefined, pid);
      const baseline = await load(`http://127.0.0.1:${staticPort}${route}`, undefined, staticServer.pid);
      console.log(
        `| ${route} | ${shop.rps} | ${shop.p50} ms | ${shop.p99} ms | ${shop.cpuUs} µs | ${baseline.rps} | ${baseline.p50} ms | ${baseline.p99} ms | ${baseline.cpuUs} µs | ${Math.round((100 * shop.rps) / baseline.rps)}% |`,
      );
    }
    // What a browser gets: its Accept-Encoding makes cached pages go out gzip-encoded (compressed once per render).
    for (const route of ["/", "/product/446894"]) {
      const browser = await load(server.url + route, { headers: { "accept-encoding": "gzip, deflate, br, zstd" } }, pid);
      console.log(`| ${route} (browser Accept-Encoding: gzip) | ${browser.rps} | ${browser.p50} ms | ${browser.p99} ms | ${browser.cpuUs} µs | – | – | – | – | – |`);
    }
    // Cache busting (a unique query string per request) forces a full render every time: the uncached floor.
    let n = 0;
    const uncached = await load(`${server.url}/product/446894`, { setupRequest: (req) => ({ ...req, path: `/product/446894?bench=${n++}` }) }, pid);
    console.log(`| /product/446894?unique (every request rendered) | ${uncached.rps} | ${uncached.p50} ms | ${uncached.p99} ms | ${uncached.cpuUs} µs | – | – | – | – | – |`);
    console.log(`load average after: ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
    staticServer.kill();
    fs.rmSync(htmlDir, { recursive: true, force: true });

    const loadedRss = rssMb(pid);
    const idleAfter = await measureIdleRss();
    console.log("\n## Server memory (RSS)");
    console.log(`idle after warm-up + gc(): ${idleRss.toFixed(0)} MB; right after load: ${loadedRss.toFixed(0)} MB; idle again after gc(): ${idleAfter.toFixed(0)} MB`);
  }
} finally {
  await server.stop();
}

/** The bytes of `url`'s response as a browser receives them: encoded body, and headers as sent. */
function documentSize(url) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: BROWSER_HEADERS }, (response) => {
      let body = 0;
      response.on("data", (chunk) => (body += chunk.length));
      response.on("end", () => {
        // Status line, each header line and the blank line, as HTTP/1.1 puts them on the wire.
        const lines = [`HTTP/1.1 ${response.statusCode} ${response.statusMessage}`];
        for (let i = 0; i < response.rawHeaders.length; i += 2) lines.push(`${response.rawHeaders[i]}: ${response.rawHeaders[i + 1]}`);
        resolve({ body, headers: Buffer.byteLength(`${lines.join("\r\n")}\r\n\r\n`) });
      });
    });
    request.on("error", reject);
  });
}

function median(values) {
  const sorted = values.filter((v) => typeof v === "number").sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** One Lighthouse run's figures: scores 0–100, times in ms, bytes. */
async function lighthouseRun(chrome, url) {
  const result = await lighthouse(url, { port: chrome.port, output: "json", logLevel: "error" });
  const { categories, audits } = result.lhr;
  if (result.lhr.runtimeError) console.log(`  (${url}: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message})`);
  const items = audits["resource-summary"]?.details?.items ?? [];
  const transfer = (type) => items.find((i) => i.resourceType === type)?.transferSize ?? 0;
  const score = (c) => (categories[c]?.score == null ? undefined : Math.round(categories[c].score * 100));
  return {
    perf: score("performance"),
    a11y: score("accessibility"),
    bp: score("best-practices"),
    seo: score("seo"),
    fcp: audits["first-contentful-paint"]?.numericValue,
    lcp: audits["largest-contentful-paint"]?.numericValue,
    tbt: audits["total-blocking-time"]?.numericValue,
    cls: audits["cumulative-layout-shift"]?.numericValue,
    js: transfer("script"),
    total: transfer("total"),
  };
}

/** "4/5": the runs that scored performance 100 with TBT ≤ 50 ms (the issue's per-run target), of those with figures. */
function runsAtTarget(runs) {
  const measured = runs.filter((r) => typeof r.perf === "number" && typeof r.tbt === "number");
  return `${measured.filter((r) => r.perf === 100 && r.tbt <= 50).length}/${measured.length}`;
}

/** A table row of medians with their ranges, ending in "|" before the ratio columns. */
function lighthouseRow(label, runs) {
  const spread = (id, format) => {
    const values = runs.map((r) => r[id]).filter((v) => typeof v === "number");
    if (values.length === 0) return "n/a";
    const low = Math.min(...values);
    const high = Math.max(...values);
    return low === high ? format(low) : `${format(median(values))} (${format(low)}–${format(high)})`;
  };
  const ms = (v) => `${Math.round(v)} ms`;
  const whole = (v) => String(Math.round(v));
  return `| ${label} | ${spread("perf", whole)} | ${spread("fcp", ms)} | ${spread("lcp", ms)} | ${spread("tbt", ms)} | ${spread("cls", (v) => v.toFixed(3))} | ${spread("a11y", whole)} | ${spread("bp", whole)} | ${spread("seo", whole)} | ${spread("js", (v) => `${kb(v)} KB`)} | ${spread("total", (v) => `${kb(v)} KB`)} |`;
}

async function load(url, request, serverPid) {
  const cpuBefore = cpuSeconds(serverPid);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, ...(request ? { requests: [request] } : {}) });
  const cpuUs = Math.round(((cpuSeconds(serverPid) - cpuBefore) * 1e6) / Math.max(1, result.requests.total));
  if (result.non2xx > 0 || result.errors > 0) console.warn(`  (${url}: ${result.non2xx} non-2xx, ${result.errors} errors)`);
  return { rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, cpuUs };
}

/** JS a first visit to `path` downloads before it is interactive: entry, root and route chunks with their imports. */
function firstLoadJs(_path, routeId) {
  const manifestFile = fs.readdirSync(path.join(BUILD_DIR, "client/assets")).find((f) => /^manifest-.*\.js$/.test(f));
  const source = fs.readFileSync(path.join(BUILD_DIR, "client/assets", manifestFile), "utf8");
  const manifest = JSON.parse(source.slice(source.indexOf("{"), source.lastIndexOf("}") + 1));
  const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (const id of ["root", routeId]) for (const f of [manifest.routes[id].module, ...(manifest.routes[id].imports ?? [])]) files.add(f);
  let raw = 0;
  let gzip = 0;
  let brotli = 0;
  // Sizes as served: the build's precompressed twins (brotli 11, gzip 9), or compressed here the same way.
  for (const f of files) {
    const file = path.join(BUILD_DIR, "client", f);
    const bytes = fs.readFileSync(file);
    raw += bytes.length;
    gzip += fs.existsSync(`${file}.gz`) ? fs.statSync(`${file}.gz`).size : zlib.gzipSync(bytes, { level: 9 }).length;
    brotli += fs.existsSync(`${file}.br`) ? fs.statSync(`${file}.br`).size : zlib.brotliCompressSync(bytes).length;
  }
  return { files: [...files], raw, gzip, brotli };
}
