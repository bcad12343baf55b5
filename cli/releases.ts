import fs from "node:fs";
import path from "node:path";
import { maxReleaseFileBytes, releaseStorage } from "~/features/releases/release-catalogue.server";
import { ReleaseFileTooLargeError, type ReleaseStorage } from "~/features/releases/release-storage.server";
import {
  fileNameProblem,
  normaliseVersion,
  RELEASE_PLATFORMS,
  type ReleasePlatform,
} from "~/features/releases/releases";
import { addReleaseWithFiles, changeReleaseState } from "~/features/releases/release-changes.server";
import { checkNewFile, downloadCounts, listReleases, ReleaseError } from "~/features/releases/releases.server";
import { type CliCommand, type CliContext, formatTable, runWithDatabase, startCommand } from "./cli-context";

export const RELEASES_USAGE = `Usage:
  npm run cli -- releases add --product <id or slug> --version <v> [--channel beta] [--platform <platform>]... --file <path>... [--notes <file.md>] [--requirement <line>]... [--signature <file.sig>]... [--anyone] [--publish] [--json]
  npm run cli -- releases list [--product <id or slug>] [--json]
  npm run cli -- releases publish <product> <version> [--json]
  npm run cli -- releases yank <product> <version> [--json]

A release is a draft until published; a yanked one is gone from /downloads and the update feeds, kept for the record.
Each --file is streamed into the storage and its SHA-256 computed here; the n-th --platform (and --signature) goes
with the n-th --file (platforms: ${RELEASE_PLATFORMS.join(", ")}; default any). --notes is the English notes in
Markdown. --anyone lets anyone download it (an installer the licence key unlocks); by default only the product's buyers.
The version is semver; a leading v is accepted (v1.2.3 is 1.2.3). Files past RELEASE_MAX_FILE_MB are refused.`;

const RELEASES_OPTIONS = {
  product: { type: "string" },
  version: { type: "string" },
  channel: { type: "string" },
  platform: { type: "string", multiple: true },
  file: { type: "string", multiple: true },
  signature: { type: "string", multiple: true },
  notes: { type: "string" },
  requirement: { type: "string", multiple: true },
  anyone: { type: "boolean", default: false },
  publish: { type: "boolean", default: false },
} as const;

function productOf(products: CliContext["products"], ref: string | undefined) {
  if (ref === undefined) return undefined;
  const wanted = ref.trim().toLowerCase();
  return products.find((p) => String(p.id) === wanted || p.slug === wanted);
}

/** The CLI's audit identity. */
const CLI_ACTOR = { actor: "cli", sessionBeganWith: "cli" } as const;

export interface ReleasesCliOptions {
  storage?: () => ReleaseStorage;
  maxBytes?: () => number;
}

