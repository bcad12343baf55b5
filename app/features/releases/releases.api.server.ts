// The update feeds the software asks (issue 45): Tauri's dynamic update server JSON and electron-updater's latest.yml.
// Both carry the download route's URL (gated for a buyers-only release) and are cached for 5 minutes.
import express, { type Response } from "express";
import type { Kysely } from "kysely";
import { getDb } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { rateLimit } from "~/platform/rate-limit.server";
import type { Database } from "../../../db/schema";
import { isProductRef, productByRef } from "./release-catalogue.server";
import {
  channelSchema,
  compareVersions,
  downloadPath,
  normaliseVersion,
  notesFor,
  platformSchema,
  type ReleaseChannel,
  type ReleasePlatform,
} from "./releases";
import { fileForPlatform, latestOf, publishedReleases, type ReleaseFile } from "./releases.server";

const FEED_CACHE = "public, max-age=300";

function bad(res: Response, error: string) {
  res.status(400).json({ error });
}

function missing(res: Response, error: string) {
  res.set("Cache-Control", FEED_CACHE).status(404).json({ error });
}

/** A YAML scalar that reads back as the same string (electron-updater parses it with js-yaml). */
function yamlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

export function electronLatestYml(
  release: { version: string; publishedAt: string | null; createdAt: string },
  files: Array<ReleaseFile & { url: string }>,
): string {
  const lines = [`version: ${yamlString(release.version)}`, "files:"];
  for (const file of files)
    lines.push(`  - url: ${yamlString(file.url)}`, `    sha512: ${yamlString(file.sha512)}`, `    size: ${file.size}`);
  const first = files[0];
  if (first) lines.push(`path: ${yamlString(first.url)}`, `sha512: ${yamlString(first.sha512)}`);
  lines.push(`releaseDate: ${yamlString(new Date(release.publishedAt ?? release.createdAt).toISOString())}`);
  return `${lines.join("\n")}\n`;
}

export function createReleasesApi(db: () => Kysely<Database> = () => getDb().db) {
  const router = express.Router();
  // Apps ask on every start; 120 a minute per address is far above that and below a scrape.
  const limit = rateLimit({
    name: "releases-feed",
    points: 120,
    durationSeconds: 60,
    error: "Too many requests for release feeds. Try again in a minute.",
  });
  const absolute = (path: string) => new URL(path, getEnv().PUBLIC_URL).toString();

  router.get("/releases/:product/latest", limit, async (req, res, next) => {
    try {
      const ref = String(req.params.product);
      if (!isProductRef(ref)) return bad(res, "expected a product slug or id");
      const channel = channelSchema.safeParse(req.query.channel ?? "stable");
      if (!channel.success) return bad(res, "channel: expected stable or beta");
      let platform: ReleasePlatform | undefined;
      if (req.query.platform !== undefined) {
        const parsed = platformSchema.safeParse(req.query.platform);
        if (!parsed.success) return bad(res, `platform: ${parsed.error.issues[0]?.message}`);
        platform = parsed.data;
      }
      let current: string | undefined;
      if (req.query.current !== undefined) {
        current = typeof req.query.current === "string" ? normaliseVersion(req.query.current) : undefined;
        if (current === undefined) return bad(res, "current: expected a semantic version like 1.2.3");
      }
      const product = productByRef(ref);
      if (!product) return missing(res, "no such product");
      const releases = await publishedReleases(db(), product.id);
      const latest = latestOf(releases, channel.data as ReleaseChannel, platform);
      if (!latest) return missing(res, "no release on this channel for this platform");
      res.set("Cache-Control", FEED_CACHE);
      if (current !== undefined && compareVersions(current, latest.version) >= 0) return res.status(204).end();
      const file = platform
        ? fileForPlatform(latest, platform)
        : (latest.files.find((f) => f.platform === "any") ?? latest.files[0]);
      if (!file) return missing(res, "no file for this platform");
      res.json({
        version: latest.version,
        pub_date: new Date(latest.publishedAt ?? latest.createdAt).toISOString(),
        notes: notesFor(latest.notes, "en"),
        url: absolute(downloadPath(product.slug, latest.version, file.name)),
        sha256: file.sha256,
        size: file.size,
        signature: file.signature ?? "",
      });
    } catch (error) {
      next(error);
    }
  });

  router.get("/releases/:product/:feed", limit, async (req, res, next) => {
    try {
      const ref = String(req.params.product);
      const match = /^(.+)\.yml$/.exec(String(req.params.feed));
      if (!match) return missing(res, "Not found");
      if (!isProductRef(ref)) return bad(res, "expected a product slug or id");
      const channel = channelSchema.safeParse(match[1]);
      if (!channel.success) return bad(res, "channel: expected stable or beta");
      const product = productByRef(ref);
      if (!product) return missing(res, "no such product");
      const latest = latestOf(await publishedReleases(db(), product.id), channel.data);
      if (!latest) return missing(res, "no release on this channel");
      const files = latest.files.map((f) => ({
        ...f,
        url: absolute(downloadPath(product.slug, latest.version, f.name)),
      }));
      res.set("Cache-Control", FEED_CACHE).type("text/yaml; charset=utf-8").send(electronLatestYml(latest, files));
    } catch (error) {
      next(error);
    }
  });
  return router;
}
