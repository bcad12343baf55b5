import express from "express";
import { pinoHttp } from "pino-http";
import type { ServerBuild } from "react-router";
import { legacyAliasRedirects } from "~/features/catalog/legacy-aliases.server";
import {
  catalogueProblem,
  catalogueVersion,
  getCatalogue,
  startCatalogueSync,
} from "~/features/catalog/catalogue.server";
import { getContent, loadedContentVersion } from "~/features/content/content.server";
import { startContentLive } from "~/features/content/content-live.server";
import { createContentPreviewHandler, PREVIEW_PATH } from "./content-preview.server";
import { LOCALE_CODES } from "~/features/i18n/locales";
import { startMailDelivery } from "~/features/mail/mail.server";
import { startSignInRetention } from "~/features/buyer-orders/retention.server";
import { startConsoleRetention } from "~/features/staff/staff-retention.server";
import { startReviewsRefresher } from "~/features/reviews/reviews.server";
import { startStatusMonitor } from "~/features/status/status-monitor.server";
import { seedStatusEntries } from "~/features/status/status.server";
import { createDownloadRouter } from "~/features/releases/release-download.server";
import { importDemoReleases } from "~/features/releases/release-seed.server";
import { startStatusNews, statusGeneration } from "~/features/status/status-news.server";
import { startConversationLive } from "~/features/support-conversation/conversation-live.server";
import { startSupportDelivery } from "~/features/support-relay/support-relay.server";
import { startUnseenReplyMail } from "~/features/support-conversation/conversation-mail.server";
import { createApiRouter } from "./api.server";
import { createLoadContext } from "./context.server";
import { createPageHandler } from "./page-handler.server";
import { answerErrors, guardRequests } from "./request-guard.server";
import { recordRequestMetrics } from "./request-metrics.server";
import { closeDatabase, initDatabase, isDatabaseReachable } from "~/platform/db.server";
import { type Env, getEnv } from "~/platform/env.server";
import { configureLogger, logger } from "~/platform/logger.server";
import { closeRedis } from "~/platform/redis.server";
import { baseSecurityHeaders, createNonce } from "./security-headers.server";
import { serveSiteCss } from "./site-css.server";
import { serveBrandAssets } from "~/features/theme/brand-assets.server";
import { getShopTheme } from "~/features/theme/theme.server";

export { logger } from "~/platform/logger.server";
export { answerErrors } from "./request-guard.server";
export { createMetricsListener } from "./metrics-server.server";

/** `/admin…` and `/<locale>/admin…`. */
const CONSOLE_PATHS = /^\/(?:[a-z]{2}(?:-[a-z]{2})?\/)?admin(?:[/.]|$)/;

const backgroundStops: Array<() => Promise<void> | void> = [];
/** Set at SIGTERM: /readyz answers 503 so load balancers stop sending new work while requests drain. */
let stopping = false;

/**
 * Validates configuration and content, migrates and seeds the database, starts background work; returns the
 * configuration. Throws one readable message on failure.
 */
export async function boot(): Promise<Env> {
  const env = getEnv();
  configureLogger();
  const content = getContent();
  // Every translation is validated at boot too: a broken file fails here, not on some visitor's page.
  for (const locale of LOCALE_CODES) getContent(locale);
  // The catalogue's search index is built before the first request, not by it.
  getCatalogue();
  await initDatabase(async (db) => {
    await seedStatusEntries(db, content.status, { history: content.statusHistory });
    // content/downloads.json's releases, once (a release the owner yanked later stays yanked).
    await importDemoReleases(db, content.downloads);
  });
  // Background work (outbox delivery, mail, reviews refresh, the shop's catalogue) registers here with onShutdown(stop).
  const stopCatalogueSync = startCatalogueSync();
  if (stopCatalogueSync) onShutdown(stopCatalogueSync);
  onShutdown(startReviewsRefresher());
  onShutdown(startSupportDelivery());
  // Event streams and the doorbell between instances; stopping ends the streams so browsers reconnect elsewhere.
  onShutdown(startConversationLive());
  // Status changes from the console reach every instance's cached pages at once.
  onShutdown(startStatusNews());
  // What the owner published on top of content/ (issue 44): shown from now on, and again whenever it changes.
  onShutdown(await startContentLive());
  onShutdown(startMailDelivery());
  onShutdown(startUnseenReplyMail());
  onShutdown(startSignInRetention());
  onShutdown(startConsoleRetention());
  const stopStatusMonitor = startStatusMonitor();
  if (stopStatusMonitor) onShutdown(stopStatusMonitor);
  return env;
}