/** `releases add|list|publish|yank`: a build pipeline's way to publish (docs/releases.md). */
export function createReleasesCommand({
  storage = releaseStorage,
  maxBytes = maxReleaseFileBytes,
}: ReleasesCliOptions = {}): CliCommand {
  return async (argv, { db, products, out, err }) => {
    const started = startCommand(argv, RELEASES_OPTIONS, RELEASES_USAGE, { out, err });
    if (typeof started === "number") return started;
    const { values, action, rest, fail } = started;
    const name = (id: number) => products.find((p) => p.id === id)?.slug ?? String(id);
    try {
      if (action === "list") {
        if (rest.length > 0) return fail(`"releases list" takes no arguments (got ${rest.join(" ")})`, 2);
        const product = values.product === undefined ? undefined : productOf(products, values.product);
        if (values.product !== undefined && !product) return fail(`No product "${values.product}"`, 2);
        const releases = await listReleases(db, product?.id);
        const counts = await downloadCounts(db);
        if (values.json) {
          out(
            JSON.stringify(
              releases.map((r) => ({ ...r, downloads: counts.get(r.id) ?? 0 })),
              null,
              2,
            ),
          );
          return 0;
        }
        if (releases.length === 0) {
          out("No releases.");
          return 0;
        }
        out(
          formatTable(
            ["PRODUCT", "VERSION", "CHANNEL", "STATE", "ACCESS", "PUBLISHED", "DOWNLOADS", "FILES"],
            releases.map((r) => [
              name(r.productId),
              r.version,
              r.channel,
              r.state,
              r.access,
              r.publishedAt ?? "-",
              String(counts.get(r.id) ?? 0),
              r.files.map((f) => `${f.platform}:${f.name} (${f.size} B, sha256 ${f.sha256})`).join(", "),
            ]),
          ),
        );
        return 0;
      }

      if (action === "publish" || action === "yank") {
        if (rest.length !== 2) return fail(`Usage: releases ${action} <product> <version>`, 2);
        const product = productOf(products, rest[0]);
        if (!product) return fail(`No product "${rest[0]}"`, 2);
        const version = normaliseVersion(rest[1] ?? "");
        if (!version) return fail(`"${rest[1]}" is not a semantic version`, 2);
        const release = await changeReleaseState(db, action, product, version, CLI_ACTOR);
        if (values.json) out(JSON.stringify(release, null, 2));
        else
          out(
            release
              ? `${product.name} ${version} ${action === "publish" ? "published" : "yanked"}.`
              : `${product.name} ${version} was already ${action === "publish" ? "published" : "yanked"}.`,
          );
        return 0;
      }

      if (action === "add") {
        if (rest.length > 0) return fail(`Unexpected arguments: ${rest.join(" ")}`, 2);
        const product = productOf(products, values.product);
        if (!product)
          return fail(values.product ? `No product "${values.product}"` : '"releases add" needs --product', 2);
        const version = normaliseVersion(values.version ?? "");
        if (!version) return fail('"releases add" needs --version, a semantic version like 1.2.3 or v1.2.3', 2);
        const channel = values.channel ?? "stable";
        if (channel !== "stable" && channel !== "beta") return fail("--channel must be stable or beta", 2);
        const paths = values.file ?? [];
        if (paths.length === 0) return fail('"releases add" needs at least one --file', 2);
        const platforms = values.platform ?? [];
        if (platforms.length > paths.length) return fail("more --platform than --file", 2);
        for (const platform of platforms)
          if (!(RELEASE_PLATFORMS as readonly string[]).includes(platform))
            return fail(`--platform must be one of ${RELEASE_PLATFORMS.join(", ")} (got ${platform})`, 2);
        const signatures = values.signature ?? [];
        if (signatures.length > paths.length) return fail("more --signature than --file", 2);
        const notes = values.notes === undefined ? undefined : fs.readFileSync(values.notes, "utf8");
        const planned = paths.map((file, i) => ({
          file,
          name: path.basename(file),
          platform: (platforms[i] ?? "any") as ReleasePlatform,
          signature: signatures[i] === undefined ? null : fs.readFileSync(signatures[i] ?? "", "utf8").trim(),
        }));
        // Everything refused before a byte is stored: names, platforms, signatures, unreadable files.
        for (const item of planned) {
          const problem = fileNameProblem(item.name);
          if (problem) return fail(`${item.file}: file name refused: ${problem}`, 2);
          checkNewFile(item);
          if (!fs.statSync(item.file).isFile()) return fail(`${item.file} is not a file`, 2);
        }
        // Files are streamed and hashed before the transaction, so no write lock is held while they upload.
        const { release, files: staged } = await addReleaseWithFiles(
          db,
          storage(),
          {
            product,
            version,
            channel,
            access: values.anyone ? "anyone" : "buyers",
            notes: notes === undefined ? {} : { en: notes },
            requirements: values.requirement === undefined ? {} : { en: values.requirement },
            publish: values.publish,
            maxBytes: maxBytes(),
          },
          planned.map((item) => ({
            platform: item.platform,
            name: item.name,
            signature: item.signature,
            source: fs.createReadStream(item.file),
          })),
          CLI_ACTOR,
        );
        if (values.json)
          out(
            JSON.stringify(
              {
                id: release.id,
                version,
                files: staged.map((f) => ({ name: f.name, platform: f.platform, ...f.stored })),
              },
              null,
              2,
            ),
          );
        else {
          out(`${product.name} ${version} (${channel}) added${values.publish ? " and published" : " as a draft"}.`);
          for (const f of staged) out(`  ${f.platform}  ${f.name}  ${f.stored.size} bytes  sha256 ${f.stored.sha256}`);
        }
        return 0;
      }
      return fail(`Unknown releases command "${action}"\n\n${RELEASES_USAGE}`, 2);
    } catch (error) {
      if (error instanceof ReleaseError || error instanceof ReleaseFileTooLargeError) return fail(error.message);
      throw error;
    }
  };
}

export const releasesCommand = createReleasesCommand();

/** Entry for the CLI dispatcher (`npm run cli -- releases ...`). */
export function runReleasesCli(argv: string[]): Promise<number> {
  return runWithDatabase(releasesCommand, argv);
}
