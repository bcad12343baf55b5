// Crawls the shop from `/` like a visitor: every internal link, image, stylesheet, script and icon must answer
// below 400, and every #fragment must name an element on its target page.
import * as cheerio from "cheerio";
import { runSweep } from "../lib/sweep-support.mjs";

const MAX_PAGES = 400;

await runSweep("crawl from / finds no broken internal link or image", async (server) => {
  const origin = new URL(server.url).origin;
  const publicOrigin = `http://localhost:${server.port}`;
  const problems = [];
  const pages = new Map(); // path+search -> Set of element ids (HTML pages only)
  const checked = new Map(); // url -> status
  const fragments = []; // [target path, fragment, found on]
  const queue = ["/"];
  const linkedFrom = new Map([["/", "(start)"]]);

  const toInternal = (raw, from) => {
    if (!raw || /^(mailto|tel|javascript|data):/i.test(raw)) return undefined;
    const url = new URL(raw, origin + from);
    if (url.origin !== origin && url.origin !== publicOrigin) return undefined;
    return url;
  };

  async function check(pathAndSearch, from) {
    if (checked.has(pathAndSearch)) return checked.get(pathAndSearch);
    const res = await fetch(origin + pathAndSearch, { redirect: "follow" });
    checked.set(pathAndSearch, res.status);
    if (res.status >= 400) problems.push(`${pathAndSearch} answered ${res.status} (linked from ${from})`);
    await res.arrayBuffer();
    return res.status;
  }

  while (queue.length && pages.size < MAX_PAGES) {
    const path = queue.shift();
    if (pages.has(path)) continue;
    const res = await fetch(origin + path, { redirect: "follow" });
    const finalPath = new URL(res.url).pathname + new URL(res.url).search;
    const html = await res.text();
    checked.set(path, res.status);
    if (!(res.headers.get("content-type") ?? "").includes("text/html")) {
      pages.set(path, new Set());
      continue;
    }
    const $ = cheerio.load(html);
    pages.set(
      path,
      new Set(
        $("[id]")
          .map((_, el) => $(el).attr("id"))
          .get(),
      ),
    );
    if (finalPath !== path) pages.set(finalPath, pages.get(path));
    const refs = [];
    $("a[href], area[href]").each((_, el) => refs.push({ raw: $(el).attr("href"), page: true }));
    $("img[src], script[src], source[src], iframe[src]:not([src^='http'])").each((_, el) =>
      refs.push({ raw: $(el).attr("src") }),
    );
    $("link[href]").each((_, el) => refs.push({ raw: $(el).attr("href"), page: $(el).attr("rel") === "canonical" }));
    $("img[srcset], source[srcset]").each((_, el) => {
      for (const candidate of ($(el).attr("srcset") ?? "").split(","))
        refs.push({ raw: candidate.trim().split(/\s+/)[0] });
    });
    for (const { raw, page } of refs) {
      const url = toInternal(raw, path);
      if (!url) continue;
      const target = url.pathname + url.search;
      if (url.pathname.startsWith("/api/")) continue;
      if (url.hash.length > 1) fragments.push([target, decodeURIComponent(url.hash.slice(1)), path]);
      if (page) {
        if (!pages.has(target) && !queue.includes(target)) {
          queue.push(target);
          linkedFrom.set(target, path);
        }
      } else await check(target, path);
    }
  }
  for (const [path, status] of checked)
    if (status >= 400 && !problems.some((p) => p.startsWith(`${path} `)))
      problems.push(`${path} answered ${status} (linked from ${linkedFrom.get(path) ?? "?"})`);
  for (const [target, id, from] of fragments) {
    const ids = pages.get(target);
    if (ids && (checked.get(target) ?? 200) < 400 && !ids.has(id))
      problems.push(`${from} links to ${target}#${id}, but no element has id="${id}"`);
  }
  console.log(`crawled ${pages.size} pages, checked ${checked.size} URLs, ${fragments.length} fragment links`);
  return problems;
});
