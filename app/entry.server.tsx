import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { InlineStylesheetContext } from "~/features/layout/inline-stylesheet";
import { documentCacheControl } from "~/server/cache-headers.server";
import { nonceContext } from "~/server/context.server";
import { getEnv } from "~/server/env.server";
import { SITE_CSS } from "~/server/site-css.server";
import { contentSecurityPolicy, frameOptions, routeSecurityOf } from "~/server/security-headers.server";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const nonce = loadContext.get(nonceContext);
  const matches = routerContext.staticHandlerContext.matches;
  const routeSecurity = routeSecurityOf(matches.map((m) => routerContext.routeModules[m.route.id]?.handle));
  const leafRouteId = matches.at(-1)?.route.id;
  // Crawlers and no-JS clients get the whole document at once; browsers get it streamed.
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || routerContext.isSpaMode;
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let abortTimer: ReturnType<typeof setTimeout> | undefined;
    const respond = () => {
      shellRendered = true;
      const body = new PassThrough();
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(getEnv(), [`'nonce-${nonce}'`], routeSecurity));
      responseHeaders.set("X-Frame-Options", frameOptions(routeSecurity));
      // A route's own `headers` export wins; otherwise the site-wide table in cache-headers.server.ts decides.
      if (!responseHeaders.has("Cache-Control")) responseHeaders.set("Cache-Control", documentCacheControl(leafRouteId, responseStatusCode));
      resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <InlineStylesheetContext value={{ css: SITE_CSS, nonce }}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </InlineStylesheetContext>,
      {
      nonce,
      onShellReady() {
        if (!waitForAll) respond();
      },
      onAllReady() {
        // A pending abort timer would keep this render (and its whole response) alive for 6 s.
        clearTimeout(abortTimer);
        if (waitForAll) respond();
      },
      onShellError(error: unknown) {
        clearTimeout(abortTimer);
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        if (shellRendered) console.error(error);
      },
    });
    abortTimer = setTimeout(abort, streamTimeout + 1000);
  });
}