/** SIGTERM's first step: readiness turns 503 at once, and background work finishes what it holds and stops. */
export async function stopBackgroundWork() {
  stopping = true;
  const failures = (await Promise.allSettled(backgroundStops.splice(0).map(async (stop) => stop()))).filter(
    (r) => r.status === "rejected",
  );
  for (const failure of failures) logger.error({ err: failure.reason }, "background work did not stop cleanly");
}

/** SIGTERM's last step, once requests have drained: closes the database and Redis. */
export async function shutdown() {
  await stopBackgroundWork();
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
  // Only these proxies' X-Forwarded-For is believed, so rate limits key on the real client behind them.
  app.set("trust proxy", env.TRUST_PROXY);

  // Only when something can scrape them: counting every request costs a cached page ~10% of its CPU.
  if (env.METRICS_PORT !== undefined) app.use(recordRequestMetrics);
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
  app.use(guardRequests);

  app.get("/healthz", (_req, res) => {
    res.set("Cache-Control", "no-store").json({ ok: true });
  });
  app.get("/readyz", async (_req, res) => {
    if (stopping) {
      res.set("Cache-Control", "no-store").status(503).json({ ok: false, stopping: true });
      return;
    }
    const ok = await isDatabaseReachable();
    // A connected shop's first catalogue not read yet: nothing to sell, so load balancers keep away.
    const catalogue = catalogueProblem();
    res
      .set("Cache-Control", "no-store")
      .status(ok && catalogue === null ? 200 : 503)
      .json({
        ok: ok && catalogue === null,
        database: ok ? "reachable" : "unreachable",
        ...(catalogue === null ? {} : { catalogue }),
      });
  });

  // The whole stylesheet, which pages inline only in part (docs/decisions/013).
  app.get(/^\/assets\/site-[\w-]+\.css$/, serveSiteCss);
  // The theme's logo and font files (content/brand/), named by their hash.
  app.use("/brand", serveBrandAssets(getShopTheme().assets));

  app.use(legacyAliasRedirects(getContent().site.legacyAliases));

  app.use("/api", createApiRouter());
  // Unknown API paths answer JSON, never the HTML 404 page.
  app.use("/api", (_req, res) => {
    res.status(404).json({ error: "Not found" });
  });

  // A release's file, streamed with ranges (issue 45); before the pages, whose /downloads lists them.
  app.use(createDownloadRouter());

  // The staff console is nobody's search result (issue 34), in every language; its routes answer no-store.
  app.use((req, res, next) => {
    if (CONSOLE_PATHS.test(req.path)) res.set("X-Robots-Tag", "noindex, nofollow");
    next();
  });

  // The console's preview of a content draft: the real page, for owners and admins only, never cached (issue 44).
  app.get(
    PREVIEW_PATH,
    createContentPreviewHandler(build, (req, res) => createLoadContext(String(res.locals.nonce), req.ip ?? "unknown"), {
      mode: env.NODE_ENV,
    }),
  );

  // Pages: shareable ones are served from a short rendered-HTML cache with a fresh nonce each time (docs/decisions/009).
  app.all(
    "/{*splat}",
    createPageHandler(build, (req, res) => createLoadContext(String(res.locals.nonce), req.ip ?? "unknown"), {
      cacheEnabled: env.NODE_ENV !== "development",
      // A page is kept for the catalogue it shows, the status data and the published content it was rendered from.
      cacheGeneration: () => `${catalogueVersion()}.${statusGeneration()}.${loadedContentVersion()}`,
      publicUrl: env.PUBLIC_URL,
      mode: env.NODE_ENV,
    }),
  );
  app.use(answerErrors);

  return app;
}

export const app = createApp(() => import("virtual:react-router/server-build") as Promise<ServerBuild>);
