// The limit `npm run bench` compares each page with: the same page as the shop renders it, with every script (and
// every module preload) taken out, served from a second local port. Everything else (images, fonts, the favicon) is
// passed through to the shop, so the two differ only in their JavaScript.
import http from "node:http";
import zlib from "node:zlib";

/** The page's HTML without `<script>` elements and `<link rel="modulepreload">`. */
export function withoutScripts(html) {
  return html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, "").replace(/<link\b[^>]*rel="modulepreload"[^>]*>/gi, "");
}

/**
 * Starts a server on 127.0.0.1:`port` answering `routes` with their script-free copies (gzip-encoded when the browser
 * takes it, as the shop's pages are) and proxying any other path to `shopUrl`. Resolves to `{url, close()}`.
 */
export async function startNoScriptCopy(shopUrl, routes, port) {
  const copies = new Map();
  for (const route of routes) {
    const html = withoutScripts(await (await fetch(shopUrl + route)).text());
    const raw = Buffer.from(html);
    copies.set(route, { raw, gzip: zlib.gzipSync(raw, { level: 6 }) });
  }
  const shop = new URL(shopUrl);
  const server = http.createServer((req, res) => {
    const copy = copies.get(req.url ?? "/");
    if (copy) {
      const gzip = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
      const body = gzip ? copy.gzip : copy.raw;
      res.writeHead(200, {
        "Content-Type": "text/html; charset=utf-8",
        "Content-Length": body.length,
        "Cache-Control": "no-cache",
        ...(gzip ? { "Content-Encoding": "gzip" } : {}),
        Vary: "Accept-Encoding",
      });
      res.end(body);
      return;
    }
    const upstream = http.request(
      {
        host: shop.hostname,
        port: shop.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, host: shop.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise((resolve) => server.listen(port, "127.0.0.1", resolve));
  return { url: `http://localhost:${port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}
