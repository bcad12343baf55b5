import express from "express";
import { pinoHttp } from "pino-http";
import type { ServerBuild } from "react-router";
import { getContent } from "~/features/content/content.server";
import { startReviewsRefresher } from "~/features/reviews/reviews.server";
import { seedStatusEntries } from "~/features/status/status.server";
import { startSupportDelivery } from "~/features/support-chat/support-chat.server";
import { createApiRouter } from "./api.server";
import { createLoadContext } from "./context.server";
import { closeDatabase, getDb, initDatabase, isDatabaseReachable } from "./db.server";
import { getEnv } from "./env.server";
import { createPageHandler } from "./html-cache.server";
import { configureLogger, logger } from "./logger.server";
import { closeRedis } from "./redis.server";
import { baseSecurityHeaders, createNonce } from "./security-headers.server";

const backgroundStops: Array<() => Promise<void> | void> = [];

/** Validates configuration and content, migrates and seeds the database; throws one readable message on failure. */
export async function boot() {
  const env = getEnv();
  configureLogger();
  const content = getContent();
  await initDatabase();
  await seedStatusEntries(getDb().db, content.status);
  // Background work (outbox delivery, reviews refresh) registers here with onShutdown(stop).
  onShutdown(startReviewsRefresher());
  onShutdown(startSupportDelivery());
  logger.info({ dialect: getDb().dialect, checkout: env.CHECKOUT_PROVIDER }, "storefront ready");
}

/** Stops background work and closes the database (SIGTERM). */
export async function shutdown() {
  for (const stop of backgroundStops.splice(0)) await stop();
  await closeDatabase();
  await closeRedis();
}

export function onShutdown(stop: () => Promise<void> | void) {
  backgroundStops.push(stop);
}

export function createApp(build: ServerBuild | (() => Promise<ServerBuild>)) {
  const env = getEnv();
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", "loopback, linklocal, uniquelocal");

  app.use(
    pinoHttp({
      logger,
      // One line per request: method, path (no query: it may carry order ids), status and time.
      serializers: {
        req: (req) => ({ method: req.method, url: String(req.url).split("?")[0] }),
        res: (res) => ({ statusCode: res.statusCode }),
      },
      autoLogging: { ignore: (req) => req.url === "/healthz" || req.url === "/readyz" },
    }),
  );

  const securityHeaders = baseSecurityHeaders(env);
  app.use((_req, res, next) => {
    res.set(securityHeaders);
    res.locals.nonce = createNonce();
    next();
  });

  app.get("/healthz", (_req, res) => {
    res.set("Cache-Control", "no-store").json({ ok: true });
  });
  app.get("/readyz", async (_req, res) => {
    const ok = await isDatabaseReachable();
    res.set("Cache-Control", "no-store").status(ok ? 200 : 503).json({ ok, database: ok ? "reachable" : "unreachable" });
  });

  const aliases = new Map(getContent().site.legacyAliases.map((a) => [a.path, a.productId]));
  app.use((req, res, next) => {
    const productId = aliases.get(req.path.replace(/\/$/, "") || "/");
    if (productId !== undefined && (req.method === "GET" || req.method === "HEAD")) {
      res.redirect(301, `/product/${productId}`);
      return;
    }
    next();
  });

  app.use("/api", createApiRouter());
  // Unknown API paths answer JSON, never the HTML 404 page.
  app.use("/api", (_req, res) => {
    res.status(404).json({ error: "Not found" });
  });

  // Pages: shareable ones are served from a short rendered-HTML cache with a fresh nonce each time (docs/decisions/009).
  app.all(
    "/{*splat}",
    createPageHandler(build, (_req, res) => createLoadContext(String(res.locals.nonce)), { enabled: env.NODE_ENV !== "development" }),
  );

  return app;
}

export const app = createApp(() => import("virtual:react-router/server-build") as Promise<ServerBuild>);
