// `npm run bench` (not part of npm test): builds, starts the production server and prints Lighthouse mobile figures
// (median and range of BENCH_RUNS runs, each page beside its own copy without scripts)
// per page, autocannon throughput and latency (shop vs. the same HTML bytes from a tiny static server), and the
// server's memory; then the catalogue-size section (scripts/lib/bench-catalogue.mjs). Figures go into
// docs/performance.md by hand, with this command.
// BENCH_ONLY=catalogue runs the catalogue section alone, BENCH_SKIP_CATALOGUE=1 leaves it out; BENCH_ONLY=shop runs
// the shop-source section (scripts/lib/bench-shop.mjs) alone, BENCH_SKIP_SHOP=1 leaves it out; BENCH_ONLY=orders runs
// the buyer-orders section (scripts/lib/bench-orders.mjs: sign-in code to mail through a real SMTP server, the signed-in
// /orders page, send-code against the rate limits) alone, BENCH_SKIP_ORDERS=1 leaves it out; BENCH_ONLY=support-relay
// runs the Discord reply reader's section (scripts/lib/bench-support-relay.mjs, no build needed) alone,
// BENCH_SKIP_SUPPORT_RELAY=1 leaves it out; BENCH_ONLY=support-streams runs the conversation-streams section
// (scripts/lib/bench-support-streams.mjs: 2,000 open event streams, memory per stream, message-to-stream latency)
// alone, BENCH_SKIP_SUPPORT_STREAMS=1 leaves it out; BENCH_ONLY=console runs the console's section
// (scripts/lib/bench-console.mjs: the dashboard at 100,000 orders and conversations, sign-in against its limits, the
// shop documents beside it) alone, BENCH_SKIP_CONSOLE=1 leaves it out; BENCH_ONLY=recent-sales runs the recent-sales
// notice on and off (scripts/lib/bench-recent-sales.mjs: Lighthouse on / and the product page, documents, the notice's
// code after the first paint) alone, BENCH_SKIP_RECENT_SALES=1 leaves it out; BENCH_ONLY=delivery runs the delivery engine's section
// (scripts/lib/bench-delivery.mjs: support requests, mail and visitor messages per second, no build needed) alone,
// BENCH_SKIP_DELIVERY=1 leaves it out; BENCH_ONLY=releases runs the releases section (scripts/lib/bench-releases-run.ts:
// a 256 MB file uploaded and downloaded beside a plain static server) alone, BENCH_SKIP_RELEASES=1 leaves it out;
// BENCH_ONLY=console-trust runs issue 42's section (scripts/lib/bench-console-trust.mjs: the inbox's text search at
// 100,000 conversations before and after its index, the audit CSV of 1,000,000 entries; no build needed) alone,
// BENCH_SKIP_CONSOLE_TRUST=1 leaves it out; BENCH_NO_BUILD=1 uses
// the build already in BUILD_DIR. BENCH_THEME=docs/themes/light.theme.json runs the pages under that theme (a copy of
// content/ with it as theme.json and the brand/ folder beside it), on the same build.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import { localeOfPath, pathWithoutLocale } from "../app/features/i18n/locales.ts";
import { freePort, startAppServer } from "../tests/support/app-server.ts";
import { ensureChromium } from "./ensure-chromium.mjs";
import { benchCatalogue } from "./lib/bench-catalogue.mjs";
import { benchConsole } from "./lib/bench-console.mjs";
import { benchConsoleTrust } from "./lib/bench-console-trust.mjs";
import { benchContent } from "./lib/bench-content.mjs";
import { benchDelivery } from "./lib/bench-delivery.mjs";
import { benchOrders } from "./lib/bench-orders.mjs";
import { benchRecentSales } from "./lib/bench-recent-sales.mjs";
import { benchReleases } from "./lib/bench-releases.mjs";
import { benchShop } from "./lib/bench-shop.mjs";
import { benchSupportRelay } from "./lib/bench-support-relay.mjs";
import { benchSupportStreams } from "./lib/bench-support-streams.mjs";
import {
  BROWSER_HEADERS,
  CHROME_FLAGS,
  CONNECTIONS,
  DURATION,
  documentSize,
  FIRST_ROUND_TRIP_BYTES,
  kb,
  lighthouseRun,
  load,
  median,
  rssAfterGc,
  rssMb,
  SERVER_MALLOC_ARENA_MAX,
  SERVER_NODE_OPTIONS,
  spread,
} from "./lib/bench-measure.mjs";
import { startNoScriptCopy } from "./lib/no-script-copy.mjs";

