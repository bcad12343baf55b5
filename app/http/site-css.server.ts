import crypto from "node:crypto";
import zlib from "node:zlib";
import type express from "express";
import siteCss from "~/app.css?inline";
import { withOwnStylesheet } from "./page-stylesheet.server";

/** The site stylesheet as pages inline it, made inlinable at build time (docs/decisions/011). */
export const SITE_CSS = siteCss;

/** Where the whole stylesheet is served; the hash changes with its content, so browsers keep it for good. */
export const SITE_CSS_PATH = `/assets/site-${crypto.createHash("sha256").update(SITE_CSS).digest("base64url").slice(0, 12)}.css`;

/** A rendered page with only the stylesheet rules it uses inline (docs/decisions/013), once per cached render. */
export function withPageStylesheet(html: string): string {
  return withOwnStylesheet(html, SITE_CSS, SITE_CSS_PATH);
}

let encoded: { br: Buffer; gzip: Buffer } | undefined;

/** Answers `SITE_CSS_PATH` with the whole stylesheet, compressed once (at first request) as well as it goes. */
export const serveSiteCss: express.RequestHandler = (req, res) => {
  encoded ??= {
    br: zlib.brotliCompressSync(SITE_CSS, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      },
    }),
    gzip: zlib.gzipSync(SITE_CSS, { level: 9 }),
  };
  res.vary("Accept-Encoding");
  res.set({ "Content-Type": "text/css; charset=utf-8", "Cache-Control": "public, max-age=31536000, immutable" });
  const encoding = req.acceptsEncodings("br", "gzip", "identity");
  const body = encoding === "br" ? encoded.br : encoding === "gzip" ? encoded.gzip : Buffer.from(SITE_CSS);
  if (encoding === "br" || encoding === "gzip") res.set("Content-Encoding", encoding);
  res.status(200).set("Content-Length", String(body.length));
  res.end(req.method === "HEAD" ? undefined : body);
};
