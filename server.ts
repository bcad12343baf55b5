// HTTP entry: serves the built shop (npm start) or the Vite dev server (npm run dev).
import fs from "node:fs";
import http from "node:http";
import compression from "compression";
import express from "express";
import type { Env } from "./app/platform/env.server";

// A local .env (copied from .env.example) is read when present; real environment variables win.
if (fs.existsSync(".env")) process.loadEnvFile(".env");

// These two decide how the bundle is loaded, so they are read before its configuration exists.
const isDev = process.env.NODE_ENV === "development";
const buildDir = process.env.BUILD_DIR ?? "build";
/** After SIGTERM, open requests and background work get this long; orchestrators send SIGKILL at 30 s. */
const DRAIN_LIMIT_MS = 25_000;

/** What the SSR bundle (app/http/app.ts) gives this entry. */
interface ServerModule {
  app: express.Express;
  boot(): Promise<Env>;
  logger: { info(details: object, message: string): void; error(details: object, message: string): void };
  createMetricsListener(): http.RequestListener;
  stopBackgroundWork(): Promise<void>;
  shutdown(): Promise<void>;
  /** The last error handler: one log line and a small 4xx/500 answer, never a stack trace. */
  answerErrors: express.ErrorRequestHandler;
}

async function main() {
  const server = express();
  server.disable("x-powered-by");
  server.use(compression());
  let mod: ServerModule;
  if (isDev) {
    const vite = await import("vite");
    const viteDev = await vite.createServer({ server: { middlewareMode: true } });
    server.use(viteDev.middlewares);
    mod = (await viteDev.ssrLoadModule("./app/http/app.ts")) as ServerModule;
    server.use((req, res, next) => {
      viteDev
        .ssrLoadModule("./app/http/app.ts")
        .then((m) => (m as ServerModule).app(req, res, next))
        .catch(next);
    });
  } else {
    const buildPath = `./${buildDir}/server/index.js`;
    mod = (await import(buildPath)) as ServerModule;
    // Hashed file names never change content, so browsers may keep them forever.
    server.use("/assets", servePrecompressed(`${buildDir}/client/assets`));
    server.use("/assets", express.static(`${buildDir}/client/assets`, { immutable: true, maxAge: "1y", index: false }));
    // Only paths that are files get the static handler: a stat and a 404 error object per page request cost ~10%.
    const publicFiles = new Set(listFiles(`${buildDir}/client`).filter((file) => !file.startsWith("/assets/")));
    const servePublic = express.static(`${buildDir}/client`, { maxAge: "1h", index: false });
    server.use((req, res, next) => (publicFiles.has(req.path) ? servePublic(req, res, next) : next()));
    server.use(mod.app);
  }
  server.use(mod.answerErrors);
  const env = await mod.boot();

  const listener = http.createServer();
  const requests = trackRequests(listener);
  listener.on("request", server);
  let metrics: http.Server | undefined;
  try {
    await listen(listener, env.PORT, env.HOST, { label: "Port", port: "PORT", host: "HOST" });
    if (env.METRICS_PORT !== undefined) {
      metrics = http.createServer(mod.createMetricsListener());
      await listen(metrics, env.METRICS_PORT, env.METRICS_HOST, {
        label: "Metrics port",
        port: "METRICS_PORT",
        host: "METRICS_HOST",
      });
    }
  } catch (error) {
    // Background work started at boot releases what it holds before the process ends.
    setTimeout(() => process.exit(1), DRAIN_LIMIT_MS).unref();
    await mod.shutdown().catch(() => {});
    throw error;
  }
  mod.logger.info(
    {
      url: `http://localhost:${env.PORT}`,
      ...(metrics ? { metrics: `http://${env.METRICS_HOST}:${env.METRICS_PORT}/metrics` } : {}),
      database: env.DATABASE_URL ? "postgres" : "sqlite",
      checkout: env.CHECKOUT_PROVIDER,
    },
    "storefront ready",
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    mod.logger.info({ signal }, "stopping: /readyz answers 503; finishing open requests and background work");
    setTimeout(() => {
      mod.logger.error(
        { limitSeconds: DRAIN_LIMIT_MS / 1000 },
        "stopping: requests or background work still running at the limit; exiting anyway",
      );
      process.exit(1);
    }, DRAIN_LIMIT_MS).unref();
    // Requests running now may still arrive at /readyz's 503 through the load balancer, so the port stays open meanwhile.
    await Promise.all([mod.stopBackgroundWork(), requests.drainRunning()]);
    await Promise.all([close(listener), metrics && close(metrics)]);
    await mod.shutdown();
    mod.logger.info({ signal }, "stopped");
    process.exit(0);
  };
  // Vite's dev servers exit at once on SIGTERM; in development the drain below ends the process instead.
  if (isDev) process.removeAllListeners("SIGTERM");
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

/** Which variables set an address, for messages that say what to change. */
interface AddressNames {
  label: string;
  port: string;
  host: string;
}

/** Listens, or rejects with an error whose message is one line saying what to change. */
function listen(target: http.Server, port: number, host: string, names: AddressNames): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (error: NodeJS.ErrnoException) => reject(new Error(explainListenError(error, port, host, names)));
    target.once("error", fail);
    target.listen(port, host, () => {
      target.off("error", fail);
      resolve();
    });
  });
}

