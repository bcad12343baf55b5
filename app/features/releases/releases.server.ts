// The releases model (issue 45): a release is a draft until published, can be yanked (gone from pages and feeds,
// kept for the record); its files are streamed into the storage and hashed on the way.
import crypto from "node:crypto";
import type { Kysely, Selectable, Transaction } from "kysely";
import type { Readable } from "node:stream";
import type { Database, ReleaseFilesTable, ReleasesTable } from "../../../db/schema";
import type { ReleaseStorage, StoredFile } from "./release-storage.server";
import {
  compareVersions,
  fileNameProblem,
  normaliseVersion,
  type ReleaseAccess,
  type ReleaseChannel,
  type ReleaseNotes,
  type ReleaseRequirements,
  type ReleasePlatform,
  type ReleaseState,
  RELEASE_PLATFORMS,
} from "./releases";

type Db = Kysely<Database> | Transaction<Database>;

export interface ReleaseFile {
  id: string;
  releaseId: string;
  platform: ReleasePlatform;
  name: string;
  size: number;
  sha256: string;
  sha512: string;
  signature: string | null;
  storageKey: string;
  createdAt: string;
}

export interface Release {
  id: string;
  productId: number;
  version: string;
  channel: ReleaseChannel;
  state: ReleaseState;
  access: ReleaseAccess;
  notes: ReleaseNotes;
  /** Requirement lines per locale (`en` the fallback). */
  requirements: ReleaseRequirements;
  createdAt: string;
  publishedAt: string | null;
  yankedAt: string | null;
  files: ReleaseFile[];
}

/** A change the model refuses, in words for the person who asked (CLI, console). */
export class ReleaseError extends Error {
  constructor(
    message: string,
    readonly kind: "not-found" | "conflict" | "invalid" = "invalid",
  ) {
    super(message);
    this.name = "ReleaseError";
  }
}

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

function fileOf(row: Selectable<ReleaseFilesTable>): ReleaseFile {
  return {
    id: row.id,
    releaseId: row.release_id,
    platform: row.platform as ReleasePlatform,
    name: row.name,
    size: Number(row.size_bytes),
    sha256: row.sha256,
    sha512: row.sha512,
    signature: row.signature,
    storageKey: row.storage_key,
    createdAt: row.created_at,
  };
}

function releaseOf(row: Selectable<ReleasesTable>, files: ReleaseFile[]): Release {
  return {
    id: row.id,
    productId: row.product_id,
    version: row.version,
    channel: row.channel,
    state: row.state,
    access: row.access,
    notes: parseJson<ReleaseNotes>(row.notes, {}),
    requirements: requirementsOf(parseJson<unknown>(row.requirements, [])),
    createdAt: row.created_at,
    publishedAt: row.published_at,
    yankedAt: row.yanked_at,
    files: files.filter((f) => f.releaseId === row.id).sort((a, b) => platformOrder(a) - platformOrder(b)),
  };
}

/** Stored as a list (English) or as lists by locale. */
function requirementsOf(value: unknown): ReleaseRequirements {
  if (Array.isArray(value)) return { en: value.filter((v): v is string => typeof v === "string") };
  return typeof value === "object" && value !== null ? (value as ReleaseRequirements) : {};
}

const platformOrder = (file: ReleaseFile) => RELEASE_PLATFORMS.indexOf(file.platform);

async function withFiles(db: Db, rows: Selectable<ReleasesTable>[]): Promise<Release[]> {
  if (rows.length === 0) return [];
  const files = await db
    .selectFrom("release_files")
    .selectAll()
    .where(
      "release_id",
      "in",
      rows.map((r) => r.id),
    )
    .orderBy("created_at")
    .execute();
  const mapped = files.map(fileOf);
  return rows.map((row) => releaseOf(row, mapped)).sort((a, b) => compareVersions(b.version, a.version));
}

export interface NewRelease {
  productId: number;
  version: string;
  channel?: ReleaseChannel;
  access?: ReleaseAccess;
  notes?: ReleaseNotes;
  requirements?: ReleaseRequirements;
  now?: Date;
}

