// `GET /downloads/<product>/<version>/<file>` (issue 45): the buyer's /orders session and the order's right (or a
// release for anyone), then the file from disk with ranges, so an interrupted download resumes. A download is counted
// once, when it starts from its first byte; an order starts at most RELEASE_DOWNLOADS_PER_DAY a UTC day.
import crypto from "node:crypto";
import type { I18n } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import express, { type Request, type Response } from "express";
import type { Kysely } from "kysely";
import { SESSION_COOKIE } from "~/features/buyer-orders/sign-in";
import { buyerSessionEmail } from "~/features/buyer-orders/sign-in-store.server";
import { i18nFor } from "~/features/i18n/i18n.server";
import { type AnyLocale, isLocale, localeInfo, localizedPath } from "~/features/i18n/locales";
import { getDb } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { cookieValue } from "~/platform/form-input";
import type { Database } from "../../../db/schema";
import { productByRef, releaseStorage } from "./release-catalogue.server";
import { rightsOf, rightTo } from "./release-rights.server";
import type { ReleaseStorage } from "./release-storage.server";
import { downloadPath, fileNameProblem, normaliseVersion } from "./releases";
import { publishedReleases, type Release, type ReleaseFile } from "./releases.server";

const DAY_MS = 86_400_000;

/** One range of bytes from a `Range` header, or "unsatisfiable", or undefined to send the whole file. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | "bad" | undefined {
  if (header === undefined) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges, or another unit: the whole file (allowed by RFC 9110).
  if (!match) return undefined;
  const [, from = "", to = ""] = match;
  if (from === "" && to === "") return undefined;
  if (from === "") {
    const suffix = Number(to);
    if (suffix === 0) return "bad";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === "" ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size || end < start) return "bad";
  return { start, end };
}

/** The UTC day of a time, and when the next one begins. */
function utcDay(now: Date) {
  const day = now.toISOString().slice(0, 10);
  return { day, opensAt: new Date(Date.parse(`${day}T00:00:00.000Z`) + DAY_MS) };
}

export type CountOutcome = { ok: true; counted: boolean } | { ok: false; opensAt: Date };

/**
 * Counts a download for an order (or for anyone, without a limit). A request that resumes (a range past the first
 * byte) is not counted when this order started the same file in the last day; otherwise it counts as a start.
 */
