// The recent-sales notice's section of `npm run bench` (alone: BENCH_ONLY=recent-sales; left out:
// BENCH_SKIP_RECENT_SALES=1), issue 36: the home and product pages with `"recentSales": true` in a copy of content/
// and 3 demo-checkout orders (so the notice shows), beside the same pages with it off, Lighthouse runs interleaved:
// scores and timings, each document against the first round trip, and the notice's code loaded after the first paint.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import * as chromeLauncher from "chrome-launcher";
import { startAppServer } from "../../tests/support/app-server.ts";
import { ensureChromium } from "../ensure-chromium.mjs";
import {
  BROWSER_HEADERS,
  CHROME_FLAGS,
  documentSize,
  FIRST_ROUND_TRIP_BYTES,
  lighthouseRun,
  loadAverage,
  median,
  SERVER_MALLOC_ARENA_MAX,
  SERVER_NODE_OPTIONS,
  sleep,
  spread,
} from "./bench-measure.mjs";

const ROUTES = ["/", "/product/446894"];
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** The notice's code: its own chunk (recent-sales-mount.tsx imports it lazily) and that chunk's messages. */
const NOTICE_CODE = /\/assets\/(messages\/)?recent-sales-notice-[^/]+\.js$/;
/** Hours ago of the demo sales: 3 in the last 7 days, the fewest that show the notice. */
const SALES_HOURS_AGO = [2, 5, 9];

/** A copy of content/ with the notice switched on (the owner's `"recentSales": true` in site.json). */
function contentWithRecentSales() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kestrel-bench-recent-sales-"));
  fs.cpSync("content", dir, { recursive: true });
  const site = JSON.parse(fs.readFileSync(path.join(dir, "site.json"), "utf8"));
  fs.writeFileSync(path.join(dir, "site.json"), JSON.stringify({ ...site, recentSales: true }));
  return dir;
}

/** Completed demo-checkout orders, as tests/e2e/recent-sales.spec.ts inserts them. */
function insertDemoSales(dataDir) {
  const db = new DatabaseSync(path.join(dataDir, "store.db"));
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    const insert = db.prepare(
      `INSERT INTO orders (id, provider, provider_invoice_id, product_id, variant_id, quantity, amount_cents, status,
         created_at, completed_at, raw_event_id, shop_status, coupon, buyer_email)
       VALUES (?, 'demo', NULL, 446894, 653021, 1, 3999, 'completed', ?, ?, NULL, NULL, NULL, 'bench@example.com')`,
    );
    for (const hours of SALES_HOURS_AGO) {
      const at = new Date(Date.now() - hours * 3_600_000).toISOString();
      insert.run(crypto.randomUUID(), at, at);
    }
  } finally {
    db.close();
  }
}

export async function benchRecentSales({ buildDir }) {
  const env = {
    BUILD_DIR: buildDir,
    LOG_LEVEL: "warn",
    NODE_OPTIONS: SERVER_NODE_OPTIONS,
    MALLOC_ARENA_MAX: SERVER_MALLOC_ARENA_MAX,
  };
  const contentDir = contentWithRecentSales();
  const servers = {
    off: await startAppServer({ env }),
    on: await startAppServer({ env: { ...env, CONTENT_DIR: contentDir } }),
  };
  insertDemoSales(servers.on.dataDir);
  let chrome;
  try {
    for (const [state, server] of Object.entries(servers)) {
      const { sales } = await (await fetch(`${server.url}/api/recent-sales`)).json();
      console.log(`recent sales ${state}: /api/recent-sales answers ${sales.length} sale(s)`);
      if ((state === "on") !== sales.length >= 3) throw new Error(`the notice is not ${state} as it should be`);
      for (const route of ROUTES) await (await fetch(server.url + route, { headers: BROWSER_HEADERS })).arrayBuffer();
    }

    console.log("\n## The recent-sales notice on and off: documents (first response after a fresh render)");
    console.log("| route | recent sales | body + headers | first round trip |");
    console.log("|---|---|---|---|");
    for (const route of ROUTES)
      for (const [state, server] of Object.entries(servers)) {
        // A fresh render: the render cache keeps a page 5 s.
        await sleep(5_500);
        const document = await documentSize(server.url + route);
        const fits = document.body + document.headers <= FIRST_ROUND_TRIP_BYTES;
        console.log(
          `| ${route} | ${state} | ${document.body} + ${document.headers} B | ${fits ? "fits" : "spills over"} |`,
        );
      }

    console.log(
      `\n## The recent-sales notice on and off: Lighthouse (mobile, simulated throttling), ${RUNS} interleaved runs each, median (min–max)`,
    );
    console.log(`load average before: ${loadAverage()}`);
    console.log(
      "| route | recent sales | perf | FCP | LCP | TBT | CLS | JS transferred | all scripts asked for after first paint | the notice's code: files, bytes, asked for after first paint | runs at target |",
    );
    console.log("|---|---|---|---|---|---|---|---|---|---|---|");
    chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROME_PATH ?? ensureChromium(),
      chromeFlags: CHROME_FLAGS,
    });
    for (const route of ROUTES) {
      const runs = { off: [], on: [] };
      for (let run = 0; run < RUNS; run++)
        for (const [state, server] of Object.entries(servers))
          runs[state].push(await lighthouseRun(chrome, server.url.replace("127.0.0.1", "localhost") + route));
      for (const [state, measured] of Object.entries(runs)) console.log(row(route, state, measured));
    }
    console.log(`load average after: ${loadAverage()}`);
  } finally {
    await chrome?.kill();
    await Promise.all(Object.values(servers).map((server) => server.stop()));
    fs.rmSync(contentDir, { recursive: true, force: true });
  }
}

function row(route, state, runs) {
  const ms = (v) => `${Math.round(v)} ms`;
  const kb = (v) => `${(v / 1024).toFixed(1)} KB`;
  const late = runs.map((r) => ({
    ...r,
    lateBytes: r.scripts.filter((s) => s.msAfterPaint > 0).reduce((sum, s) => sum + s.bytes, 0),
    notice: r.scripts.filter((s) => NOTICE_CODE.test(s.url)),
  }));
  const withNotice = late.filter((r) => r.notice.length > 0);
  const bytes = (r) => r.notice.reduce((sum, s) => sum + s.bytes, 0);
  // The first of its files to be asked for: negative would mean the notice's code came before the first paint.
  const firstAfterPaint = (r) => Math.min(...r.notice.map((s) => s.msAfterPaint));
  const notice =
    withNotice.length === 0
      ? "not loaded"
      : `${withNotice[0].notice.length} files, ${median(withNotice.map(bytes))} B, from ${Math.round(median(withNotice.map(firstAfterPaint)))} ms (${withNotice.length}/${runs.length} runs)`;
  const atTarget = runs.filter((r) => r.perf === 100 && r.tbt <= 50).length;
  return `| ${route} | ${state} | ${spread(runs, "perf", (v) => String(Math.round(v)))} | ${spread(runs, "fcp", ms)} | ${spread(runs, "lcp", ms)} | ${spread(runs, "tbt", ms)} | ${spread(runs, "cls", (v) => v.toFixed(3))} | ${spread(runs, "js", kb)} | ${spread(late, "lateBytes", (v) => `${Math.round(v)} B`)} | ${notice} | ${atTarget}/${runs.length} |`;
}