/** A new draft; a product has each version once. */
export async function createRelease(db: Db, input: NewRelease): Promise<Release> {
  const version = normaliseVersion(input.version);
  if (version === undefined)
    throw new ReleaseError(`"${input.version}" is not a semantic version (1.2.3, v1.2.3 or 1.2.3-beta.1)`);
  if (!Number.isSafeInteger(input.productId) || input.productId <= 0) throw new ReleaseError("no such product");
  const existing = await db
    .selectFrom("releases")
    .select("id")
    .where("product_id", "=", input.productId)
    .where("version", "=", version)
    .executeTakeFirst();
  if (existing) throw new ReleaseError(`version ${version} of this product already exists`, "conflict");
  const row = {
    id: crypto.randomUUID(),
    product_id: input.productId,
    version,
    channel: input.channel ?? "stable",
    state: "draft" as const,
    access: input.access ?? "buyers",
    notes: JSON.stringify(input.notes ?? {}),
    requirements: JSON.stringify(input.requirements ?? {}),
    created_at: (input.now ?? new Date()).toISOString(),
    published_at: null,
    yanked_at: null,
  };
  await db.insertInto("releases").values(row).execute();
  return releaseOf(row, []);
}

export async function findRelease(db: Db, productId: number, version: string): Promise<Release | undefined> {
  version = normaliseVersion(version) ?? version;
  const row = await db
    .selectFrom("releases")
    .selectAll()
    .where("product_id", "=", productId)
    .where("version", "=", version)
    .executeTakeFirst();
  return row ? (await withFiles(db, [row]))[0] : undefined;
}

/** Every release (drafts and yanked ones too, for the operator), newest version first; of one product, or all. */
export async function listReleases(db: Db, productId?: number): Promise<Release[]> {
  let query = db.selectFrom("releases").selectAll();
  if (productId !== undefined) query = query.where("product_id", "=", productId);
  return withFiles(db, await query.execute());
}

/** What buyers and feeds see: published releases of a product, newest version first. */
export async function publishedReleases(db: Db, productId: number): Promise<Release[]> {
  const rows = await db
    .selectFrom("releases")
    .selectAll()
    .where("product_id", "=", productId)
    .where("state", "=", "published")
    .execute();
  return withFiles(db, rows);
}

/** Published releases of every product (the /downloads page), newest version first within each. */
export async function allPublishedReleases(db: Db): Promise<Release[]> {
  return withFiles(db, await db.selectFrom("releases").selectAll().where("state", "=", "published").execute());
}

/**
 * The newest release a channel offers: `stable` its newest stable; `beta` the newest of either channel, so a beta
 * tester gets a stable that overtook the beta. With a platform, only releases with a file for it (or for `any`).
 */
export function latestOf(
  releases: readonly Release[],
  channel: ReleaseChannel,
  platform?: ReleasePlatform,
): Release | undefined {
  return releases
    .filter((r) => r.state === "published" && (channel === "beta" || r.channel === "stable"))
    .filter((r) => platform === undefined || fileForPlatform(r, platform) !== undefined)
    .sort((a, b) => compareVersions(b.version, a.version))[0];
}

/** The release's file for a platform: its own, else one for `any`. */
export function fileForPlatform(release: Release, platform: ReleasePlatform): ReleaseFile | undefined {
  return release.files.find((f) => f.platform === platform) ?? release.files.find((f) => f.platform === "any");
}

export interface NewReleaseFile {
  platform: ReleasePlatform;
  name: string;
  source: Readable;
  signature?: string | null;
  maxBytes: number;
}

/** A file in the storage, hashed, not yet recorded on a release. */
export interface StagedReleaseFile {
  id: string;
  platform: ReleasePlatform;
  name: string;
  signature: string | null;
  storageKey: string;
  stored: StoredFile;
}

/** Refuses a name, a platform or a signature before any byte is stored. */
export function checkNewFile(input: Pick<NewReleaseFile, "name" | "platform" | "signature">) {
  const problem = fileNameProblem(input.name);
  if (problem) throw new ReleaseError(`file name refused: ${problem}`);
  if (!RELEASE_PLATFORMS.includes(input.platform))
    throw new ReleaseError(`expected a platform among ${RELEASE_PLATFORMS.join(", ")}`);
  if (input.signature != null && input.signature.length > 4096)
    throw new ReleaseError("expected a signature of at most 4096 characters");
}

/**
 * Streams a file into the storage, hashing it on the way, outside any transaction (an upload can take minutes; no
 * write lock is held meanwhile). A refused name, or a file past the limit, keeps nothing.
 */