const BUILD_DIR = process.env.BUILD_DIR ?? "build";
const ALL_LIGHTHOUSE_ROUTES = [
  "/",
  "/products",
  "/product/446894",
  "/status",
  "/faq",
  "/reviews",
  "/docs",
  "/reseller",
  // The same home and product pages in a left-to-right and a right-to-left translation (issue 21).
  "/de",
  "/de/product/446894",
  "/ar",
  "/ar/product/446894",
];
// BENCH_ROUTES="/,/faq" narrows Lighthouse to some routes while iterating on one change.
const LIGHTHOUSE_ROUTES = process.env.BENCH_ROUTES ? process.env.BENCH_ROUTES.split(",") : ALL_LIGHTHOUSE_ROUTES;
const LOAD_ROUTES = ["/", "/products", "/product/446894", "/de/product/446894", "/ar", "/status", "/api/status"];
// Lighthouse swings from run to run on a shared machine: report the median and range of several.
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ONLY = process.env.BENCH_ONLY;
const SECTIONS = [
  "catalogue",
  "shop",
  "orders",
  "support-relay",
  "support-streams",
  "delivery",
  "console",
  "console-trust",
  "recent-sales",
  "releases",
  "content",
];
if (ONLY !== undefined && !SECTIONS.includes(ONLY)) {
  console.error(
    `BENCH_ONLY: ${SECTIONS.map((s) => `"${s}"`).join(", ")} are the sections that run alone (got "${ONLY}")`,
  );
  process.exit(2);
}
// The support-relay section runs the reader under tsx against the emulator: no build, no server.
if (ONLY === "support-relay") {
  console.log(`# npm run bench — ${new Date().toISOString()} — ${os.cpus().length} CPU(s), Node ${process.version}`);
  await benchSupportRelay();
  process.exit(0);
}
// The releases section: upload and download of a large file in-process, beside a plain static server.
if (ONLY === "releases") {
  console.log(`# npm run bench — ${new Date().toISOString()} — ${os.cpus().length} CPU(s), Node ${process.version}`);
  await benchReleases();
  process.exit(0);
}
// The console-trust section too: both databases under tsx, no server.
if (ONLY === "console-trust") {
  console.log(`# npm run bench — ${new Date().toISOString()} — ${os.cpus().length} CPU(s), Node ${process.version}`);
  await benchConsoleTrust();
  process.exit(0);
}
// The content section too (issue 44): publish until shown, and reloads with 0 and 500 published revisions.
if (ONLY === "content") {
  console.log(`# npm run bench — ${new Date().toISOString()} — ${os.cpus().length} CPU(s), Node ${process.version}`);
  await benchContent();
  process.exit(0);
}
// The delivery section too: the three outboxes' workers under tsx against the test peers.
if (ONLY === "delivery") {
  console.log(`# npm run bench — ${new Date().toISOString()} — ${os.cpus().length} CPU(s), Node ${process.version}`);
  await benchDelivery();
  process.exit(0);
}

console.log(
  `# npm run bench — ${new Date().toISOString()} — ${os.cpus().length} CPU(s) ${os.cpus()[0]?.model ?? ""}, Node ${process.version}`,
);
if (process.env.BENCH_NO_BUILD) {
  if (!fs.existsSync(path.join(BUILD_DIR, "server"))) {
    console.error(
      `BENCH_NO_BUILD: no build in ${BUILD_DIR}/ (build it with BUILD_DIR=${BUILD_DIR} react-router build)`,
    );
    process.exit(1);
  }
  console.log(`using the build in ${BUILD_DIR}/ as it is (BENCH_NO_BUILD)`);
} else {
  console.log(`building into ${BUILD_DIR}/ ...`);
  // The CLI run by this Node (its shebang would take whichever `node` is first on PATH).
  const build = spawnSync(process.execPath, ["node_modules/.bin/react-router", "build"], {
    env: { ...process.env, BUILD_DIR },
    encoding: "utf8",
  });
  if (build.status !== 0) {
    console.error(build.stdout, build.stderr);
    process.exit(1);
  }
}

