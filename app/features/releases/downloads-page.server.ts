// What /downloads shows (issue 45): each product's latest stable release and its newer beta, with what the button
// does for this visitor: Download, Sign in to download, Buy {product} or Renew to get {version}.
import { data } from "react-router";
import { SESSION_COOKIE } from "~/features/buyer-orders/sign-in";
import { buyerSessionEmail } from "~/features/buyer-orders/sign-in-store.server";
import { getProduct } from "~/features/catalog/catalogue.server";
import { getContent } from "~/features/content/content.server";
import { type AnyLocale, localizedPath, PSEUDO_LOCALE } from "~/features/i18n/locales";
import { pseudoLocalize } from "~/features/i18n/pseudo-locale";
import { getDb, pageDatabaseWork } from "~/platform/db.server";
import { cookieValue } from "~/platform/form-input";
import { type DownloadRight, type OrderRight, rightsOf, rightTo } from "./release-rights.server";
import { compareVersions, downloadPath, notesFor, type ReleasePlatform, requirementsFor } from "./releases";
import { allPublishedReleases, latestOf, publishedReleases, type Release } from "./releases.server";
import { productByRef } from "./release-catalogue.server";

export interface ReleaseFileView {
  name: string;
  platform: ReleasePlatform;
  size: number;
  sha256: string;
  /** Where the file is downloaded (the gated route). */
  href: string;
}

/** What the button does, and where it goes. */
export type ReleaseAction =
  | { kind: "download"; href: string }
  | { kind: "sign-in"; href: string }
  | { kind: "buy"; href: string }
  | { kind: "renew"; href: string }
  | { kind: "length-unknown"; href: string };

export interface ReleaseView {
  id: string;
  productId: number;
  productName: string;
  productSlug: string;
  version: string;
  channel: "stable" | "beta";
  /** `YYYY-MM-DD`. */
  date: string;
  notes: string;
  requirements: string[];
  files: Array<ReleaseFileView & { action: ReleaseAction }>;
}

function actionFor(right: DownloadRight, file: ReleaseFileView, productSlug: string, locale: AnyLocale): ReleaseAction {
  const productPath = localizedPath(`/product/${productSlug}`, locale);
  switch (right.kind) {
    case "download":
      return { kind: "download", href: file.href };
    case "sign-in":
      return { kind: "sign-in", href: `${localizedPath("/orders", locale)}?next=${encodeURIComponent(file.href)}` };
    case "buy":
      return { kind: "buy", href: productPath };
    case "renew":
      return {
        kind: "renew",
        href: right.durationValue ? `${productPath}?duration=${encodeURIComponent(right.durationValue)}` : productPath,
      };
    case "length-unknown":
      return { kind: "length-unknown", href: localizedPath("/orders", locale) };
  }
}

export function releaseView(
  release: Release,
  rights: readonly OrderRight[] | undefined,
  locale: AnyLocale,
): ReleaseView | undefined {
  const product = getProduct(release.productId, locale);
  if (!product) return undefined;
  const right = rightTo(release, rights);
  const pseudo = (text: string) => (locale === PSEUDO_LOCALE ? pseudoLocalize(text) : text);
  return {
    id: release.id,
    productId: release.productId,
    productName: product.name,
    productSlug: product.slug,
    version: release.version,
    channel: release.channel,
    date: (release.publishedAt ?? release.createdAt).slice(0, 10),
    // The pseudo-locale is made from English, as its content is (docs/i18n.md).
    notes: pseudo(notesFor(release.notes, locale)),
    requirements: requirementsFor(release.requirements, locale).map(pseudo),
    files: release.files.map((f) => {
      const file = {
        name: f.name,
        platform: f.platform,
        size: f.size,
        sha256: f.sha256,
        href: localizedPath(downloadPath(product.slug, release.version, f.name), locale),
      };
      return { ...file, action: actionFor(right, file, product.slug, locale) };
    }),
  };
}

/** The buyer's rights when signed in at /orders, else undefined (signed out). */
export async function visitorRights(request: Request): Promise<OrderRight[] | undefined> {
  const { db } = getDb();
  const session = cookieValue(request.headers.get("Cookie"), SESSION_COOKIE);
  const email = session ? await buyerSessionEmail(db, session) : undefined;
  return email ? rightsOf(db, email) : undefined;
}

/** Each product's latest stable, and its beta when one is newer, in the catalogue's order of release dates. */
export async function loadDownloadsPage(request: Request, locale: AnyLocale) {
  return pageDatabaseWork(async () => {
    const [releases, rights] = await Promise.all([allPublishedReleases(getDb().db), visitorRights(request)]);
    const byProduct = new Map<number, Release[]>();
    for (const release of releases)
      byProduct.set(release.productId, [...(byProduct.get(release.productId) ?? []), release]);
    const shown: ReleaseView[] = [];
    for (const list of byProduct.values()) {
      const stable = latestOf(list, "stable");
      const beta = latestOf(list, "beta");
      // The beta channel's newest is shown beside the stable one only when it is a beta newer than it.
      const newerBeta =
        beta && beta.channel === "beta" && (!stable || compareVersions(beta.version, stable.version) > 0)
          ? beta
          : undefined;
      for (const release of [stable, newerBeta]) {
        const view = release && releaseView(release, rights, locale);
        if (view) shown.push(view);
      }
    }
    // The order content/downloads.json lists its products in; other products after them.
    const order = getContent(locale).downloads.map((d) => d.productId);
    const rank = (view: ReleaseView) => {
      const i = order.indexOf(view.productId);
      return i === -1 ? order.length : i;
    };
    shown.sort((a, b) => rank(a) - rank(b) || (a.channel === b.channel ? 0 : a.channel === "stable" ? -1 : 1));
    return { releases: shown, signedIn: rights !== undefined };
  });
}

/** A product's own downloads page: every published release, newest first; a 404 for a product we do not have. */
export async function loadProductDownloadsPage(request: Request, locale: AnyLocale, ref: string) {
  const product = productByRef(ref, locale);
  if (!product) throw data(null, { status: 404 });
  return pageDatabaseWork(async () => {
    const [releases, rights] = await Promise.all([publishedReleases(getDb().db, product.id), visitorRights(request)]);
    const views = releases.map((r) => releaseView(r, rights, locale)).filter((v): v is ReleaseView => v !== undefined);
    return { productName: product.name, productSlug: product.slug, releases: views };
  });
}
