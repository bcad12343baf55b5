// The catalogue-size section of `npm run bench` (alone: BENCH_ONLY=catalogue): for the shipped demo catalogue (6
// products) and each size of BENCH_CATALOGUE_SIZES, a production server on a generated content/ copy, measured for boot
// time, idle memory, documents as a browser gets them, Lighthouse, uncached render CPU and the render cache under a
// flood of distinct searches.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import { freePort, startAppServer } from "../../tests/support/app-server.ts";
import { ensureChromium } from "../ensure-chromium.mjs";
import {
  BROWSER_HEADERS,
  CHROME_FLAGS,
  DURATION,
  documentSize,
  FIRST_ROUND_TRIP_BYTES,
  lighthouseRun,
  load,
  loadAverage,
  rssAfterGc,
  SERVER_MALLOC_ARENA_MAX,
  SERVER_NODE_OPTIONS,
  spread,
} from "./bench-measure.mjs";
import { writeCatalogue } from "./generate-catalogue.mjs";

const DEMO_SIZE = 6;
const BASELINE_SIZE = 24;
const SEARCH_URL = "/products?q=vault&sort=price-asc&page=3";
const DOCUMENT_URLS = ["/products", SEARCH_URL, "/product/446894"];
const HOT_URLS = ["/", "/products", "/product/446894", "/product/446889"];
const FLOOD_REQUESTS = 10_000;
const FLOOD_CONCURRENCY = 10;
// The targets.
const DOCUMENT_MAX_GROWTH = 1024;
const DOCUMENT_MAX_BYTES = 20 * 1024;
const RENDER_CPU_TARGET_US = 15_000;
const HIT_RATIO_TARGET = 0.99;
const CONTENT_DIR = path.resolve(import.meta.dirname, "../../content");

const bytes = (n) => `${n.toLocaleString("en-US")} B`;
const signedBytes = (n) => `${n >= 0 ? "+" : "−"}${bytes(Math.abs(n))}`;
const percent = (ratio) => (Number.isFinite(ratio) ? `${(100 * ratio).toFixed(2)}%` : "n/a");

/**
 * Runs the section and prints its tables. Sizes from BENCH_CATALOGUE_SIZES ("24,1000,10000"), after the shipped
 * catalogue as size 6 (BENCH_CATALOGUE_DEMO=0 leaves it out); BENCH_CATALOGUE_RUNS Lighthouse runs per URL (3).
 */
export async function benchCatalogue({ buildDir }) {
  const requested = (process.env.BENCH_CATALOGUE_SIZES ?? "24,1000,10000").split(",").map((s) => s.trim());
  if (requested.some((s) => !/^\d+$/.test(s) || Number(s) < 1))
    throw new Error(
      `BENCH_CATALOGUE_SIZES: expected product counts like "24,1000,10000" (got "${process.env.BENCH_CATALOGUE_SIZES}")`,
    );
  const withDemo = process.env.BENCH_CATALOGUE_DEMO !== "0";
  const sizes = [...new Set([...(withDemo ? [DEMO_SIZE] : []), ...requested.map(Number)])];
  const runs = Number(process.env.BENCH_CATALOGUE_RUNS ?? 3);

  console.log(`\n## Catalogue size: ${sizes.join(", ")} products${withDemo ? " (6: the shipped content/)" : ""}`);
  const chrome = process.env.BENCH_SKIP_LIGHTHOUSE
    ? undefined
    : await chromeLauncher.launch({
        chromePath: process.env.CHROME_PATH ?? ensureChromium(),
        chromeFlags: CHROME_FLAGS,
      });
  const results = [];
  try {
    // One start unmeasured, so the first size's boot time does not include a cold file cache.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kestrel-bench-data-"));
    try {
      await (
        await startAppServer({
          dataDir,
          env: {
            BUILD_DIR: buildDir,
            LOG_LEVEL: "warn",
            NODE_OPTIONS: SERVER_NODE_OPTIONS,
            MALLOC_ARENA_MAX: SERVER_MALLOC_ARENA_MAX,
            CONTENT_DIR,
          },
        })
      ).stop();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    for (const size of sizes) {
      console.log(`- ${size} products: measuring (load average ${loadAverage()}) ...`);
      results.push(await measureSize(size, { buildDir, chrome, runs, shipped: withDemo && size === DEMO_SIZE }));
    }
  } finally {
    await chrome?.kill();
    // Whatever was measured is printed, also when a later size failed.
    printTables(results, { runs, lighthouse: Boolean(chrome) });
  }
}

async function measureSize(size, { buildDir, chrome, runs, shipped }) {
  const contentDir = shipped
    ? CONTENT_DIR
    : writeCatalogue(fs.mkdtempSync(path.join(os.tmpdir(), `kestrel-bench-catalogue-${size}-`)), size);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kestrel-bench-data-"));
  let server;
  try {
    const port = await freePort();
    let metricsPort = await freePort();
    while (metricsPort === port) metricsPort = await freePort();
    const spawned = Date.now();
    server = await startAppServer({
      port,
      dataDir,
      env: {
        BUILD_DIR: buildDir,
        LOG_LEVEL: "warn",
        NODE_OPTIONS: SERVER_NODE_OPTIONS,
        MALLOC_ARENA_MAX: SERVER_MALLOC_ARENA_MAX,
        CONTENT_DIR: contentDir,
        METRICS_PORT: String(metricsPort),
      },
    });
    const bootMs = Date.now() - spawned;
    const pid = server.process.pid;

    // Warm-up: every measured URL once, so code paths are compiled and the catalogue loaded.
    for (const url of [...DOCUMENT_URLS, ...HOT_URLS]) await get(server.url + url);
    const rss = await rssAfterGc(pid);

    const documents = {};
    for (const url of DOCUMENT_URLS) documents[url] = await documentSize(server.url + url);

    const lighthouse = {};
    for (const url of chrome ? DOCUMENT_URLS : []) {
      lighthouse[url] = [];
      for (let run = 0; run < runs; run++)
        lighthouse[url].push(await lighthouseRun(chrome, server.url.replace("127.0.0.1", "localhost") + url));
    }

    // A unique query string per request forces a full render every time.
    let n = 0;
    const uncached = await load(
      server.url + SEARCH_URL,
      { setupRequest: (req) => ({ ...req, path: `${SEARCH_URL}&bench=${n++}` }) },
      pid,
    );

    const flood = await searchFlood(server.url, `http://127.0.0.1:${metricsPort}/metrics`);
    return { size, bootMs, rss, documents, lighthouse, uncached, flood };
  } finally {
    await server?.stop();
    if (!shipped) fs.rmSync(contentDir, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** GET as a browser (gzip), body read and dropped: resolves to the status. */
function get(url, agent) {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: BROWSER_HEADERS, agent }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode));
      response.on("error", reject);
    });
    request.on("error", reject);
  });
}