if (ONLY === undefined) await benchPages();
if (ONLY === "catalogue" || (ONLY === undefined && !process.env.BENCH_SKIP_CATALOGUE))
  await benchCatalogue({ buildDir: BUILD_DIR });
if (ONLY === "shop" || (ONLY === undefined && !process.env.BENCH_SKIP_SHOP)) await benchShop({ buildDir: BUILD_DIR });
if (ONLY === "orders" || (ONLY === undefined && !process.env.BENCH_SKIP_ORDERS))
  await benchOrders({ buildDir: BUILD_DIR });
if (ONLY === undefined && !process.env.BENCH_SKIP_SUPPORT_RELAY) await benchSupportRelay();
if (ONLY === undefined && !process.env.BENCH_SKIP_DELIVERY) await benchDelivery();
if (ONLY === undefined && !process.env.BENCH_SKIP_RELEASES) await benchReleases();
if (ONLY === "support-streams" || (ONLY === undefined && !process.env.BENCH_SKIP_SUPPORT_STREAMS))
  await benchSupportStreams({ buildDir: BUILD_DIR });
if (ONLY === "console" || (ONLY === undefined && !process.env.BENCH_SKIP_CONSOLE))
  await benchConsole({ buildDir: BUILD_DIR });
if (ONLY === undefined && !process.env.BENCH_SKIP_CONSOLE_TRUST) await benchConsoleTrust();
if (ONLY === "recent-sales" || (ONLY === undefined && !process.env.BENCH_SKIP_RECENT_SALES))
  await benchRecentSales({ buildDir: BUILD_DIR });

/** A copy of content/ wearing the theme file `themeFile`, with the brand/ folder beside that file. */
function contentWithTheme(themeFile) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kestrel-bench-theme-"));
  fs.cpSync("content", dir, { recursive: true });
  fs.copyFileSync(themeFile, path.join(dir, "theme.json"));
  const brand = path.join(path.dirname(themeFile), "brand");
  if (fs.existsSync(brand)) fs.cpSync(brand, path.join(dir, "brand"), { recursive: true });
  console.log(`theme: ${themeFile}`);
  return dir;
}

