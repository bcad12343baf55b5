import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import { createCheckoutApi } from "~/features/checkout/checkout.api.server";
import { createOrdersApi } from "~/features/orders/orders.api.server";
import { mountRateLimits } from "./rate-limit.server";
import { createReviewsApi } from "~/features/reviews/reviews.api.server";
import { createStatusApi } from "~/features/status/status.api.server";
import { createSupportChatApi } from "~/features/support-chat/support-chat.api.server";

export const MAX_JSON_BODY_BYTES = 16 * 1024;

declare global {
  namespace Express {
    interface Request {
      /** The exact bytes of a JSON body (shop notification signatures are computed over them). */
      rawBody?: Buffer;
    }
  }
}

/** Writes with a body must be JSON: anything else is a 415 before any handler runs. */
const requireJsonContentType: RequestHandler = (req, res, next) => {
  const hasBody = Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined;
  if (["POST", "PUT", "PATCH"].includes(req.method) && hasBody && !req.is("application/json")) {
    res.status(415).json({ error: "Content-Type must be application/json" });
    return;
  }
  next();
};

/** Body parser failures become short JSON errors (413 too large, 400 malformed), never a stack trace. */
const jsonBodyErrors: ErrorRequestHandler = (error, _req, res, next) => {
  const type = (error as { type?: string }).type;
  if (type === "entity.too.large") {
    res.status(413).json({ error: `Request body too large (max ${MAX_JSON_BODY_BYTES / 1024} KB)` });
    return;
  }
  if (type === "entity.parse.failed") {
    res.status(400).json({ error: "Malformed JSON body" });
    return;
  }
  if (type === "encoding.unsupported" || type === "charset.unsupported") {
    res.status(415).json({ error: "Unsupported body encoding" });
    return;
  }
  if (typeof (error as { status?: number }).status === "number" && (error as { status: number }).status < 500) {
    res.status((error as { status: number }).status).json({ error: "Bad request" });
    return;
  }
  next(error);
};

/** JSON APIs under /api; each feature contributes one router (`app/features/<domain>/<domain>.api.server.ts`). */
export function createApiRouter() {
  const api = express.Router();
  api.use((_req, res, next) => {
    res.set("Cache-Control", "no-store");
    next();
  });
  // Abuse limits first: a flood is turned away before any body is read (shop notifications are exempt).
  mountRateLimits(api);
  api.use(requireJsonContentType);
  api.use(
    express.json({
      limit: MAX_JSON_BODY_BYTES,
      strict: false,
      verify: (req, _res, buf) => {
        (req as express.Request).rawBody = Buffer.from(buf);
      },
    }),
  );
  api.use(jsonBodyErrors);

  // Feature routers, one line each (e.g. api.use(createCheckoutApi())); keep them above the error handler.
  api.use(createReviewsApi());
  api.use(createCheckoutApi());
  api.use(createOrdersApi());
  api.use(createStatusApi());
  api.use(createSupportChatApi());

  // Any handler that throws answers a generic JSON 500; details go to the log only.
  const unexpected: ErrorRequestHandler = (error, req, res, _next) => {
    req.log?.error({ err: error }, "api error");
    if (!res.headersSent) res.status(500).json({ error: "Internal error" });
  };
  api.use(unexpected);
  return api;
}