/** The render cache's lookup counters by result, from the metrics endpoint; undefined if the server has none. */
async function cacheLookups(metricsUrl) {
  const text = await (await fetch(metricsUrl)).text();
  if (!text.includes("kestrel_render_cache_lookups_total")) return undefined;
  const counts = { hit: 0, miss: 0, shared: 0 };
  for (const [, result, value] of text.matchAll(/^kestrel_render_cache_lookups_total\{result="(\w+)"\} (\S+)$/gm))
    counts[result] = Number(value);
  return counts;
}

/**
 * FLOOD_REQUESTS searches with distinct `q` (never a hit), each followed by a request to the next hot URL in turn,
 * FLOOD_CONCURRENCY in flight. Hot hits = the hit counter's growth (flood URLs cannot hit); checked from the other
 * side: hot non-hits = misses and shared renders beyond the one miss each flood URL makes.
 */
async function searchFlood(baseUrl, metricsUrl) {
  for (const url of HOT_URLS) await get(baseUrl + url);
  const before = await cacheLookups(metricsUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: FLOOD_CONCURRENCY });
  const statuses = { flood: new Map(), hot: new Map() };
  const count = (map, status) => map.set(status, (map.get(status) ?? 0) + 1);
  let next = 0;
  const started = Date.now();
  const worker = async () => {
    while (next < 2 * FLOOD_REQUESTS) {
      const i = next++;
      if (i % 2 === 0) count(statuses.flood, await get(`${baseUrl}/products?q=flood${i / 2}`, agent));
      else count(statuses.hot, await get(baseUrl + HOT_URLS[((i - 1) / 2) % HOT_URLS.length], agent));
    }
  };
  try {
    await Promise.all(Array.from({ length: FLOOD_CONCURRENCY }, worker));
  } finally {
    agent.destroy();
  }
  const seconds = (Date.now() - started) / 1000;
  const after = await cacheLookups(metricsUrl);
  const hotRequests = FLOOD_REQUESTS;
  if (!before || !after) return { seconds, statuses, hotRequests };
  const delta = { hit: after.hit - before.hit, miss: after.miss - before.miss, shared: after.shared - before.shared };
  const hotNonHits = delta.miss + delta.shared - FLOOD_REQUESTS;
  return {
    seconds,
    statuses,
    hotRequests,
    delta,
    hotHits: delta.hit,
    hotHitsFromMisses: hotRequests - hotNonHits,
    lookups: delta.hit + delta.miss + delta.shared,
  };
}