/** The page sections: first-load JS, documents, Lighthouse beside no-script copies, autocannon, memory. */
async function benchPages() {
  const server = await startAppServer({
    env: {
      BUILD_DIR,
      LOG_LEVEL: "warn",
      NODE_OPTIONS: SERVER_NODE_OPTIONS,
      MALLOC_ARENA_MAX: SERVER_MALLOC_ARENA_MAX,
      ...(process.env.BENCH_THEME ? { CONTENT_DIR: contentWithTheme(process.env.BENCH_THEME) } : {}),
    },
  });
  const pid = server.process.pid;
  const measureIdleRss = () => rssAfterGc(pid);

  try {
    // Warm-up: every page once, so code paths are compiled and first renders cached.
    for (const route of [...LIGHTHOUSE_ROUTES, ...LOAD_ROUTES])
      await (await fetch(server.url + route, { headers: BROWSER_HEADERS })).arrayBuffer();
    const idleRss = await measureIdleRss();

    console.log("\n## First-load JavaScript per page (from the build manifest, compressed as served)");
    console.log(
      "Code: the entry, root and route chunks with their imports; messages: the page's own, in its language.",
    );
    console.log("| route | files | raw | gzip-9 | brotli-11 (served to browsers) | of which messages (brotli) |");
    console.log("|---|---|---|---|---|---|");
    for (const route of LIGHTHOUSE_ROUTES) {
      const firstLoad = firstLoadJs(route);
      console.log(
        `| ${route} | ${firstLoad.files.length} | ${kb(firstLoad.raw)} KB | ${kb(firstLoad.gzip)} KB | ${kb(firstLoad.brotli)} KB | ${kb(firstLoad.messagesBrotli)} KB |`,
      );
    }

    console.log("\n## Documents as a browser gets them (compressed body + response headers)");
    console.log(
      `A new connection's first round trip carries ${FIRST_ROUND_TRIP_BYTES} bytes (10 TCP segments, as Lighthouse's simulation models it); a page past that waits one more round trip.`,
    );
    console.log(
      "A cached page's first response after a new render is brotli 10 (8 for searches and one-second pages); once asked again, 11 (10) is made in the background and kept per version (ADR 019). A page the warm-up asked for twice shows the better form in both columns.",
    );
    console.log("| route | first response: body + headers | once asked again: body + headers | first round trip |");
    console.log("|---|---|---|---|");
    const fits = (document) => document.body + document.headers <= FIRST_ROUND_TRIP_BYTES;
    for (const route of LIGHTHOUSE_ROUTES) {
      // A fresh render: the render cache keeps a page 5 s (1 s for the status page).
      await new Promise((resolve) => setTimeout(resolve, 5_500));
      const first = await documentSize(server.url + route);
      await documentSize(server.url + route);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const again = await documentSize(server.url + route);
      console.log(
        `| ${route} | ${first.body} + ${first.headers} B | ${again.body} + ${again.headers} B | ${fits(first) ? "fits" : "spills over"} / ${fits(again) ? "fits" : "spills over"} |`,
      );
    }

    console.log(
      `\n## Lighthouse ${(await import("lighthouse/package.json", { with: { type: "json" } })).default.version} (mobile, simulated throttling), ${LIGHTHOUSE_RUNS} run(s) per page: median (min–max)`,
    );
    console.log(
      "Each route beside the same page with its scripts taken out (the limit for that page); ratio = ours / no-script, medians;",
    );
    console.log("runs at target = the runs with performance 100 and TBT ≤ 50 ms, of those that completed.");
    // Blocking time scales with whatever else runs on the machine: the load says whether a run can be compared.
    console.log(
      `load average before: ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(" ")}`,
    );
    console.log(
      "| route | perf | FCP | LCP | TBT | CLS | a11y | BP | SEO | JS transferred | total transferred | runs at target | FCP ratio | LCP ratio |",
    );
    console.log("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    const chrome = process.env.BENCH_SKIP_LIGHTHOUSE
      ? undefined
      : await chromeLauncher.launch({
          chromePath: process.env.CHROME_PATH ?? ensureChromium(),
          chromeFlags: CHROME_FLAGS,
        });
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
      for (const route of LOAD_ROUTES)
        fs.writeFileSync(
          path.join(htmlDir, `${route.replace(/\//g, "_") || "_"}.html`),
          Buffer.from(await (await fetch(server.url + route)).arrayBuffer()),
        );
      const staticPort = await freePort();
      const staticServer = spawn(
        process.execPath,
        ["scripts/lib/static-html-server.mjs", htmlDir, String(staticPort)],
        { stdio: ["ignore", "pipe", "inherit"] },
      );
      await new Promise((resolve) => staticServer.stdout.once("data", resolve));

      console.log(`\n## autocannon (${CONNECTIONS} connections, ${DURATION} s each, no compression)`);
      console.log(
        `load average before: ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(" ")}`,
      );
      console.log(
        "| route | shop req/s | shop p50 | shop p99 | shop CPU/req | static req/s | static p50 | static p99 | static CPU/req | shop / static |",
      );
      console.log("|---|---|---|---|---|---|---|---|---|---|");
      for (const route of LOAD_ROUTES) {
        const shop = await load(server.url + route, undefined, pid);
        const baseline = await load(`http://127.0.0.1:${staticPort}${route}`, undefined, staticServer.pid);
        console.log(
          `| ${route} | ${shop.rps} | ${shop.p50} ms | ${shop.p99} ms | ${shop.cpuUs} µs | ${baseline.rps} | ${baseline.p50} ms | ${baseline.p99} ms | ${baseline.cpuUs} µs | ${Math.round((100 * shop.rps) / baseline.rps)}% |`,
        );
      }
      // What a browser gets: its Accept-Encoding makes cached pages go out brotli-encoded (compressed once per version).
      for (const route of ["/", "/product/446894"]) {
        const browser = await load(
          server.url + route,
          { headers: { "accept-encoding": "gzip, deflate, br, zstd" } },
          pid,
        );
        console.log(
          `| ${route} (a browser's Accept-Encoding: brotli) | ${browser.rps} | ${browser.p50} ms | ${browser.p99} ms | ${browser.cpuUs} µs | – | – | – | – | – |`,
        );
      }
      // Cache busting (a unique query string per request) forces a full render every time: the uncached floor.
      let n = 0;
      const uncached = await load(
        `${server.url}/product/446894`,
        { setupRequest: (req) => ({ ...req, path: `/product/446894?bench=${n++}` }) },
        pid,
      );
      console.log(
        `| /product/446894?unique (every request rendered) | ${uncached.rps} | ${uncached.p50} ms | ${uncached.p99} ms | ${uncached.cpuUs} µs | – | – | – | – | – |`,
      );
      console.log(
        `load average after: ${os
          .loadavg()
          .map((l) => l.toFixed(1))
          .join(" ")}`,
      );
      staticServer.kill();
      fs.rmSync(htmlDir, { recursive: true, force: true });

      const loadedRss = rssMb(pid);
      const idleAfter = await measureIdleRss();
      console.log("\n## Server memory (RSS)");
      console.log(
        `idle after warm-up + gc(): ${idleRss.toFixed(0)} MB; right after load: ${loadedRss.toFixed(0)} MB; idle again after gc(): ${idleAfter.toFixed(0)} MB`,
      );
    }
  } finally {
    await server.stop();
  }
}

