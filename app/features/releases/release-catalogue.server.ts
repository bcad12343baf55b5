// What the releases need from outside: the product a URL names, and the storage the process uses.
import { getCatalogue, getProduct } from "~/features/catalog/catalogue.server";
import type { Product } from "~/features/catalog/catalog.content";
import type { AnyLocale } from "~/features/i18n/locales";
import { getEnv } from "~/platform/env.server";
import { createDiskStorage, type ReleaseStorage } from "./release-storage.server";

/** A product's slug or id as a URL or the CLI names it (`vault`, `446889`); undefined when the catalogue has none. */
export function productByRef(ref: string, locale: AnyLocale = "en"): Product | undefined {
  if (/^\d{1,12}$/.test(ref)) return getProduct(Number(ref), locale);
  if (!/^[a-z0-9][a-z0-9-]{0,63}$/.test(ref)) return undefined;
  return getCatalogue(locale)
    .all()
    .find((p) => p.slug === ref);
}

/** True when a product reference has the form of a slug or an id (a bad one is a 400, an unknown one a 404). */
export function isProductRef(ref: string): boolean {
  return /^\d{1,12}$/.test(ref) || /^[a-z0-9][a-z0-9-]{0,63}$/.test(ref);
}

let storage: ReleaseStorage | undefined;

/** The process's release storage: the embedded one under DATA_DIR (ADR 032). */
export function releaseStorage(): ReleaseStorage {
  storage ??= createDiskStorage(getEnv().DATA_DIR);
  return storage;
}

/** The largest file accepted, in bytes. */
export function maxReleaseFileBytes(): number {
  return getEnv().RELEASE_MAX_FILE_MB * 1_048_576;
}