export async function countDownload(
  db: Kysely<Database>,
  input: { file: ReleaseFile; orderId: string | null; resumes: boolean; limit: number; now?: Date },
): Promise<CountOutcome> {
  const now = input.now ?? new Date();
  const { day, opensAt } = utcDay(now);
  return db.transaction().execute(async (trx) => {
    if (input.orderId !== null) {
      if (input.resumes) {
        const started = await trx
          .selectFrom("release_downloads")
          .select("id")
          .where("order_id", "=", input.orderId)
          .where("file_id", "=", input.file.id)
          .where("at", ">", new Date(now.getTime() - DAY_MS).toISOString())
          .executeTakeFirst();
        if (started) return { ok: true as const, counted: false };
      }
      const today = await trx
        .selectFrom("release_downloads")
        .select(trx.fn.countAll<number | string>().as("count"))
        .where("order_id", "=", input.orderId)
        .where("day", "=", day)
        .executeTakeFirstOrThrow();
      if (Number(today.count) >= input.limit) return { ok: false as const, opensAt };
    } else if (input.resumes) return { ok: true as const, counted: false };
    await trx
      .insertInto("release_downloads")
      .values({
        id: crypto.randomUUID(),
        file_id: input.file.id,
        release_id: input.file.releaseId,
        order_id: input.orderId,
        day,
        at: now.toISOString(),
      })
      .execute();
    return { ok: true as const, counted: true };
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A small page for a person (the download did not start): its heading, one paragraph and one link. */
function sendPage(
  res: Response,
  locale: AnyLocale,
  status: number,
  page: { title: string; text: string; link: { href: string; label: string } },
) {
  const { tag, dir } = localeInfo(locale);
  res
    .status(status)
    .set("Cache-Control", "no-store")
    .type("html")
    .send(
      `<!doctype html><html lang="${tag}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(page.title)}</title></head><body><main><h1>${escapeHtml(page.title)}</h1><p>${escapeHtml(page.text)}</p><p><a href="${escapeHtml(page.link.href)}">${escapeHtml(page.link.label)}</a></p></main></body></html>`,
    );
}

function notFound(res: Response, locale: AnyLocale, i18n: I18n) {
  sendPage(res, locale, 404, {
    title: i18n._(msg`This download does not exist`),
    text: i18n._(
      msg`The product, version or file in this link is not one we offer. The downloads page lists every release.`,
    ),
    link: { href: localizedPath("/downloads", locale), label: i18n._(msg`Go to Downloads`) },
  });
}

export interface DownloadDeps {
  db: () => Kysely<Database>;
  storage: () => ReleaseStorage;
  limit: () => number;
  now?: () => Date;
}

const defaultDeps: DownloadDeps = {
  db: () => getDb().db,
  storage: releaseStorage,
  limit: () => getEnv().RELEASE_DOWNLOADS_PER_DAY,
};

/** The download route, with and without a language prefix (the pages it may answer are in that language). */
export function createDownloadRouter(deps: DownloadDeps = defaultDeps) {
  const router = express.Router();
  const handler = async (req: Request, res: Response) => {
    const lang = typeof req.params.lang === "string" ? req.params.lang : undefined;
    if (lang !== undefined && !isLocale(lang)) return res.status(404).type("text").send("Not found");
    const locale: AnyLocale = lang ?? "en";
    const i18n = i18nFor(locale);
    const { product: ref = "", version: rawVersion = "", file: name = "" } = req.params as Record<string, string>;
    const product = productByRef(ref);
    const version = normaliseVersion(rawVersion);
    if (!product || version === undefined || fileNameProblem(name) !== undefined) return notFound(res, locale, i18n);
    const db = deps.db();
    const release = (await publishedReleases(db, product.id)).find((r) => r.version === version);
    const file = release?.files.find((f) => f.name === name);
    if (!release || !file) return notFound(res, locale, i18n);
    const here = localizedPath(downloadPath(product.slug, release.version, file.name), locale);

    let orderId: string | null = null;
    if (release.access !== "anyone") {
      const session = cookieValue(req.headers.cookie ?? null, SESSION_COOKIE);
      const email = session ? await buyerSessionEmail(db, session) : undefined;
      const right = rightTo(release, email ? await rightsOf(db, email) : undefined);
      if (right.kind === "sign-in")
        return res
          .status(303)
          .set("Cache-Control", "no-store")
          .location(`${localizedPath("/orders", locale)}?next=${encodeURIComponent(here)}`)
          .end();
      if (right.kind !== "download") return refused(res, locale, i18n, release, product, right);
      orderId = right.orderId;
    }
    return sendFile(req, res, { deps, db, file, orderId, locale, i18n });
  };
  router.get("/downloads/:product/:version/:file", handler);
  router.get("/:lang/downloads/:product/:version/:file", handler);
  return router;
}

function refused(
  res: Response,
  locale: AnyLocale,
  i18n: I18n,
  release: Release,
  product: { slug: string; name: string },
  right: { kind: "buy" } | { kind: "renew"; durationValue: string | undefined } | { kind: "length-unknown" },
) {
  const productPath = localizedPath(`/product/${product.slug}`, locale);
  const { name } = product;
  const { version } = release;
  if (right.kind === "buy")
    return sendPage(res, locale, 403, {
      title: i18n._(msg`This download comes with ${name}`),
      text: i18n._(msg`None of the orders of the address you signed in with is for ${name}.`),
      link: { href: productPath, label: i18n._(msg`Buy ${name}`) },
    });
  if (right.kind === "renew")
    return sendPage(res, locale, 403, {
      title: i18n._(msg`Renew to get ${version}`),
      text: i18n._(
        msg`Version ${version} came out after your licence ended. Your licence still downloads every version released before it ended.`,
      ),
      link: {
        href: right.durationValue ? `${productPath}?duration=${encodeURIComponent(right.durationValue)}` : productPath,
        label: i18n._(msg`Renew to get ${version}`),
      },
    });
  return sendPage(res, locale, 403, {
    title: i18n._(msg`We cannot tell how long your licence runs`),
    text: i18n._(
      msg`The shop does not say how long your licence lasts, so versions released after your purchase are not opened. Contact support and we will sort it out.`,
    ),
    link: { href: localizedPath("/orders", locale), label: i18n._(msg`Go to your orders`) },
  });
}

async function sendFile(
  req: Request,
  res: Response,
  {
    deps,
    db,
    file,
    orderId,
    locale,
    i18n,
  }: {
    deps: DownloadDeps;
    db: Kysely<Database>;
    file: ReleaseFile;
    orderId: string | null;
    locale: AnyLocale;
    i18n: I18n;
  },
) {
  const storage = deps.storage();
  const size = await storage.size(file.storageKey);
  if (size === undefined) return notFound(res, locale, i18n);
  const etag = `"${file.sha256.slice(0, 32)}"`;
  const ifRange = req.headers["if-range"];
  // A resume names what it holds; a file that changed since is sent whole.
  const rangeHeader = ifRange === undefined || ifRange === etag ? req.headers.range : undefined;
  const range = parseRange(rangeHeader, size);
  res.set({
    "Accept-Ranges": "bytes",
    ETag: etag,
    "Last-Modified": new Date(file.createdAt).toUTCString(),
    "Content-Type": "application/octet-stream",
    "Content-Disposition": `attachment; filename="${file.name}"`,
    "X-Content-Type-Options": "nosniff",
    // no-transform: nothing on the way (our compression included) may alter bytes whose checksum is published.
    "Cache-Control": "private, no-cache, no-transform",
  });
  if (range === "bad") return res.status(416).set("Content-Range", `bytes */${size}`).end();
  if (req.headers["if-none-match"] === etag && range === undefined) return res.status(304).end();
  if (req.method !== "HEAD") {
    const counted = await countDownload(db, {
      file,
      orderId,
      resumes: range !== undefined && range.start > 0,
      limit: deps.limit(),
      now: deps.now?.(),
    });
    if (!counted.ok) {
      const time = i18n.date(counted.opensAt, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
      const limit = deps.limit();
      res.removeHeader("Content-Disposition");
      return sendPage(res, locale, 429, {
        title: i18n._(msg`Today's downloads for this order are used up`),
        text: i18n._(msg`An order starts at most ${limit} downloads a day. Downloads open again on ${time} (UTC).`),
        link: { href: localizedPath("/downloads", locale), label: i18n._(msg`Go to Downloads`) },
      });
    }
  }
  if (range) {
    res.status(206).set({
      "Content-Range": `bytes ${range.start}-${range.end}/${size}`,
      "Content-Length": String(range.end - range.start + 1),
    });
  } else res.status(200).set("Content-Length", String(size));
  if (req.method === "HEAD") return res.end();
  const stream = storage.open(file.storageKey, range);
  stream.on("error", (error) => {
    req.log?.warn({ err: { message: error.message }, file: file.id }, "release download: the file could not be read");
    res.destroy();
  });
  // A client that goes away stops the read.
  res.on("close", () => stream.destroy());
  stream.pipe(res);
}
