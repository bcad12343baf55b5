import { LOCALE_CODES } from "~/features/i18n/locales";
import { createRequestHandler as createExpressHandler } from "@react-router/express";
import { createHeaders } from "@remix-run/node-fetch-server";
import type express from "express";
import { LRUCache } from "lru-cache";
import {
  createRequestHandler,
  matchRoutes,
  type RouteObject,
  type RouterContextProvider,
  type ServerBuild,
} from "react-router";
import type { CachePolicy } from "~/lib/route-cache";
import { RENDER_TTL_MS, routeCachePolicyOf } from "./cache-headers.server";
import { brotliChunks } from "./brotli-template.server";
import { gzipChunks } from "./gzip-template.server";
import { type CachedPage, createRenderCache, headersWithNonce } from "./render-cache.server";
import { withPageStylesheet } from "./site-css.server";

type Build = ServerBuild | (() => Promise<ServerBuild>);

export interface PageHandlerOptions {
  /** Off in development, where every request should see the latest code. */
  cacheEnabled: boolean;
  /** Shared renders are made for this origin: a page kept for everyone must not depend on who asked. */
  publicUrl: string;
  /** NODE_ENV from the configuration: React Router shows error details in development only. */
  mode: string;
  /** Part of every stored page's key: the catalogue a page was rendered from, so no page outlives its prices. */
  cacheGeneration?: () => string;
}

/**
 * Pages. A document GET of a route whose `handle.cache` is "content" or "live" comes from the render cache
 * (docs/decisions/009); everything else (private pages, client navigations' `.data`, actions) goes through
 * React Router's Express adapter.
 */
export function createPageHandler(
  build: Build,
  getLoadContext: (req: express.Request, res: express.Response) => RouterContextProvider,
  { cacheEnabled, publicUrl, mode, cacheGeneration = () => "" }: PageHandlerOptions,
): express.RequestHandler {
  const adapter = createExpressHandler({ build, getLoadContext, mode });
  // The adapter appends React Router's headers to what Express set: a document brings its own X-Frame-Options
  // (entry.server.tsx), and a client navigation's data too (handleDataRequest), so the site-wide one gives way.
  const streamed: express.RequestHandler = (req, res, next) => {
    res.removeHeader("X-Frame-Options");
    return adapter(req, res, next);
  };
  // The adapter sends what it renders and keeps the Response to itself; a shared render is needed as text, and it
  // depends on the URL alone (no body, no cookies), so it goes to React Router's own handler as a bodiless Request.
  const renderFetch = createRequestHandler(build, mode);
  // Each language's pages are pages of their own: the paths' budget grows with the locales.
  const cache = createRenderCache({ finishHtml: withPageStylesheet, maxEntries: 75 * LOCALE_CODES.length });
  const origin = new URL(publicUrl).origin;

  // The build once loaded, for labelling requests without waiting on it.
  let server: ServerBuild | undefined = typeof build === "function" ? undefined : build;
  if (typeof build === "function")
    void build().then(
      (loaded) => (server = loaded),
      () => {},
    );
  // Asked only when the response ends (request metrics), so a page answered from the cache matches no route for it.
  const routeIdOf = (req: express.Request) => (server ? pageRouteId(server, req.path) : "other");
  return async (req, res, next) => {
    res.locals.pageRouteIdOf = routeIdOf;
    try {
      const documentRead = cacheEnabled && isDocumentRead(req);
      // A stored page answers before route matching, which ranks every route on each call (most of a hit's CPU).
      const url = `${cacheGeneration()} ${req.originalUrl}`;
      const stored = documentRead ? cache.get(url) : undefined;
      if (stored) return sendCached(req, res, stored);
      const policy = documentRead ? await cachePolicyFor(build, req.path) : "private";
      if (policy === "private") {
        // A small private page (handle.ownStylesheet) is rendered whole, so it can carry only its own rules too.
        if (req.method === "GET" && (await wantsOwnStylesheet(build, req.path)))
          return await sendRendered(res, await renderFetch(privateRenderRequest(req), getLoadContext(req, res)), {
            withOwnStylesheet: true,
          });
        return await streamed(req, res, next);
      }
      if (req.method === "HEAD") {
        const page = cache.get(url);
        return page ? sendCached(req, res, page) : await streamed(req, res, next);
      }
      const nonce = String(res.locals.nonce);
      const result = await cache.fetch(url, RENDER_TTL_MS[policy], async () => ({
        response: await renderFetch(sharedRenderRequest(req, origin), getLoadContext(req, res)),
        nonce,
      }));
      if ("page" in result) return sendCached(req, res, result.page);
      if ("uncacheable" in result) return sendRendered(res, result.uncacheable);
      // Another request's render could not be stored, and its streamed body is its own: render this one.
      return await streamed(req, res, next);
    } catch (error) {
      next(error);
    }
  };
}

/** A document read: GET or HEAD of a page, not a client navigation's data request. */
function isDocumentRead(req: express.Request): boolean {
  return (req.method === "GET" || req.method === "HEAD") && !req.path.endsWith(".data") && req.path !== "/__manifest";
}

const routeTrees = new WeakMap<ServerBuild["routes"], RouteObject[]>();

function routeTreeOf(server: ServerBuild): RouteObject[] {
  let tree = routeTrees.get(server.routes);
  if (!tree) {
    tree = routeTree(server.routes);
    routeTrees.set(server.routes, tree);
  }
  return tree;
}

/**
 * Whether a route matching `pathname` asks for its private page to inline only the stylesheet rules it uses
 * (`handle.ownStylesheet`: rendered whole instead of streamed), as cached pages do (docs/decisions/013).
 */
