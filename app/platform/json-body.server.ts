import express, { type ErrorRequestHandler, type RequestHandler } from "express";

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

/**
 * Reads a JSON body (at most MAX_JSON_BODY_BYTES) into `req.body` and `req.rawBody`, answering 415/413/400 JSON when
 * it cannot. API routes put it after their rate limit, so a flood is turned away before any body is read.
 */
export const jsonBody: Array<RequestHandler | ErrorRequestHandler> = [
  requireJsonContentType,
  express.json({
    limit: MAX_JSON_BODY_BYTES,
    strict: false,
    verify: (req, _res, buf) => {
      (req as express.Request).rawBody = Buffer.from(buf);
    },
  }),
  jsonBodyErrors,
];
