import crypto from "node:crypto";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import type express from "express";
import { createRequestHandler, type RouterContextProvider, type ServerBuild } from "react-router";
import { isSharedCacheable, serverRenderTtlMs } from "./cache-headers.server";
import { compressTemplate, type GzipTemplate, gzipChunks } from "./gzip-template.server";
import { SITE_CSS_BYTES } from "./site-css.server";

/**
 * Rendered-HTML cache for shareable pages (docs/decisions/009). A page is rendered once per URL per TTL (1 s live, 5 s content); each response
 * gets a fresh CSP nonce stamped into the cached template (body and CSP header), so the nonce stays per request.
 * ETags hash the template (nonce-free), so a revalidation answers 304 while the page is unchanged.
 */
const NONCE_SLOT = "__KESTREL_CSP_NONCE__";
/** Headers that describe one response, not the page; never copied from the cached render. */
const PER_RESPONSE_HEADERS = new Set(["content-length", "date", "set-cookie", "etag", "transfer-encoding", "connection"]);

interface CachedPage {
  /** The page split at each nonce (`body.parts`; a response joins them with its own nonce), and compressed once. */
  body: GzipTemplate;
  headers: Array<[string, string]>;
  etag: string;
  expiresAt: number;
}

export interface HtmlCacheOptions {
  /** Off in development, where every request should see the latest code. */
  enabled?: boolean;
  /** Most URLs kept (query strings make the key space open-ended). */
  maxEntries?: number;
}

export function createPageHandler(
  build: ServerBuild | (() => Promise<ServerBuild>),
  getLoadContext: (req: express.Request, res: express.Response) => RouterContextProvider,
  { enabled = true, maxEntries = 100 }: HtmlCacheOptions = {},
): express.RequestHandler {
  const handleRequest = createRequestHandler(build, process.env.NODE_ENV);
  const pages = new Map<string, CachedPage>();
  const inFlight = new Map<string, Promise<CachedPage | Response>>();

  async function render(req: express.Request, res: express.Response): Promise<CachedPage | Response> {
    const nonce = String(res.locals.nonce);
    const response = await handleRequest(toFetchRequest(req, res), getLoadContext(req, res));
    const cacheControl = response.headers.get("Cache-Control");
    const cacheable =
      enabled &&
      req.method === "GET" &&
      response.status === 200 &&
      (response.headers.get("Content-Type") ?? "").startsWith("text/html") &&
      !response.headers.has("Set-Cookie") &&
      isSharedCacheable(cacheControl);
    if (!cacheable) return response;
    const template = (await response.text()).replaceAll(nonce, NONCE_SLOT);
    const headers: Array<[string, string]> = [];
    for (const [name, value] of response.headers) if (!PER_RESPONSE_HEADERS.has(name)) headers.push([name, value.replaceAll(nonce, NONCE_SLOT)]);
    const etag = `W/"${crypto.createHash("sha1").update(template).digest("base64url")}"`;
    const body = compressTemplate(
      template.split(NONCE_SLOT).map((part) => Buffer.from(part)),
      [SITE_CSS_BYTES],
    );
    return { body, headers, etag, expiresAt: Date.now() + serverRenderTtlMs(cacheControl ?? "") };
  }

  function sendCached(req: express.Request, res: express.Response, page: CachedPage) {
    res.set("ETag", page.etag);
    const cacheControl = page.headers.find(([name]) => name === "cache-control")?.[1];
    if (cacheControl) res.set("Cache-Control", cacheControl);
    res.vary("Accept-Encoding");
    if (isFresh(req.headers["if-none-match"], page.etag)) {
      // No CSP on a 304: the browser keeps the stored header, whose nonce matches the stored body it reuses.
      res.status(304).end();
      return;
    }
    const nonce = String(res.locals.nonce);
    for (const [name, value] of page.headers) res.set(name, value.replaceAll(NONCE_SLOT, nonce));
    // The chunks go out as one corked writev: no per-response copy of the page, less garbage.
    const nonceBytes = Buffer.from(nonce);
    const gzip = wantsGzip(req);
    const chunks = gzip ? gzipChunks(page.body, nonceBytes) : page.body.parts.flatMap((part, index) => (index > 0 ? [nonceBytes, part] : [part]));
    // Already encoded: the compression middleware leaves a response with a Content-Encoding alone.
    if (gzip) res.set("Content-Encoding", "gzip");
    res.status(200).set("Content-Length", String(chunks.reduce((sum, chunk) => sum + chunk.length, 0)));
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    res.cork();
    for (const chunk of chunks) res.write(chunk);
    res.end();
    res.uncork();
  }

  return async (req, res, next) => {
    try {
      const key = req.originalUrl;
      if (req.method === "GET" || req.method === "HEAD") {
        const cached = pages.get(key);
        if (cached && cached.expiresAt > Date.now()) return sendCached(req, res, cached);
      }
      if (req.method !== "GET") return await sendResponse(res, await handleRequest(toFetchRequest(req, res), getLoadContext(req, res)));
      // Concurrent misses for one URL share a single render (no stampede when the entry expires under load).
      let pending = inFlight.get(key);
      const leader = pending === undefined;
      if (!pending) {
        pending = render(req, res).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      const result = await pending;
      if (result instanceof Response) {
        // Followers cannot share a streamed, uncacheable response: they render their own.
        return await sendResponse(res, leader ? result : await handleRequest(toFetchRequest(req, res), getLoadContext(req, res)));
      }
      if (leader) {
        if (pages.size >= maxEntries) pages.delete(pages.keys().next().value as string);
        pages.delete(key);
        pages.set(key, result);
      }
      sendCached(req, res, result);
    } catch (error) {
      next(error);
    }
  };
}

/** Gzip when the client says it takes it; a request without Accept-Encoding gets the page as is. */
function wantsGzip(req: express.Request): boolean {
  return req.headers["accept-encoding"] !== undefined && req.acceptsEncodings("gzip", "identity") === "gzip";
}

function isFresh(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t === etag || t === etag.slice(2) || `W/${t}` === etag;
  });
}

function toFetchRequest(req: express.Request, res: express.Response): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const host = (req.get("host") ?? "localhost").split(/[\\/?#@]/)[0] || "localhost";
  const url = new URL(`${req.protocol}://${host}${req.originalUrl}`);
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(url.href, init);
}

async function sendResponse(res: express.Response, response: Response) {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.status(response.status);
  for (const [name, value] of response.headers) {
    if (name === "set-cookie") res.append(name, value);
    else res.set(name, value);
  }
  if (response.body) {
    try {
      await writeReadableStreamToWritable(response.body, res);
    } catch (error) {
      if (!(res.destroyed || res.writableEnded)) throw error;
    }
  } else res.end();
}