async function wantsOwnStylesheet(build: Build, pathname: string): Promise<boolean> {
  const server = typeof build === "function" ? await build() : build;
  const matches = matchRoutes(routeTreeOf(server), pathname, server.basename) ?? [];
  return matches.some(
    (match) =>
      (server.routes[match.route.id as string]?.module.handle as { ownStylesheet?: boolean } | undefined)
        ?.ownStylesheet === true,
  );
}

/** The caller's own request, cookies and all, as React Router's adapter would make it. */
function privateRenderRequest(req: express.Request): Request {
  return new Request(new URL(req.originalUrl, `${req.protocol}://${req.get("host") ?? "localhost"}`), {
    headers: createHeaders(req),
  });
}

/** The cache policy the routes matching `pathname` declare. */
async function cachePolicyFor(build: Build, pathname: string): Promise<CachePolicy> {
  const server = typeof build === "function" ? await build() : build;
  const matches = matchRoutes(routeTreeOf(server), pathname, server.basename) ?? [];
  return routeCachePolicyOf(matches.map((match) => server.routes[match.route.id as string]?.module.handle));
}

// Remembered per path, so labelling a cache hit costs a lookup, not a route match; bounded against random paths.
const routeIdsByPath = new LRUCache<string, string>({ max: 1_000 });

/** The id of the deepest route matching `pathname` (e.g. `routes/product`), for metrics; `unmatched` for none. */
export function pageRouteId(server: ServerBuild, pathname: string): string {
  const known = routeIdsByPath.get(pathname);
  if (known !== undefined) return known;
  const id = String(
    (matchRoutes(routeTreeOf(server), pathname, server.basename) ?? []).at(-1)?.route.id ?? "unmatched",
  );
  routeIdsByPath.set(pathname, id);
  return id;
}

/** The build's flat route manifest as the nested tree `matchRoutes` takes: React Router exports no way to it (docs/decisions/016). */
function routeTree(routes: ServerBuild["routes"], parentId?: string): RouteObject[] {
  return Object.values(routes)
    .filter((route) => route !== undefined && route.parentId === parentId)
    .map((route) => {
      const { id, path, caseSensitive } = route as NonNullable<typeof route>;
      if (route?.index) return { id, path, caseSensitive, index: true };
      return { id, path, caseSensitive, children: routeTree(routes, id) };
    });
}

/**
 * A GET of `req`'s URL at the public origin with its headers less the visitor's credentials, no body and no abort
 * signal: the render is kept for everyone and awaited by other requests, so the caller hanging up must not end it.
 * (node-fetch-server's `createRequest` would tie the signal to the caller's connection and keep the cookies.)
 */
export function sharedRenderRequest(req: express.Request, origin: string): Request {
  const headers = createHeaders(req);
  headers.delete("cookie");
  headers.delete("authorization");
  return new Request(new URL(req.originalUrl, origin), { headers });
}

/**
 * The caller's own render that could not be stored (a 404, a redirect, an error page): sent as it came. Not with
 * node-fetch-server's `sendResponse`, which changes the status line and drops Content-Length (docs/decisions/016).
 */
export async function sendRendered(res: express.Response, response: Response, { withOwnStylesheet = false } = {}) {
  res.status(response.status);
  // Its headers replace the site-wide ones of the same name (X-Frame-Options), as the adapter's do once those are cleared.
  for (const [name, value] of response.headers) {
    if (name === "set-cookie") res.append(name, value);
    else res.set(name, value);
  }
  if (withOwnStylesheet && (response.headers.get("Content-Type") ?? "").startsWith("text/html")) {
    const html = withPageStylesheet(await response.text());
    res.set("Content-Length", String(Buffer.byteLength(html)));
    res.end(html);
    return;
  }
  res.end(Buffer.from(await response.arrayBuffer()));
}

function sendCached(req: express.Request, res: express.Response, page: CachedPage) {
  res.set("ETag", page.etag);
  const cacheControl = page.headers.find(([name]) => name === "cache-control")?.[1];
  if (cacheControl) res.set("Cache-Control", cacheControl);
  res.vary("Accept-Encoding");
  if (req.fresh) {
    // No CSP on a 304: the browser keeps the stored header, whose nonce matches the stored body it reuses.
    res.status(304).end();
    return;
  }
  const nonce = String(res.locals.nonce);
  for (const [name, value] of headersWithNonce(page, nonce)) res.set(name, value);
  // The chunks go out as one corked writev: no per-response copy of the page, less garbage.
  const nonceBytes = Buffer.from(nonce);
  const encoding = encodingFor(req, page);
  const chunks =
    encoding === "br" && page.brotliHead
      ? brotliChunks(page.brotliHead, nonceBytes, page.body.parts[1] as Buffer)
      : encoding === "gzip"
        ? gzipChunks(page.body, nonceBytes)
        : page.body.parts.flatMap((part, index) => (index > 0 ? [nonceBytes, part] : [part]));
  // Already encoded: the compression middleware leaves a response with a Content-Encoding alone.
  if (encoding !== "identity") res.set("Content-Encoding", encoding);
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

/**
 * Brotli when the page has it ready and the client takes it at all (as servers commonly prefer it), else gzip when
 * the client takes that; a request without Accept-Encoding gets the page as is.
 */
function encodingFor(req: express.Request, page: CachedPage): "br" | "gzip" | "identity" {
  if (req.headers["accept-encoding"] === undefined) return "identity";
  if (page.brotliHead && req.acceptsEncodings("br") === "br") return "br";
  return req.acceptsEncodings("gzip", "identity") === "gzip" ? "gzip" : "identity";
}
