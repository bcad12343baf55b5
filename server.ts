// HTTP entry: serves the built shop (npm start) or the Vite dev server (npm run dev).
import fs from "node:fs";
import compression from "compression";
import express from "express";

// A local .env (copied from .env.example) is read when present; real environment variables win.
if (fs.existsSync(".env")) process.loadEnvFile(".env");

const isDev = process.env.NODE_ENV === "development";
const buildDir = process.env.BUILD_DIR ?? "build";
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "0.0.0.0";

interface ServerModule {
  app: express.Express;
  boot(): Promise<void>;
  shutdown(): Promise<void>;
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
    mod = (await viteDev.ssrLoadModule("./app/server/app.ts")) as ServerModule;
    await mod.boot();
    server.use((req, res, next) => {
      viteDev
        .ssrLoadModule("./app/server/app.ts")
        .then((m) => (m as ServerModule).app(req, res, next))
        .catch(next);
    });
  } else {
    const buildPath = `./${buildDir}/server/index.js`;
    mod = (await import(buildPath)) as ServerModule;
    await mod.boot();
    // Hashed file names never change content, so browsers may keep them forever.
    server.use("/assets", servePrecompressed(`${buildDir}/client/assets`));
    server.use("/assets", express.static(`${buildDir}/client/assets`, { immutable: true, maxAge: "1y", index: false }));
    // Only paths that are files get the static handler: a stat and a 404 error object per page request cost ~10%.
    const publicFiles = new Set(listFiles(`${buildDir}/client`).filter((file) => !file.startsWith("/assets/")));
    const servePublic = express.static(`${buildDir}/client`, { maxAge: "1h", index: false });
    server.use((req, res, next) => (publicFiles.has(req.path) ? servePublic(req, res, next) : next()));
    server.use(mod.app);
  }
  const listener = server.listen(port, host, () => {
    console.log(`Kestrel storefront listening on http://localhost:${port}`);
  });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received: finishing open requests`);
    listener.close(async () => {
      await mod.shutdown();
      process.exit(0);
    });
    listener.closeIdleConnections();
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

/** Sends the build's `.br`/`.gz` twin of an asset when the browser accepts it (made by scripts/vite-precompress-assets.ts). */
function servePrecompressed(dir: string): express.RequestHandler {
  const available = new Set(listFiles(dir));
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const accepted = String(req.headers["accept-encoding"] ?? "");
    const encoding = /\bbr\b/.test(accepted) && available.has(`${req.path}.br`) ? "br" : /\bgzip\b/.test(accepted) && available.has(`${req.path}.gz`) ? "gzip" : undefined;
    if (!encoding) return next();
    res.vary("Accept-Encoding");
    res.set("Content-Encoding", encoding).type(req.path.slice(req.path.lastIndexOf(".")));
    res.sendFile(`${req.path}.${encoding === "br" ? "br" : "gz"}`, { root: dir, immutable: true, maxAge: "1y" }, (error) => error && next(error));
  };
}

/** Every file under `dir`, as URL paths ("/favicon.ico"). */
function listFiles(dir: string, prefix = ""): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? listFiles(`${dir}/${entry.name}`, `${prefix}/${entry.name}`) : [`${prefix}/${entry.name}`]));
}

main().catch((error: unknown) => {
  // A bad configuration or content file stops boot with its one-line reason, not a stack trace.
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
