import crypto from "node:crypto";
import * as cheerio from "cheerio";
import {
  DEFAULT_AVATAR,
  EMPTY_BODY_REASON,
  FETCH_FAILED_REASON,
  isoDay,
  MAX_RATING,
  type Review,
  type VouchParseRules,
} from "./reviews";

// The one module that knows the vouch page: its HTTP behaviour and its markup. Everything past it is our Review type.

export const VOUCH_FETCH_TIMEOUT_MS = 10_000;
/** Bytes read from a vouch page at most; the rest is never downloaded. */
export const VOUCH_MAX_BYTES = 1024 * 1024;
const MAX_COMMENT_CHARS = 2000;
const MAX_USER_CHARS = 80;

/** A vouch page that could not be used; `reason` is safe to show to shoppers. */
export class VouchPageError extends Error {
  constructor(
    readonly reason: string,
    detail: string,
  ) {
    super(`${reason}: ${detail}`);
  }
}

export type VouchFetchResult =
  | { kind: "page"; html: string; etag: string | null; truncated: boolean }
  | { kind: "not-modified" };

export interface VouchFetchOptions {
  etag?: string | null;
  timeoutMs?: number;
  maxBytes?: number;
  /** Aborts the request early (process shutdown). */
  signal?: AbortSignal;
}

/** GETs the vouch page with a timeout and a size cap; a 304 (matching ETag) means the cached list is still current. */
export async function fetchVouchPage(url: string, options: VouchFetchOptions = {}): Promise<VouchFetchResult> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? VOUCH_FETCH_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
  const headers: Record<string, string> = {
    Accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5",
    "User-Agent": "KestrelStorefront/1 (reviews)",
  };
  if (options.etag) headers["If-None-Match"] = options.etag;
  let response: Response;
  try {
    response = await fetch(url, { headers, signal, redirect: "follow" });
  } catch (error) {
    throw new VouchPageError(FETCH_FAILED_REASON, failureDetail(error));
  }
  if (response.status === 304) {
    await response.body?.cancel();
    return { kind: "not-modified" };
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    throw new VouchPageError(FETCH_FAILED_REASON, `HTTP ${response.status}`);
  }
  let body: { text: string; truncated: boolean };
  try {
    body = await readCapped(response, options.maxBytes ?? VOUCH_MAX_BYTES);
  } catch (error) {
    throw new VouchPageError(FETCH_FAILED_REASON, failureDetail(error));
  }
  if (body.text.trim() === "") throw new VouchPageError(EMPTY_BODY_REASON, "empty body");
  return { kind: "page", html: body.text, etag: response.headers.get("etag"), truncated: body.truncated };
}

async function readCapped(response: Response, maxBytes: number): Promise<{ text: string; truncated: boolean }> {
  if (!response.body) return { text: "", truncated: false };
  const reader = response.body.getReader();
  const decoder = new TextDecoder("utf-8");
  let received = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const room = maxBytes - received;
    if (value.byteLength >= room) {
      text += decoder.decode(value.subarray(0, room), { stream: false });
      // Stop downloading: the rest of an oversized page is never read.
      await reader.cancel().catch(() => {});
      return { text, truncated: true };
    }
    received += value.byteLength;
    text += decoder.decode(value, { stream: true });
  }
  return { text: text + decoder.decode(), truncated: false };
}

function failureDetail(error: unknown): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) return "timed out";
  return error instanceof Error ? error.message : String(error);
}

