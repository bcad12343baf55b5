import crypto from "node:crypto";
import { LRUCache } from "lru-cache";
import { renderCacheLookups } from "~/platform/metrics.server";
import { isSharedCacheable } from "./cache-headers.server";
import { compressBrotliHead, MAX_BROTLI_TAIL } from "./brotli-template.server";
import { compressTemplate, type GzipTemplate } from "./gzip-template.server";
import { allowInlineCodeByHash, withHashSources } from "./inline-code-hashes.server";

/**
 * Rendered HTML of shareable pages, per URL (docs/decisions/009). A render is stored with its CSP nonce cut out, so
 * every response can carry a fresh one; its ETag hashes the nonce-free page, so it survives re-renders. Its inline
 * code is allowed by hash, leaving the nonce on its last element only (docs/decisions/019), so that it can also be
 * sent brotli-compressed: at a quick quality from its first response, at a better one once it is asked for again.
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
  /**
   * Everything before the one nonce, brotli-compressed (brotli-template.server.ts) when stored, and again at
   * `betterBrotli`'s quality once the page is asked for a second time. None when the nonce is not near the end.
   */
  brotliHead?: Buffer;
  /** The quality the page is compressed at once asked for again; undefined when it has it. */
  betterBrotli?: 10 | 11;
}

/**
 * Brotli qualities for a stored page: first when it is stored (awaited, on the thread pool), better once it is asked
 * for again (in the background). A page of the paths' budget (a bounded set) kept 5 s starts at 10 (~13 ms), which
 * fits the product pages in the first round trip from their first response; a search (open-ended: a flood of them
 * must not cost that) or a page kept one second, whose "last updated" changes with every render, starts at 8 (~1 ms).
 * A page kept one second ends at 10 (~1/3 of 11's CPU), as it is made again about as often.
 */
function brotliQualities(ttlMs: number, pathPage: boolean): { first: 8 | 10; better?: 10 | 11 } {
  if (ttlMs < 5_000) return { first: 8, better: 10 };
  return pathPage ? { first: 10, better: 11 } : { first: 8, better: 11 };
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
  ttlMs: number;
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
  // A re-render of an unchanged page (the same ETag) takes the better brotli bytes of the one before at once.
  const betterBrotliHeads = new LRUCache<string, Buffer>({ max: maxEntries + maxQueryEntries });
  const budget = (max: number, pathPages: boolean) =>
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
        return storedPage(response, nonce, finishHtml, {
          ...brotliQualities(context.ttlMs, pathPages),
          known: (etag) => betterBrotliHeads.get(etag),
        });
      },
    });
  const pathPages = budget(maxEntries, true);
  const queryPages = budget(maxQueryEntries, false);
  // A page shown in another currency is one of a few fixed views, not a search: it shares the paths' budget.
  const pagesFor = (url: string) => (url.includes("?") && !CURRENCY_VIEW.test(url) ? queryPages : pathPages);
  const compressing = new Set<string>();
  /**
   * Better brotli once a stored page is asked for again, in the background (a page asked for once, like each of a
   * flood of searches, never costs it); until then the quick one goes out.
   */
  const compressOnRepeat = (page: CachedPage) => {
    const quality = page.betterBrotli;
    if (!quality || compressing.has(page.etag)) return;
    // Made meanwhile for another render of the same version.
    const known = betterBrotliHeads.get(page.etag);
    if (known) {
      page.brotliHead = known;
      page.betterBrotli = undefined;
      return;
    }
    compressing.add(page.etag);
    compressBrotliHead(page.body.parts[0] as Buffer, quality)
      .then(
        (head) => {
          page.brotliHead = head;
          page.betterBrotli = undefined;
          betterBrotliHeads.set(page.etag, head);
        },
        // Only an optimisation: the quick brotli keeps going out.
        () => {},
      )
      .finally(() => compressing.delete(page.etag));
  };
  return {
    /** A stored, unexpired render of `url`. */
    get(url: string): CachedPage | undefined {
      const page = pagesFor(url).get(url);
      if (page) {
        renderCacheLookups.inc({ result: "hit" });
        compressOnRepeat(page);
      }
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
        compressOnRepeat(hit);
        return { page: hit };
      }
      const context: RenderContext = { render, ttlMs };
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

/** A page that is one nonce near its end away from fixed bytes, which brotli-template.server.ts can send. */
function hasBrotliShape(body: GzipTemplate): boolean {
  return body.parts.length === 2 && (body.parts[1] as Buffer).length <= MAX_BROTLI_TAIL;
}

async function storedPage(
  response: Response,
  nonce: string,
  finishHtml: (html: string) => string,
  brotli: { first: 8 | 10; better?: 10 | 11; known: (etag: string) => Buffer | undefined },
): Promise<CachedPage> {
  const { html, scriptHashes, styleHashes } = allowInlineCodeByHash(finishHtml(await response.text()), nonce);
  const template = html.replaceAll(nonce, NONCE_SLOT);
  const headers: Array<[string, string]> = [];
  for (const [name, value] of response.headers) {
    if (PER_RESPONSE_HEADERS.has(name)) continue;
    const hashed =
      name === "content-security-policy"
        ? withHashSources(withHashSources(value, "script-src", nonce, scriptHashes), "style-src", nonce, styleHashes)
        : value;
    headers.push([name, hashed.replaceAll(nonce, NONCE_SLOT)]);
  }
  const etag = `W/"${crypto.createHash("sha1").update(template).digest("base64url")}"`;
  // Every nonce has the length of this one (createNonce), so the parts can be compressed as one stream.
  const body = compressTemplate(
    template.split(NONCE_SLOT).map((part) => Buffer.from(part)),
    Buffer.byteLength(nonce),
  );
  if (!hasBrotliShape(body)) return { body, headers, etag };
  const known = brotli.known(etag);
  if (known) return { body, headers, etag, brotliHead: known };
  const brotliHead = await compressBrotliHead(body.parts[0] as Buffer, brotli.first);
  return { body, headers, etag, brotliHead, betterBrotli: brotli.better };
}

/** The stored headers with `nonce` put back in. */
export function headersWithNonce(page: CachedPage, nonce: string): Array<[string, string]> {
  return page.headers.map(([name, value]) => [name, value.replaceAll(NONCE_SLOT, nonce)]);
}