export async function stageReleaseFile(storage: ReleaseStorage, input: NewReleaseFile): Promise<StagedReleaseFile> {
  checkNewFile(input);
  const id = crypto.randomUUID();
  const storageKey = `files/${id}`;
  const stored = await storage.put(storageKey, input.source, input.maxBytes);
  return { id, platform: input.platform, name: input.name, signature: input.signature ?? null, storageKey, stored };
}

/** Records a staged file on a release (a draft or a published one; never a yanked one). */
export async function recordReleaseFile(
  db: Db,
  releaseId: string,
  file: StagedReleaseFile,
  now = new Date(),
): Promise<ReleaseFile> {
  const release = await db
    .selectFrom("releases")
    .select(["id", "state"])
    .where("id", "=", releaseId)
    .executeTakeFirst();
  if (!release) throw new ReleaseError("no such release", "not-found");
  if (release.state === "yanked") throw new ReleaseError("a yanked release takes no new files", "conflict");
  const taken = await db
    .selectFrom("release_files")
    .select("id")
    .where("release_id", "=", releaseId)
    .where("name", "=", file.name)
    .executeTakeFirst();
  if (taken) throw new ReleaseError(`the release already has a file named ${file.name}`, "conflict");
  const row = {
    id: file.id,
    release_id: releaseId,
    platform: file.platform,
    name: file.name,
    size_bytes: file.stored.size,
    sha256: file.stored.sha256,
    sha512: file.stored.sha512,
    signature: file.signature,
    storage_key: file.storageKey,
    created_at: now.toISOString(),
  };
  await db.insertInto("release_files").values(row).execute();
  return fileOf(row);
}

/** Stages and records a file in one go; a refused record removes what was stored. */
export async function addReleaseFile(
  db: Db,
  storage: ReleaseStorage,
  releaseId: string,
  input: NewReleaseFile,
): Promise<ReleaseFile> {
  const staged = await stageReleaseFile(storage, input);
  try {
    return await recordReleaseFile(db, releaseId, staged);
  } catch (error) {
    await storage.remove(staged.storageKey);
    throw error;
  }
}

async function releaseRow(db: Db, productId: number, text: string) {
  const version = normaliseVersion(text);
  if (version === undefined) throw new ReleaseError(`"${text}" is not a semantic version`);
  const row = await db
    .selectFrom("releases")
    .selectAll()
    .where("product_id", "=", productId)
    .where("version", "=", version)
    .executeTakeFirst();
  if (!row) throw new ReleaseError(`no release ${version} of this product`, "not-found");
  return row;
}

/**
 * Publishes a draft (or a yanked release again): it needs a file. Its date is when it was first published (`at`
 * for an import that keeps the original date). Answers null when it was already published.
 */
export async function publishRelease(
  db: Db,
  productId: number,
  version: string,
  { now = new Date(), at }: { now?: Date; at?: string } = {},
): Promise<Release | null> {
  const row = await releaseRow(db, productId, version);
  if (row.state === "published") return null;
  const files = await db.selectFrom("release_files").select("id").where("release_id", "=", row.id).execute();
  if (files.length === 0) throw new ReleaseError("a release needs a file before it is published", "conflict");
  const publishedAt = row.published_at ?? at ?? now.toISOString();
  await db
    .updateTable("releases")
    .set({ state: "published", published_at: publishedAt, yanked_at: null })
    .where("id", "=", row.id)
    .execute();
  return (await findRelease(db, productId, row.version)) ?? null;
}

/** Withdraws a release from pages and feeds, keeping it and its counts. Answers null when it was already yanked. */
export async function yankRelease(
  db: Db,
  productId: number,
  version: string,
  { now = new Date() }: { now?: Date } = {},
): Promise<Release | null> {
  const row = await releaseRow(db, productId, version);
  if (row.state === "yanked") return null;
  await db
    .updateTable("releases")
    .set({ state: "yanked", yanked_at: now.toISOString() })
    .where("id", "=", row.id)
    .execute();
  return (await findRelease(db, productId, row.version)) ?? null;
}

/** Counted downloads per release (every day), for the CLI and the console. */
export async function downloadCounts(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom("release_downloads")
    .select(["release_id", db.fn.countAll<number | string>().as("count")])
    .groupBy("release_id")
    .execute();
  return new Map(rows.map((r) => [r.release_id, Number(r.count)]));
}