function explainListenError(error: NodeJS.ErrnoException, port: number, host: string, names: AddressNames): string {
  const what = names.label;
  switch (error.code) {
    case "EADDRINUSE":
      return `${what} ${port} is already in use (set ${names.port} to another port)`;
    case "EACCES":
      return `${what} ${port} needs privileges this process lacks (set ${names.port} to a port above 1023, and let a reverse proxy take 80/443)`;
    case "EADDRNOTAVAIL":
      return `${names.host} ${host} is not an address of this machine (set ${names.host} to one of its addresses, or 0.0.0.0 for all)`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `${names.host} ${host} is not a known host name (set ${names.host} to an address of this machine, or 0.0.0.0 for all)`;
    default:
      return `Cannot listen on ${host}:${port} (${names.host}, ${names.port}): ${error.message}`;
  }
}

/**
 * Counts requests in flight; once stopping, every response asks its client to close the connection, so keep-alive
 * clients reconnect (through the load balancer, to another instance) instead of waiting on this one.
 */
function trackRequests(listener: http.Server) {
  const running = new Set<http.ServerResponse>();
  let stopping = false;
  listener.on("request", (_req, res: http.ServerResponse) => {
    running.add(res);
    if (stopping) res.setHeader("Connection", "close");
    res.once("close", () => running.delete(res));
  });
  return {
    /** Resolves when every request running at this moment has answered. */
    drainRunning(): Promise<void> {
      stopping = true;
      const answered = [...running].map((res) => {
        if (!res.headersSent) res.setHeader("Connection", "close");
        return res.closed ? undefined : new Promise((resolve) => res.once("close", resolve));
      });
      return Promise.all(answered).then(() => undefined);
    },
  };
}

/** Stops accepting connections and resolves once the open ones (answering their last request) have closed. */
function close(target: http.Server): Promise<void> {
  return new Promise((resolve) => {
    target.close(() => resolve());
    target.closeIdleConnections();
  });
}

/** Sends the build's `.br`/`.gz` twin of an asset when the browser accepts it (made by scripts/vite-precompress-assets.ts). */
function servePrecompressed(dir: string): express.RequestHandler {
  const available = new Set(listFiles(dir));
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const accepted = String(req.headers["accept-encoding"] ?? "");
    const encoding =
      /\bbr\b/.test(accepted) && available.has(`${req.path}.br`)
        ? "br"
        : /\bgzip\b/.test(accepted) && available.has(`${req.path}.gz`)
          ? "gzip"
          : undefined;
    if (!encoding) return next();
    res.vary("Accept-Encoding");
    res.set("Content-Encoding", encoding).type(req.path.slice(req.path.lastIndexOf(".")));
    res.sendFile(
      `${req.path}.${encoding === "br" ? "br" : "gz"}`,
      { root: dir, immutable: true, maxAge: "1y" },
      (error) => error && next(error),
    );
  };
}

/** Every file under `dir`, as URL paths ("/favicon.ico"). */
function listFiles(dir: string, prefix = ""): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory() ? listFiles(`${dir}/${entry.name}`, `${prefix}/${entry.name}`) : [`${prefix}/${entry.name}`],
    );
}

main().catch((error: unknown) => {
  // A bad configuration, content file or address stops boot with its one-line reason, not a stack trace.
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
