// The shop-source section of `npm run bench` (alone: BENCH_ONLY=shop): the catalogue read from the SellAuth emulator
// (1,000 public products over 11 pages), measured like the content source: boot until the first sync is served, the
// full sync's time, idle memory, documents, Lighthouse, uncached render CPU, and how long a price change takes from
// its notification to the page.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import { updateVariant } from "../../tests/fakes/shop-catalogue.ts";
import { startShopEmulator } from "../../tests/fakes/shop-emulator.ts";
import { freePort, startAppServer } from "../../tests/support/app-server.ts";
import { ensureChromium } from "../ensure-chromium.mjs";
import {
  CHROME_FLAGS,
  documentSize,
  FIRST_ROUND_TRIP_BYTES,
  lighthouseRun,
  load,
  loadAverage,
  rssAfterGc,
  SERVER_MALLOC_ARENA_MAX,
  SERVER_NODE_OPTIONS,
  sleep,
  spread,
} from "./bench-measure.mjs";

/** 6 demo products, one the content does not describe, and these: 1,000 listed (plus a hidden and a malformed one). */
const EXTRA_PRODUCTS = 993;
const SEARCH_URL = "/products?q=vault&sort=price-asc&page=3";
const DOCUMENT_URLS = ["/products", SEARCH_URL, "/product/446894"];
const SECRET = crypto.randomBytes(16).toString("hex");

async function metricValue(metricsUrl, pattern) {
  const text = await (await fetch(metricsUrl)).text();
  return Number(pattern.exec(text)?.[1] ?? Number.NaN);
}

export async function benchShop({ buildDir }) {
  const runs = Number(process.env.BENCH_CATALOGUE_RUNS ?? 3);
  console.log(
    `\n## Shop source: ${(EXTRA_PRODUCTS + 7).toLocaleString("en-US")} products through the SellAuth emulator (load average ${loadAverage()})`,
  );
  const shop = await startShopEmulator({ extraProducts: EXTRA_PRODUCTS });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "kestrel-bench-shop-"));
  const metricsPort = await freePort();
  let server;
  try {
    const spawned = Date.now();
    server = await startAppServer({
      dataDir,
      env: {
        BUILD_DIR: buildDir,
        LOG_LEVEL: "warn",
        NODE_OPTIONS: SERVER_NODE_OPTIONS,
        MALLOC_ARENA_MAX: SERVER_MALLOC_ARENA_MAX,
        METRICS_PORT: String(metricsPort),
        CATALOG_SOURCE: "sellauth",
        SHOP_API_BASE: shop.url,
        SHOP_ID: shop.shopId,
        SHOP_API_KEY: shop.apiKey,
        SHOP_WEBHOOK_SECRET: SECRET,
      },
    });
    while ((await fetch(`${server.url}/readyz`)).status !== 200) await sleep(50);
    const readyMs = Date.now() - spawned;
    const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    const syncSeconds = await metricValue(
      metricsUrl,
      /^kestrel_catalogue_sync_duration_seconds_sum\{kind="full"\} (\S+)$/m,
    );
    const pid = server.process.pid;
    for (const url of DOCUMENT_URLS) await (await fetch(server.url + url)).arrayBuffer();
    const rss = await rssAfterGc(pid);
    const documents = {};
    for (const url of DOCUMENT_URLS) documents[url] = await documentSize(server.url + url);

    // A price changed at the shop, notified once: how long until the product page shows it.
    shop.notifyOnPay(`${server.url}/api/shop/notifications`, SECRET);
    updateVariant(shop.catalogue, 446894, 653023, { price: "279.00" });
    const notified = Date.now();
    await shop.notifyCatalogue("NOTIFICATION.SHOP_PRODUCT_UPDATED", { product_id: 446894 });
    for (;;) {
      const html = await (await fetch(`${server.url}/product/446894?duration=lifetime`)).text();
      if (html.includes("$279.00")) break;
      if (Date.now() - notified > 30_000) throw new Error("the price change never reached the page");
      await sleep(20);
    }
    const propagationMs = Date.now() - notified;

    let n = 0;
    const uncached = await load(
      server.url + SEARCH_URL,
      { setupRequest: (req) => ({ ...req, path: `${SEARCH_URL}&bench=${n++}` }) },
      pid,
    );

    const lighthouse = {};
    if (!process.env.BENCH_SKIP_LIGHTHOUSE) {
      const chrome = await chromeLauncher.launch({
        chromePath: process.env.CHROME_PATH ?? ensureChromium(),
        chromeFlags: CHROME_FLAGS,
      });
      try {
        for (const url of DOCUMENT_URLS) {
          lighthouse[url] = [];
          for (let run = 0; run < runs; run++)
            lighthouse[url].push(await lighthouseRun(chrome, server.url.replace("127.0.0.1", "localhost") + url));
        }
      } finally {
        await chrome.kill();
      }
    }

    console.log(
      "| boot until the first sync is served | full sync (metric) | idle RSS | price change, notification → page | uncached render CPU (search page) |",
    );
    console.log("|---:|---:|---:|---:|---:|");
    console.log(
      `| ${readyMs} ms | ${(syncSeconds * 1000).toFixed(0)} ms | ${rss.toFixed(0)} MB | ${propagationMs} ms | ${(uncached.cpuUs / 1000).toFixed(2)} ms |`,
    );
    console.log("| URL | document (gzip + headers) | first round trip | perf | TBT | LCP |");
    console.log("|---|---:|---|---:|---:|---:|");
    const ms = (v) => `${Math.round(v)} ms`;
    for (const url of DOCUMENT_URLS) {
      const d = documents[url];
      const total = d.body + d.headers;
      const lh = lighthouse[url];
      const cells = lh
        ? `${spread(lh, "perf", (v) => String(Math.round(v)))} | ${spread(lh, "tbt", ms)} | ${spread(lh, "lcp", ms)}`
        : "– | – | –";
      console.log(
        `| ${url}${d.status === 200 ? "" : ` (${d.status})`} | ${total.toLocaleString("en-US")} B | ${total <= FIRST_ROUND_TRIP_BYTES ? "fits" : "spills over"} | ${cells} |`,
      );
    }
  } finally {
    await server?.stop();
    await shop.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
