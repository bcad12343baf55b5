// The console's Releases room (issue 45): owners and admins see each product's releases with their files and download
// counts, and publish or yank them. Plain forms: each change answers the page again with what happened; the change
// and its audit entry are one transaction (release-changes.server.ts, which the CLI uses too).
import { data, type RouterContextProvider } from "react-router";
import { getCatalogue } from "~/features/catalog/catalogue.server";
import { changeReleaseState } from "~/features/releases/release-changes.server";
import { compareVersions, normaliseVersion, type ReleasePlatform } from "~/features/releases/releases";
import { downloadCounts, listReleases, ReleaseError } from "~/features/releases/releases.server";
import { auditInfo, consoleLocale, NO_STORE, readConsoleForm, requireStaff } from "~/features/staff/door.server";
import { getDb, pageDatabaseWork } from "~/platform/db.server";
import { clientAddressContext } from "~/platform/request-context";

type Context = Readonly<RouterContextProvider>;

/** Two buttons' fields: an intent, a product id and a version. */
const MAX_RELEASE_FORM_BYTES = 4 * 1024;

export interface ConsoleReleaseFile {
  platform: ReleasePlatform;
  name: string;
  size: number;
  sha256: string;
}

export interface ConsoleRelease {
  id: string;
  version: string;
  channel: "stable" | "beta";
  state: "draft" | "published" | "yanked";
  access: "buyers" | "anyone";
  createdAt: string;
  publishedAt: string | null;
  yankedAt: string | null;
  downloads: number;
  files: ConsoleReleaseFile[];
}

export interface ConsoleReleaseProduct {
  id: number;
  name: string;
  releases: ConsoleRelease[];
}

export async function loadReleasesConsole(request: Request) {
  await requireStaff(request, "releases");
  const { db } = getDb();
  const [releases, counts] = await pageDatabaseWork(() => Promise.all([listReleases(db), downloadCounts(db)]));
  const catalogue = getCatalogue(consoleLocale(request)).all();
  const products: ConsoleReleaseProduct[] = catalogue.map((product) => ({
    id: product.id,
    name: product.name,
    releases: releases
      .filter((release) => release.productId === product.id)
      // Newest version first, whatever its state.
      .sort((a, b) => compareVersions(b.version, a.version))
      .map((release) => ({
        id: release.id,
        version: release.version,
        channel: release.channel,
        state: release.state,
        access: release.access,
        createdAt: release.createdAt,
        publishedAt: release.publishedAt,
        yankedAt: release.yankedAt,
        downloads: counts.get(release.id) ?? 0,
        files: release.files.map(({ platform, name, size, sha256 }) => ({ platform, name, size, sha256 })),
      })),
  }));
  return data({ products }, { headers: NO_STORE });
}

export type ReleasesNotice =
  | { kind: "published" | "yanked" | "already-published" | "already-yanked"; product: string; version: string }
  | { kind: "needs-file"; product: string; version: string }
  | { kind: "not-found" }
  | { kind: "bad-request" };

export interface ReleasesActionData {
  notice: ReleasesNotice;
}

function answer(notice: ReleasesNotice, status: number) {
  return data<ReleasesActionData>({ notice }, { status, headers: NO_STORE });
}

function text(body: FormData, name: string): string {
  const value = body.get(name);
  return typeof value === "string" ? value : "";
}

export async function releasesConsoleAction(request: Request, context: Context) {
  const session = await requireStaff(request, "releases");
  const body = await readConsoleForm(request, MAX_RELEASE_FORM_BYTES);
  const intent = text(body, "intent");
  if (intent !== "publish" && intent !== "yank") return answer({ kind: "bad-request" }, 400);
  const productId = text(body, "product");
  const product = /^\d{1,12}$/.test(productId)
    ? getCatalogue(consoleLocale(request))
        .all()
        .find((p) => p.id === Number(productId))
    : undefined;
  const version = normaliseVersion(text(body, "version").slice(0, 100));
  if (!product || !version) return answer({ kind: "not-found" }, 404);
  const { db } = getDb();
  const actor = {
    actor: session.staff.email,
    sessionBeganWith: session.beganWith,
    ...auditInfo(request, context.get(clientAddressContext)),
  };
  try {
    const changed = await pageDatabaseWork(() =>
      changeReleaseState(db, intent, { id: product.id, slug: product.slug }, version, actor),
    );
    const names = { product: product.name, version };
    if (intent === "publish") return answer({ kind: changed ? "published" : "already-published", ...names }, 200);
    return answer({ kind: changed ? "yanked" : "already-yanked", ...names }, 200);
  } catch (error) {
    if (error instanceof ReleaseError && error.kind === "not-found") return answer({ kind: "not-found" }, 404);
    if (error instanceof ReleaseError && error.kind === "conflict")
      return answer({ kind: "needs-file", product: product.name, version }, 409);
    throw error;
  }
}