/** "4/5": the runs that scored performance 100 with TBT ≤ 50 ms (the issue's per-run target), of those with figures. */
function runsAtTarget(runs) {
  const measured = runs.filter((r) => typeof r.perf === "number" && typeof r.tbt === "number");
  return `${measured.filter((r) => r.perf === 100 && r.tbt <= 50).length}/${measured.length}`;
}

/** A table row of medians with their ranges, ending in "|" before the ratio columns. */
function lighthouseRow(label, runs) {
  const column = (id, format) => spread(runs, id, format);
  const ms = (v) => `${Math.round(v)} ms`;
  const whole = (v) => String(Math.round(v));
  return `| ${label} | ${column("perf", whole)} | ${column("fcp", ms)} | ${column("lcp", ms)} | ${column("tbt", ms)} | ${column("cls", (v) => v.toFixed(3))} | ${column("a11y", whole)} | ${column("bp", whole)} | ${column("seo", whole)} | ${column("js", (v) => `${kb(v)} KB`)} | ${column("total", (v) => `${kb(v)} KB`)} |`;
}

/** The route module a page path is served by (`/de/product/1` → `routes/product`). */
function routeIdOf(route) {
  const segment = pathWithoutLocale(new URL(route, "http://x").pathname).split("/")[1];
  return `routes/${segment || "home"}`;
}

/**
 * JS a first visit to `route` downloads before it is interactive: entry, root and route chunks with their imports, and
 * the messages those chunks ask for in the page's language (docs/decisions/017).
 */
function firstLoadJs(route) {
  const manifestFile = fs.readdirSync(path.join(BUILD_DIR, "client/assets")).find((f) => /^manifest-.*\.js$/.test(f));
  const source = fs.readFileSync(path.join(BUILD_DIR, "client/assets", manifestFile), "utf8");
  const manifest = JSON.parse(source.slice(source.indexOf("{"), source.lastIndexOf("}") + 1));
  const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (const id of ["root", "routes/locale", routeIdOf(route)])
    for (const f of [manifest.routes[id]?.module, ...(manifest.routes[id]?.imports ?? [])]) if (f) files.add(f);
  const locale = localeOfPath(new URL(route, "http://x").pathname);
  const messages = [];
  for (const f of files) {
    const code = fs.readFileSync(path.join(BUILD_DIR, "client", f), "utf8");
    for (const [, key] of code.matchAll(/__kestrelMessages\|\|=\[\]\)\.push\(["'`]([^"'`]+)["'`]\)/g))
      messages.push(`/assets/messages/${key}.${locale}.js`);
  }
  let raw = 0;
  let gzip = 0;
  let brotli = 0;
  let messagesBrotli = 0;
  // Sizes as served: the build's precompressed twins (brotli 11, gzip 9), or compressed here the same way.
  for (const f of [...files, ...messages]) {
    const file = path.join(BUILD_DIR, "client", f);
    const bytes = fs.readFileSync(file);
    raw += bytes.length;
    gzip += fs.existsSync(`${file}.gz`) ? fs.statSync(`${file}.gz`).size : zlib.gzipSync(bytes, { level: 9 }).length;
    const served = fs.existsSync(`${file}.br`) ? fs.statSync(`${file}.br`).size : zlib.brotliCompressSync(bytes).length;
    brotli += served;
    if (messages.includes(f)) messagesBrotli += served;
  }
  return { files: [...files, ...messages], raw, gzip, brotli, messagesBrotli };
}
