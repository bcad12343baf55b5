// The audited changes of releases (issue 45), shared by the CLI (actor `cli`) and the console's Releases room (the
// staff member): add a release with its files, publish, yank. Each writes its audit entry in the same transaction.
import type { Kysely } from "kysely";
import type { Readable } from "node:stream";
import type { Database } from "../../../db/schema";
import { type AuditEntryInput, auditedChange } from "~/features/audit/audit-log.server";
import type { ReleaseStorage } from "./release-storage.server";
import type { ReleaseAccess, ReleaseChannel, ReleaseNotes, ReleasePlatform, ReleaseRequirements } from "./releases";
import {
  createRelease,
  publishRelease,
  type Release,
  recordReleaseFile,
  type StagedReleaseFile,
  stageReleaseFile,
  yankRelease,
} from "./releases.server";

/** Who makes the change, as the audit entry records it. */
export type ReleaseActor = Omit<AuditEntryInput, "action" | "target" | "detail">;

export interface ReleaseProductRef {
  id: number;
  slug: string;
}

/** Publishes or yanks a release; null when it already was (no audit entry then). */
export function changeReleaseState(
  db: Kysely<Database>,
  change: "publish" | "yank",
  product: ReleaseProductRef,
  version: string,
  actor: ReleaseActor,
): Promise<Release | null> {
  const run = change === "publish" ? publishRelease : yankRelease;
  return auditedChange(
    db,
    (trx) => run(trx, product.id, version),
    (release) =>
      release && {
        ...actor,
        action: change === "publish" ? "release-published" : "release-yanked",
        target: `release ${product.slug} ${version}`,
        detail: { product: product.id, version },
      },
  );
}

export interface NewReleaseUpload {
  platform: ReleasePlatform;
  name: string;
  signature: string | null;
  /** Streamed into the storage; never held in memory. */
  source: Readable;
}

export interface NewReleaseWithFiles {
  product: ReleaseProductRef;
  version: string;
  channel: ReleaseChannel;
  access: ReleaseAccess;
  notes: ReleaseNotes;
  requirements: ReleaseRequirements;
  publish: boolean;
  maxBytes: number;
}

/**
 * Streams and hashes each file into the storage (before the transaction, so no write lock is held while it uploads),
 * then records the release, its files and its audit entry in one transaction. On any failure the staged files are
 * removed: nothing is left half-written. Files come one after the other (`files` may be an async generator reading a
 * multipart body).
 */
export async function addReleaseWithFiles(
  db: Kysely<Database>,
  storage: ReleaseStorage,
  input: NewReleaseWithFiles,
  files: Iterable<NewReleaseUpload> | AsyncIterable<NewReleaseUpload>,
  actor: ReleaseActor,
): Promise<{ release: Release; files: StagedReleaseFile[] }> {
  const staged: StagedReleaseFile[] = [];
  try {
    for await (const file of files) staged.push(await stageReleaseFile(storage, { ...file, maxBytes: input.maxBytes }));
    const release = await auditedChange(
      db,
      async (trx) => {
        const draft = await createRelease(trx, {
          productId: input.product.id,
          version: input.version,
          channel: input.channel,
          access: input.access,
          notes: input.notes,
          requirements: input.requirements,
        });
        for (const file of staged) await recordReleaseFile(trx, draft.id, file);
        if (input.publish) await publishRelease(trx, input.product.id, input.version);
        return draft;
      },
      (draft) => ({
        ...actor,
        action: "release-added",
        target: `release ${input.product.slug} ${input.version}`,
        detail: {
          product: input.product.id,
          version: input.version,
          channel: input.channel,
          published: input.publish,
          files: staged.map((f) => ({
            name: f.name,
            platform: f.platform,
            size: f.stored.size,
            sha256: f.stored.sha256,
          })),
          id: draft.id,
        },
      }),
    );
    return { release, files: staged };
  } catch (error) {
    for (const file of staged) await storage.remove(file.storageKey);
    throw error;
  }
}