/** Parses vouch cards into reviews. When the page was cut at the size cap, the last (possibly cut) card is dropped. */
export function parseVouchPage(
  html: string,
  rules: VouchParseRules,
  options: { now?: Date; truncated?: boolean } = {},
): Review[] {
  const $ = cheerio.load(html);
  // Nothing executable or invisible contributes text.
  $("script, style, noscript, template, iframe, object, embed, svg title").remove();
  const today = isoDay(options.now ?? new Date());
  const cards = $(rules.card).toArray();
  if (options.truncated) cards.pop();
  const seenIds = new Set<string>();
  const reviews: Review[] = [];
  for (const card of cards) {
    const $card = $(card);
    const user = reviewerName(plainText($card.find(rules.user).first().text()));
    const comment = clip(plainText(blockText($card.find(rules.text).first())), MAX_COMMENT_CHARS);
    const rating = Math.min(
      MAX_RATING,
      $card.find(rules.star).filter((_, star) => hasClass($(star).attr("class"), rules.filledStarClass)).length,
    );
    const dateElement = $card.find(rules.date).first();
    const date = toIsoDate(dateElement.attr("datetime") ?? dateElement.text()) ?? today;
    const avatar = safeAvatar($card.find(rules.avatar).first().attr("src"));
    if (!user && !comment) continue;
    const rawId = rules.idAttribute ? $card.attr(rules.idAttribute) : undefined;
    let id = rawId?.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 64) || contentId(user, comment, date);
    while (seenIds.has(id)) id = `${id}-${seenIds.size}`;
    seenIds.add(id);
    reviews.push({ id, user: user || "Anonymous", avatar, comment, rating, date });
  }
  return reviews;
}

/** Text with block boundaries kept as spaces (cheerio's .text() glues `<p>a</p><p>b</p>` into "ab"). */
function blockText(element: ReturnType<cheerio.CheerioAPI>): string {
  const copy = element.clone();
  copy.find("br, p, div, li").before(" ");
  return copy.text();
}

/** Plain text only: control characters dropped, tag-like leftovers (from entity-encoded markup) removed, whitespace collapsed. */
export function plainText(value: string): string {
  return (
    value
      // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u200B-\u200F\u202A-\u202E\u2066-\u2069]/g, "")
      .replace(/<\/?[A-Za-z!][^>]*>?/g, " ")
      .replace(/\s+/g, " ")
      .trim()
  );
}

/** The reviewer is the handle after `@` ("Vouched by @alice" → "alice"); without one, the whole text. */
function reviewerName(text: string): string {
  const handle = text.match(/@([^\s@]+)/)?.[1];
  return clip(handle ?? text, MAX_USER_CHARS);
}

function clip(value: string, max: number): string {
  return value.length <= max ? value : `${value.slice(0, max - 1).trimEnd()}…`;
}

function hasClass(classAttribute: string | undefined, name: string): boolean {
  return (classAttribute ?? "").split(/\s+/).includes(name);
}

/** Only https: images from the vouch page; anything else (javascript:, data:, http:, relative) gets the local default. */
export function safeAvatar(src: string | undefined): string {
  if (!src) return DEFAULT_AVATAR;
  try {
    const url = new URL(src.trim());
    return url.protocol === "https:" && !url.username && !url.password ? url.href : DEFAULT_AVATAR;
  } catch {
    return DEFAULT_AVATAR;
  }
}

/** YYYY-MM-DD from a datetime attribute or a readable date ("2026-11-18T10:00Z", "Nov 18, 2026"); null when unreadable. */
export function toIsoDate(value: string | undefined): string | null {
  const text = plainText(value ?? "");
  if (!text) return null;
  const iso = text.match(/\b(\d{4})-(\d{2})-(\d{2})/);
  if (iso) {
    const candidate = `${iso[1]}-${iso[2]}-${iso[3]}`;
    return isValidDay(candidate) ? candidate : null;
  }
  const parsed = Date.parse(`${text} UTC`);
  const fallback = Number.isNaN(parsed) ? Date.parse(text) : parsed;
  if (Number.isNaN(fallback)) return null;
  const day = new Date(fallback).toISOString().slice(0, 10);
  return isValidDay(day) ? day : null;
}

function isValidDay(day: string): boolean {
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day && date.getUTCFullYear() >= 2000;
}

function contentId(user: string, comment: string, date: string): string {
  return `v-${crypto.createHash("sha256").update(`${user}\n${comment}\n${date}`).digest("hex").slice(0, 16)}`;
}
