// What `npm run bench` measures with, shared by its sections (scripts/bench.mjs and scripts/lib/bench-catalogue.mjs):
// documents as a browser gets them, Lighthouse runs, autocannon load with the server's CPU per request, memory.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import autocannon from "autocannon";
import lighthouse from "lighthouse";

export const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
export const FIRST_ROUND_TRIP_BYTES = 10 * 1460;
// What Lighthouse's mobile run sends: a page's render can depend on the user agent (crawlers get it unstreamed).
export const BROWSER_HEADERS = {
  "user-agent":
    "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/135.0.0.0 Mobile Safari/537.36",
  "accept-encoding": "gzip, deflate, br, zstd",
};
export const CHROME_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
// The V8 flag is the one `npm start` uses (a 4 MB young generation keeps idle RSS under 150 MB at no throughput cost);
// the hook runs a full GC on SIGUSR2 (rssAfterGc).
export const SERVER_NODE_OPTIONS = "--max-semi-space-size=4 --expose-gc --import ./scripts/lib/bench-gc-hook.mjs";
/** As `npm start` sets it: glibc keeps two arenas instead of one per thread (docs/performance.md, "Idle memory"). */
export const SERVER_MALLOC_ARENA_MAX = "2";

export const kb = (bytes) => (bytes / 1024).toFixed(1);
export const rssMb = (pid) =>
  Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");

/** CPU seconds (user + system) a process has used: per-request CPU stays meaningful on a busy machine. */
export const cpuSeconds = (pid) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

/** RSS in MB of a server started with SERVER_NODE_OPTIONS, after a full GC (SIGUSR2 through bench-gc-hook.mjs). */
export async function rssAfterGc(pid) {
  process.kill(pid, "SIGUSR2");
  await sleep(1500);
  return rssMb(pid);
}

/**
 * The bytes of `url`'s response as a browser receives them: encoded body, and headers as sent; and its status.
 * `headers` adds request headers (a session cookie for a signed-in page).
 */
export function documentSize(url, headers = {}) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { ...BROWSER_HEADERS, ...headers } }, (response) => {
      let body = 0;
      response.on("data", (chunk) => (body += chunk.length));
      response.on("end", () => {
        // Status line, each header line and the blank line, as HTTP/1.1 puts them on the wire.
        const lines = [`HTTP/1.1 ${response.statusCode} ${response.statusMessage}`];
        for (let i = 0; i < response.rawHeaders.length; i += 2)
          lines.push(`${response.rawHeaders[i]}: ${response.rawHeaders[i + 1]}`);
        resolve({ body, headers: Buffer.byteLength(`${lines.join("\r\n")}\r\n\r\n`), status: response.statusCode });
      });
    });
    request.on("error", reject);
  });
}

export function median(values) {
  const sorted = values.filter((v) => typeof v === "number").sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** "median (min–max)" of one figure over runs, or the value alone when they agree; "n/a" when no run has it. */
export function spread(runs, id, format) {
  const values = runs.map((r) => r[id]).filter((v) => typeof v === "number");
  if (values.length === 0) return "n/a";
  const low = Math.min(...values);
  const high = Math.max(...values);
  return low === high ? format(low) : `${format(median(values))} (${format(low)}–${format(high)})`;
}

/** One Lighthouse run's figures: scores 0–100, times in ms, bytes; `extraHeaders` go with every request it makes. */
export async function lighthouseRun(chrome, url, { extraHeaders } = {}) {
  const result = await lighthouse(url, {
    port: chrome.port,
    output: "json",
    logLevel: "error",
    ...(extraHeaders ? { extraHeaders } : {}),
  });
  const { categories, audits } = result.lhr;
  if (result.lhr.runtimeError)
    console.log(`  (${url}: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message})`);
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
    scripts: scriptsAgainstFirstPaint(audits),
  };
}

/**
 * The scripts the page loaded, as the browser really loaded them (observed, not simulated): URL, bytes transferred and
 * how long after the first contentful paint the request started (negative: before it).
 */
function scriptsAgainstFirstPaint(audits) {
  const network = audits["network-requests"]?.details;
  const paintTs = audits.metrics?.details?.items?.[0]?.observedFirstContentfulPaintTs;
  const startTs = network?.debugData?.networkStartTimeTs;
  if (!network || typeof paintTs !== "number" || typeof startTs !== "number") return [];
  return network.items
    .filter((item) => item.resourceType === "Script" && typeof item.rendererStartTime === "number")
    .map((item) => ({
      url: item.url,
      bytes: item.transferSize ?? 0,
      msAfterPaint: (startTs + item.rendererStartTime * 1000 - paintTs) / 1000,
    }));
}

/** autocannon on `url` (CONNECTIONS for DURATION s), with the CPU `serverPid` spent per request. */
export async function load(url, request, serverPid) {
  const cpuBefore = cpuSeconds(serverPid);
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION,
    ...(request ? { requests: [request] } : {}),
  });
  const cpuUs = Math.round(((cpuSeconds(serverPid) - cpuBefore) * 1e6) / Math.max(1, result.requests.total));
  if (result.non2xx > 0 || result.errors > 0)
    console.warn(`  (${url}: ${result.non2xx} non-2xx, ${result.errors} errors)`);
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuUs,
    requests: result.requests.total,
    non2xx: result.non2xx,
  };
}
