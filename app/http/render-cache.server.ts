import crypto from "node:crypto";
import { LRUCache } from "lru-cache";
import { renderCacheLookups } from "~/platform/metrics.server";
import { isSharedCacheable } from "./cache-headers.server";
import { compressTemplate, type GzipTemplate } from "./gzip-template.server";

/**
 * Rendered HTML of shareable pages, per URL (docs/decisions/009). A render is stored with its CSP nonce cut out, so
 * every response can carry a fresh one; its ETag hashes the nonce-free page, so it survives re-renders.
 */
const NONCE_SLOT = "__KESTREL_CSP_NONCE__";
/** Headers that describe one response, not the page; never copied from the stored render. */
const PER_RESPONSE_HEADERS = new Set([
  "content-length",
  "date",
  "set-cookie",
  "etag",
  "transfer-encoding",
  "connection",
]);

export interface CachedPage {
  /** The page split at each nonce (`body.parts`; a response joins them with its own nonce), and compressed once. */
  body: GzipTemplate;
  /** Response headers with the nonce cut out like the body's. */
  headers: Array<[string, string]>;
  etag: string;
}

/** One render of the page, made with `nonce`. */
export interface PageRender {
  response: Response;
  nonce: string;
}

/** What a lookup gives the caller: a stored page, its own uncacheable render, or nothing (render it yourself). */
export type RenderCacheResult = { page: CachedPage } | { uncacheable: Response } | { rendered: false };

export interface RenderCacheOptions {
  /** Most URLs without a query string kept; the least recently used goes first. */
  maxEntries?: number;
  /**
   * Most URLs with a query string kept, apart from the others: searches make that key space open-ended, and a flood
   * of them must not push out the home page, the catalogue or the product pages.
   */
  maxQueryEntries?: number;
  /** Applied to a storable render's HTML once, before it is stored (the page's own part of the stylesheet). */
  finishHtml?: (html: string) => string;
}

interface RenderContext {
  render: () => Promise<PageRender>;
  /** Set by the fetch that ran this caller's render. */
  ranRender?: boolean;
  /** This caller's own render when it could not be stored: only it may send that streamed body. */
  uncacheable?: Response;
}

const CURRENCY_VIEW = /\?currency=[A-Z]{3}$/;

/** 75 + 25: the cache holds at most 100 pages. */
export function createRenderCache({
  maxEntries = 75,
  maxQueryEntries = 25,
  finishHtml = (html) => html,
}: RenderCacheOptions = {}) {
  const budget = (max: number) =>
    new LRUCache<string, CachedPage, RenderContext>({
      max,
      // An entry evicted while its render runs still answers the requests waiting on it.
      ignoreFetchAbort: true,
      fetchMethod: async (_url, _stale, { context }) => {
        context.ranRender = true;
        const { response, nonce } = await context.render();
        if (!isStorable(response)) {
          context.uncacheable = response;
          return undefined;
        }
        return storedPage(response, nonce, finishHtml);
      },
    });
  const pathPages = budget(maxEntries);
  const queryPages = budget(maxQueryEntries);
  // A page shown in another currency is one of a few fixed views, not a search: it shares the paths' budget.
  const pagesFor = (url: string) => (url.includes("?") && !CURRENCY_VIEW.test(url) ? queryPages : pathPages);

  return {
    /** A stored, unexpired render of `url`. */
    get(url: string): CachedPage | undefined {
      const page = pagesFor(url).get(url);
      if (page) renderCacheLookups.inc({ result: "hit" });
      return page;
    },

    /**
     * The page for `url`, rendering it on a miss; concurrent misses share one render. The render is kept for
     * `ttlMs` when storable; otherwise the caller that ran it gets the response, and the others `rendered: false`.
     */
    async fetch(url: string, ttlMs: number, render: () => Promise<PageRender>): Promise<RenderCacheResult> {
      const pages = pagesFor(url);
      const hit = pages.get(url);
      if (hit) {
        renderCacheLookups.inc({ result: "hit" });
        return { page: hit };
      }
      const context: RenderContext = { render };
      const page = await pages.fetch(url, { ttl: ttlMs, context });
      renderCacheLookups.inc({ result: context.ranRender ? "miss" : "shared" });
      if (page) return { page };
      if (context.uncacheable) return { uncacheable: context.uncacheable };
      return { rendered: false };
    },

    /** How many URLs are stored. */
    get size() {
      return pathPages.size + queryPages.size;
    },
  };
}

export type RenderCache = ReturnType<typeof createRenderCache>;

/** Only a plain successful HTML page that sets no cookie and that shared caches may keep is stored. */
function isStorable(response: Response): boolean {
  return (
    response.status === 200 &&
    (response.headers.get("Content-Type") ?? "").startsWith("text/html") &&
    !response.headers.has("Set-Cookie") &&
    isSharedCacheable(response.headers.get("Cache-Control"))
  );
}

async function storedPage(
  response: Response,
  nonce: string,
  finishHtml: (html: string) => string,
): Promise<CachedPage> {
  const template = finishHtml(await response.text()).replaceAll(nonce, NONCE_SLOT);
  const headers: Array<[string, string]> = [];
  for (const [name, value] of response.headers)
    if (!PER_RESPONSE_HEADERS.has(name)) headers.push([name, value.replaceAll(nonce, NONCE_SLOT)]);
  const etag = `W/"${crypto.createHash("sha1").update(template).digest("base64url")}"`;
  // Every nonce has the length of this one (createNonce), so the parts can be compressed as one stream.
  const body = compressTemplate(
    template.split(NONCE_SLOT).map((part) => Buffer.from(part)),
    Buffer.byteLength(nonce),
  );
  return { body, headers, etag };
}

/** The stored headers with `nonce` put back in. */
export function headersWithNonce(page: CachedPage, nonce: string): Array<[string, string]> {
  return page.headers.map(([name, value]) => [name, value.replaceAll(NONCE_SLOT, nonce)]);
}
