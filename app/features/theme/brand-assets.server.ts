import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type express from "express";
import type { Theme } from "./theme.content";
import type { BrandUrls } from "./theme-stylesheet";

const CONTENT_TYPES: Record<string, string> = {
  svg: "image/svg+xml",
  png: "image/png",
  webp: "image/webp",
  avif: "image/avif",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  woff2: "font/woff2",
  woff: "font/woff",
  ttf: "font/ttf",
  otf: "font/otf",
};

export interface BrandAsset {
  body: Buffer;
  contentType: string;
}

/** Every file theme.json names (`brand/…`, relative to the content directory). */
export function brandFilesOf(theme: Theme): string[] {
  return [...(theme.logo ? [theme.logo.src] : []), ...(theme.font?.files.map((file) => file.src) ?? [])];
}

/** One line per file theme.json names that is not in the content directory. */
export function missingBrandFiles(theme: Theme, contentDir: string): string[] {
  return brandFilesOf(theme)
    .filter((file) => !fs.existsSync(path.join(contentDir, file)))
    .map((file) => `content/theme.json: ${file}: file is missing (looked in ${contentDir})`);
}

/**
 * Reads the brand files once and names each by its content's hash (`brand/logo.svg` → `/brand/logo-<hash>.svg`), so
 * browsers keep them for good and a changed file gets a new address.
 */
export function readBrandAssets(
  theme: Theme,
  contentDir: string,
): { urls: BrandUrls; assets: Map<string, BrandAsset> } {
  const urls: BrandUrls = {};
  const assets = new Map<string, BrandAsset>();
  for (const file of brandFilesOf(theme)) {
    const body = fs.readFileSync(path.join(contentDir, file));
    const extension = path.extname(file).slice(1).toLowerCase();
    const hash = crypto.createHash("sha256").update(body).digest("base64url").slice(0, 10);
    const url = `/brand/${path.basename(file, path.extname(file))}-${hash}.${extension}`;
    urls[file] = url;
    assets.set(url, { body, contentType: CONTENT_TYPES[extension] ?? "application/octet-stream" });
  }
  return { urls, assets };
}

/** Answers `/brand/<name>-<hash>.<ext>` from the files read at boot; anything else under /brand is a 404. */
export function serveBrandAssets(assets: Map<string, BrandAsset>): express.RequestHandler {
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const asset = assets.get(`/brand${req.path}`);
    if (!asset) return next();
    res.set({
      "Content-Type": asset.contentType,
      "Cache-Control": "public, max-age=31536000, immutable",
      "Content-Length": String(asset.body.length),
      // An SVG opened on its own runs nothing and loads nothing.
      ...(asset.contentType === "image/svg+xml"
        ? { "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'" }
        : {}),
    });
    res.status(200).end(req.method === "HEAD" ? undefined : asset.body);
  };
}
