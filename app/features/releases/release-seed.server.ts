// content/downloads.json as the demo's seed releases (issue 45): each entry with a product becomes a published release
// with one small generated file, so a fresh `npm start` can be clicked through to a real download. Imported once:
// what the owner changes afterwards (a yank, a new version) is never undone by a restart.
import { Readable } from "node:stream";
import type { Kysely } from "kysely";
import type { Download } from "~/features/downloads/downloads.content";
import { getContent } from "~/features/content/content.server";
import { LOCALE_CODES } from "~/features/i18n/locales";
import { logger } from "~/platform/logger.server";
import type { Database } from "../../../db/schema";
import { maxReleaseFileBytes, releaseStorage } from "./release-catalogue.server";
import type { ReleaseStorage } from "./release-storage.server";
import { normaliseVersion, type ReleaseNotes, type ReleasePlatform, type ReleaseRequirements } from "./releases";
import {
  findRelease,
  createRelease,
  publishRelease,
  recordReleaseFile,
  type StagedReleaseFile,
  stageReleaseFile,
} from "./releases.server";

export const DEMO_RELEASES_IMPORT = "content/downloads.json";

/** A release's notes in Markdown from a download entry: its description, then what changed as a list. */
function notesOf(download: Download): string {
  return `${download.description}\n\n${download.changelog.map((line) => `- ${line}`).join("\n")}\n`;
}

/** The demo file's name and platform: a Windows installer, or a zip for packs that run anywhere. */
export function demoFileOf(download: Download, version: string): { name: string; platform: ReleasePlatform } {
  const base = download.name.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "");
  const anywhere = download.requirements.every((line) => !/windows/i.test(line));
  return anywhere
    ? { name: `${base}-${version}.zip`, platform: "any" }
    : { name: `${base}-${version}-x64-setup.exe`, platform: "windows-x86_64" };
}

/** A few KB that say what they are: the demo shop sells no real software. */
function demoBytes(download: Download, version: string): Buffer {
  const line = `Kestrel demo file: ${download.name} ${version}. This shop's demo delivers this placeholder instead of an installer.\n`;
  return Buffer.from(line.repeat(Math.ceil(4096 / line.length)));
}

/**
 * Imports the seed releases unless this database already did: the notes in every language the content has, the
 * date of each entry as its publication time. Entries without a product or a semantic version are skipped (logged).
 */
export async function importDemoReleases(
  db: Kysely<Database>,
  downloads: readonly Download[],
  {
    storage = releaseStorage(),
    notesIn = (id: string) => textsByLocale(id),
  }: {
    storage?: ReleaseStorage;
    notesIn?: (downloadId: string) => { notes: ReleaseNotes; requirements: ReleaseRequirements };
  } = {},
): Promise<number> {
  const done = await db
    .selectFrom("release_imports")
    .select("name")
    .where("name", "=", DEMO_RELEASES_IMPORT)
    .executeTakeFirst();
  if (done) return 0;
  const entries: Array<{ download: Download; version: string; staged: StagedReleaseFile }> = [];
  for (const download of downloads) {
    const version = normaliseVersion(download.version);
    if (download.productId === undefined || version === undefined) {
      logger.warn({ download: download.id }, "seed releases: skipped (no product id or not a semantic version)");
      continue;
    }
    // A version the owner already added (say with the CLI before the first start) is theirs.
    if (await findRelease(db, download.productId, version)) continue;
    const file = demoFileOf(download, version);
    const staged = await stageReleaseFile(storage, {
      ...file,
      source: Readable.from([demoBytes(download, version)]),
      maxBytes: maxReleaseFileBytes(),
    });
    entries.push({ download, version, staged });
  }
  try {
    await db.transaction().execute(async (trx) => {
      for (const { download, version, staged } of entries) {
        const release = await createRelease(trx, {
          productId: download.productId ?? 0,
          version,
          channel: download.status === "beta" ? "beta" : "stable",
          ...notesIn(download.id),
          now: new Date(`${download.date}T00:00:00.000Z`),
        });
        await recordReleaseFile(trx, release.id, staged, new Date(`${download.date}T00:00:00.000Z`));
        await publishRelease(trx, release.productId, version, { at: `${download.date}T00:00:00.000Z` });
      }
      await trx
        .insertInto("release_imports")
        .values({ name: DEMO_RELEASES_IMPORT, imported_at: new Date().toISOString() })
        .execute();
    });
  } catch (error) {
    for (const { staged } of entries) await storage.remove(staged.storageKey);
    throw error;
  }
  return entries.length;
}

/** One entry's notes and requirements in each language whose content has it (English: the fallback). */
function textsByLocale(downloadId: string): { notes: ReleaseNotes; requirements: ReleaseRequirements } {
  const notes: ReleaseNotes = {};
  const requirements: ReleaseRequirements = {};
  for (const locale of LOCALE_CODES) {
    const download = getContent(locale).downloads.find((d) => d.id === downloadId);
    if (!download) continue;
    notes[locale] = notesOf(download);
    requirements[locale] = download.requirements;
  }
  return { notes, requirements };
}