function printTables(results, { runs, lighthouse }) {
  if (results.length === 0) return;
  const baseline = results.find((r) => r.size === BASELINE_SIZE);
  const statusNote = (status) => (status === 200 ? "" : ` (${status})`);

  console.log(`\n### Catalogue size: server, documents, render CPU, render cache (${results.length} size(s))`);
  console.log(
    "- boot: spawning the server until /healthz answers 200; startAppServer polls every 100 ms, so ±100 ms (after one unmeasured start).",
  );
  console.log("- idle RSS: after warm-up (each URL below once) and a full GC (SIGUSR2, bench-gc-hook.mjs).");
  console.log(
    `- documents: gzip body + headers as Lighthouse's mobile run gets them; "fits" = within the first round trip (${FIRST_ROUND_TRIP_BYTES.toLocaleString("en-US")} B).`,
  );
  console.log(
    `  Δ = bytes more than the same URL at ${BASELINE_SIZE} products; ✓ = target met (Δ ≤ ${bytes(DOCUMENT_MAX_GROWTH)} and document ≤ ${bytes(DOCUMENT_MAX_BYTES)}). A status other than 200 is shown, e.g. (404): page 3 does not exist.`,
  );
  console.log(
    `- render CPU: server CPU per request of ${SEARCH_URL}&bench=<unique> under autocannon for ${DURATION} s (every request rendered); target ≤ ${RENDER_CPU_TARGET_US / 1000} ms at 10,000 products.`,
  );
  console.log(
    `- hot hits: ${FLOOD_REQUESTS.toLocaleString("en-US")} /products?q=flood<n> (distinct) interleaved 1:1 with ${HOT_URLS.join(", ")} in turn, ${FLOOD_CONCURRENCY} in flight;`,
  );
  console.log(
    `  hits = growth of kestrel_render_cache_lookups_total{result="hit"} / hot requests (target ≥ ${HIT_RATIO_TARGET * 100}%; a render is kept 5 s, so a few misses per 5 s per URL are expected).`,
  );
  console.log(
    '  "from misses": the same ratio counted from the other side, hot requests − (miss + shared growth − flood requests).',
  );
  const documentColumns = DOCUMENT_URLS.map((url) => `${url} | Δ`).join(" | ");
  console.log(
    `| products | boot | idle RSS | ${documentColumns} | render CPU/req | render req/s (p50, p99) | hot hits | hot hit ratio | from misses |`,
  );
  console.log(`|---:|---:|---:|${DOCUMENT_URLS.map(() => "---:|---:|").join("")}---:|---:|---:|---:|---:|`);
  for (const r of results) {
    const documentCells = DOCUMENT_URLS.map((url) => {
      const document = r.documents[url];
      const total = document.body + document.headers;
      const cell = `${bytes(total)}${statusNote(document.status)} ${total <= FIRST_ROUND_TRIP_BYTES ? "fits" : "spills over"}`;
      const base = baseline?.documents[url];
      if (!base || r === baseline) return `${cell} | –`;
      const growth = total - (base.body + base.headers);
      return `${cell} | ${signedBytes(growth)} ${growth <= DOCUMENT_MAX_GROWTH && total <= DOCUMENT_MAX_BYTES ? "✓" : "✗"}`;
    });
    const searchStatus = statusNote(r.documents[SEARCH_URL].status);
    const cpu = `${(r.uncached.cpuUs / 1000).toFixed(2)} ms${searchStatus}${r.size >= 10_000 ? (r.uncached.cpuUs <= RENDER_CPU_TARGET_US ? " ✓" : " ✗") : ""}`;
    const f = r.flood;
    const hits = f.delta
      ? `${f.hotHits.toLocaleString("en-US")} / ${f.hotRequests.toLocaleString("en-US")}`
      : "no metric";
    const ratio = f.delta
      ? `${percent(f.hotHits / f.hotRequests)} ${f.hotHits / f.hotRequests >= HIT_RATIO_TARGET ? "✓" : "✗"}`
      : "n/a";
    const fromMisses = f.delta ? percent(f.hotHitsFromMisses / f.hotRequests) : "n/a";
    console.log(
      `| ${r.size.toLocaleString("en-US")} | ${r.bootMs} ms | ${r.rss.toFixed(0)} MB | ${documentCells.join(" | ")} | ${cpu} | ${r.uncached.rps} (${r.uncached.p50} ms, ${r.uncached.p99} ms) | ${hits} | ${ratio} | ${fromMisses} |`,
    );
  }
  const statusList = (map) => [...map].map(([status, n]) => `${n.toLocaleString("en-US")}× ${status}`).join(", ");
  for (const r of results) {
    const f = r.flood;
    const lookups = f.delta
      ? `; cache lookups grew by ${f.lookups.toLocaleString("en-US")} (hit ${f.delta.hit}, miss ${f.delta.miss}, shared ${f.delta.shared}) for ${(2 * FLOOD_REQUESTS).toLocaleString("en-US")} requests`
      : "";
    console.log(
      `- flood at ${r.size.toLocaleString("en-US")}: ${f.seconds.toFixed(1)} s; flood ${statusList(f.statuses.flood)}; hot ${statusList(f.statuses.hot)}${lookups}`,
    );
  }

  if (!lighthouse) return;
  console.log(
    `\n### Catalogue size: Lighthouse (mobile, simulated throttling), ${runs} run(s) per URL: median (min–max)`,
  );
  console.log("| products | URL | perf | TBT | LCP |");
  console.log("|---:|---|---:|---:|---:|");
  const ms = (v) => `${Math.round(v)} ms`;
  for (const r of results) {
    for (const url of DOCUMENT_URLS) {
      const lh = r.lighthouse[url];
      if (!lh) continue;
      console.log(
        `| ${r.size.toLocaleString("en-US")} | ${url}${statusNote(r.documents[url].status)} | ${spread(lh, "perf", (v) => String(Math.round(v)))} | ${spread(lh, "tbt", ms)} | ${spread(lh, "lcp", ms)} |`,
      );
    }
  }
}
