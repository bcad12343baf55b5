import type express from "express";
import { INTERNAL_ERROR_MESSAGE } from "~/platform/api-errors";

/**
 * Requests no handler can read answer 4xx here, before they reach a feature or React Router: a method the Fetch API
 * cannot represent, a Host (or trusted X-Forwarded-Host/-Proto) that makes no URL, a path that does not decode.
 * Each gets a small page, or JSON `{error}` under /api, and one log line; none becomes a 500.
 */

/** Methods `new Request()` refuses; every other method reaches the routes, which answer 404/405 themselves. */
const UNREPRESENTABLE_METHODS = new Set(["CONNECT", "TRACE", "TRACK"]);
const PAGE_METHODS = "GET, HEAD, POST";
/** A host name (letters, digits, `.-_~`) or a bracketed IPv6 address, with an optional port. */
const VALID_HOST = /^(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

export const guardRequests: express.RequestHandler = (req, res, next) => {
  if (UNREPRESENTABLE_METHODS.has(req.method)) {
    res.set("Allow", PAGE_METHODS);
    return refuse(req, res, 405, "Method not allowed");
  }
  const host = req.headers.host;
  if (host === undefined || !VALID_HOST.test(host)) return refuse(req, res, 400, "Bad Host header");
  // req.hostname and req.protocol read X-Forwarded-Host/-Proto when the proxy is trusted: those must make a URL too.
  // Only asked when those headers are there, since each asks whether the proxy is trusted (the common request has none).
  if (req.headers["x-forwarded-host"] !== undefined && !VALID_HOST.test(req.hostname))
    return refuse(req, res, 400, "Bad Host header");
  if (req.headers["x-forwarded-proto"] !== undefined && req.protocol !== "http" && req.protocol !== "https")
    return refuse(req, res, 400, "Bad X-Forwarded-Proto header");
  try {
    decodeURIComponent(req.path);
  } catch {
    return refuse(req, res, 400, "Malformed URL");
  }
  next();
};

/**
 * The last error handler: a client error (a body or path Express could not read) keeps its 4xx, anything else is a
 * 500; either way one log line and a small answer, never a stack trace on stderr.
 */
export const answerErrors: express.ErrorRequestHandler = (
  error: { status?: unknown; statusCode?: unknown },
  req,
  res,
  _next,
) => {
  const status = Number(error?.status ?? error?.statusCode);
  const clientError = Number.isInteger(status) && status >= 400 && status < 500;
  if (clientError)
    req.log?.warn({ status, reason: error instanceof Error ? error.message : String(error) }, "request refused");
  else req.log?.error({ err: error }, "request failed");
  if (res.headersSent) {
    res.destroy();
    return;
  }
  refuse(req, res, clientError ? status : 500, clientError ? "Bad request" : INTERNAL_ERROR_MESSAGE, { logged: true });
};

function refuse(req: express.Request, res: express.Response, status: number, message: string, { logged = false } = {}) {
  if (!logged) req.log?.warn({ status, reason: message }, "request refused");
  res.status(status).set("Cache-Control", "no-store");
  if (req.originalUrl.startsWith("/api/") || req.originalUrl === "/api") {
    res.json({ error: message });
    return;
  }
  // A page of our own with nothing to run: no script or style may load, and nobody may frame it.
  res.set({ "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'", "X-Frame-Options": "DENY" });
  res
    .type("html")
    .send(
      `<!doctype html><html lang="en"><meta charset="utf-8"><title>${status} ${message}</title><h1>${message}</h1><p><a href="/">Kestrel storefront</a></p></html>`,
    );
}
