import crypto from "node:crypto";
import zlib from "node:zlib";
import type express from "express";
import builtCss from "~/app.css?inline";
import { getShopTheme } from "~/features/theme/theme.server";
import { withOwnStylesheet } from "./page-stylesheet.server";

let siteCss: { css: string; path: string } | undefined;

/**
 * The site stylesheet as pages inline it: the shop's theme (content/theme.json, read at boot) as custom properties, then
 * the stylesheet made inlinable at build time (docs/decisions/011), which reads them.
 */
export function siteStylesheet(): { css: string; path: string } {
  if (!siteCss) {
    const css = getShopTheme().css + builtCss;
    // The hash changes with the content (and so with the theme), so browsers keep the whole stylesheet for good.
    siteCss = {
      css,
      path: `/assets/site-${crypto.createHash("sha256").update(css).digest("base64url").slice(0, 12)}.css`,
    };
  }
  return siteCss;
}

/** A rendered page with only the stylesheet rules it uses inline (docs/decisions/013), once per cached render. */
export function withPageStylesheet(html: string): string {
  const { css, path } = siteStylesheet();
  return withOwnStylesheet(html, css, path);
}

let encoded: { br: Buffer; gzip: Buffer } | undefined;

/** Answers the whole stylesheet's path with the whole stylesheet, compressed once (at first request) as well as it goes. */
export const serveSiteCss: express.RequestHandler = (req, res, next) => {
  const { css: SITE_CSS, path } = siteStylesheet();
  if (req.path !== path) return next();
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
