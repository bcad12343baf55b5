import { PassThrough, pipeline } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, ErrorResponse, HandleErrorFunction, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import { I18nProvider } from "@lingui/react";
import { productImageOrigins } from "~/features/catalog/catalogue.server";
import { i18nFor } from "~/features/i18n/i18n.server";
import { localeOfPath } from "~/features/i18n/locales";
import { provideTranslators } from "~/features/i18n/translator";
import { InlineStylesheetContext } from "~/features/layout/inline-stylesheet";
import { documentCacheControl, routeCachePolicyOf } from "~/http/cache-headers.server";
import { nonceContext } from "~/http/context.server";
import { holdModuleScripts } from "~/http/hold-module-scripts.server";
import { getEnv } from "~/platform/env.server";
import { logger } from "~/platform/logger.server";
import { siteStylesheet } from "~/http/site-css.server";
import { contentSecurityPolicy, frameOptions, routeSecurityOf } from "~/http/security-headers.server";

export const streamTimeout = 5_000;

provideTranslators(i18nFor);

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const nonce = loadContext.get(nonceContext);
  const matches = routerContext.staticHandlerContext.matches;
  const handles = matches.map((m) => routerContext.routeModules[m.route.id]?.handle);
  const routeSecurity = routeSecurityOf(handles);
  const cachePolicy = routeCachePolicyOf(handles);
  // Crawlers and no-JS clients get the whole document at once; browsers get it streamed, except a shareable page: the
  // render cache stores it whole for everyone, and streamed it would carry React's boundary scripts (~0.6 KB gzip).
  const waitForAll =
    isbot(request.headers.get("user-agent") ?? "") || routerContext.isSpaMode || cachePolicy !== "private";
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let abortTimer: ReturnType<typeof setTimeout> | undefined;
    const respond = () => {
      shellRendered = true;
      const body = new PassThrough();
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      responseHeaders.set(
        "Content-Security-Policy",
        contentSecurityPolicy(getEnv(), [`'nonce-${nonce}'`], routeSecurity, productImageOrigins()),
      );
      responseHeaders.set("X-Frame-Options", frameOptions(routeSecurity));
      // A route's own `headers` export wins; otherwise its `handle.cache` decides.
      if (!responseHeaders.has("Cache-Control"))
        responseHeaders.set("Cache-Control", documentCacheControl(cachePolicy, responseStatusCode));
      // React Router answers 405 for a method the page has no action for: say which methods it takes.
      if (responseStatusCode === 405) responseHeaders.set("Allow", "GET, HEAD");
      // In production the framework's scripts wait for the first paint (Vite's dev client must run at once).
      // pipeline, not pipe: an aborted render or a closed connection ends both streams.
      const sent = import.meta.env.PROD ? pipeline(body, holdModuleScripts(), () => {}) : body;
      resolve(
        new Response(createReadableStreamFromReadable(sent), { headers: responseHeaders, status: responseStatusCode }),
      );
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <InlineStylesheetContext value={{ css: siteStylesheet().css, nonce }}>
        <I18nProvider i18n={i18nFor(localeOfPath(new URL(request.url).pathname))}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </I18nProvider>
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
          if (shellRendered)
            logger.error(
              { err: error, path: new URL(request.url).pathname },
              "page render failed after the shell was sent",
            );
        },
      },
    );
    abortTimer = setTimeout(abort, streamTimeout + 1000);
  });
}

/** A client navigation's data: framing is refused like the page's (the Express-level header is left to documents). */
export function handleDataRequest(response: Response) {
  if (!response.headers.has("X-Frame-Options")) response.headers.set("X-Frame-Options", "DENY");
  return response;
}

/**
 * Errors React Router meets while answering (a loader that throws, a method a page does not take) become one log
 * line each; its default prints whole stack traces to stderr. Refusals of the request (4xx) are warnings.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  const where = { method: request.method, path: new URL(request.url).pathname };
  if (isRouteErrorResponse(error) && error.status < 500) {
    logger.warn({ ...where, status: error.status, reason: refusalReason(error) }, "page request refused");
    return;
  }
  logger.error({ ...where, err: error }, "page request failed");
};

/** React Router keeps the Error behind its own refusals as that Error's text in the public `data`. */
const ERROR_TEXT_PREFIX = "Error: ";

/** Why a request was refused: the Error it was refused with (the 405's explanation), else the status text. */
function refusalReason(error: ErrorResponse): string {
  const { data } = error;
  return typeof data === "string" && data.startsWith(ERROR_TEXT_PREFIX)
    ? data.slice(ERROR_TEXT_PREFIX.length)
    : error.statusText;
}
