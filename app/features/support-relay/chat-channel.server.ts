// The chat channel (a Discord-compatible webhook). Its wire format stays in this module: callers pass our own types.
import type { RESTPostAPIWebhookWithTokenJSONBody } from "discord-api-types/v10";
import { DEFAULT_LOCALE, isLocale, localeInfo, PSEUDO_LOCALE } from "~/features/i18n/locales";
import { retryAfterHeaderMs } from "~/platform/retry-after";

/** The outbox category of a probe's status alert: it travels like a visitor's request but reads as an alert. */
export const STATUS_ALERT_CATEGORY = "Status Alert";

export interface ChannelSupportRequest {
  id: string;
  category: string;
  questions: readonly string[];
  answers: readonly string[];
  /** The language the visitor chatted in (`de`), named in the message; absent for alerts and older requests. */
  locale?: string | null;
  /** ISO-8601 time the visitor submitted the request. */
  createdAt: string;
}

export type ChatChannelMessage = RESTPostAPIWebhookWithTokenJSONBody;

/** Discord's documented message limits. */
export const CHANNEL_LIMITS = {
  content: 2000,
  title: 256,
  description: 4096,
  footer: 2048,
  embedTotal: 6000,
  embeds: 10,
} as const;
export const EMBED_COLOR = 5793266;
export const NO_ANSWER = "No answer provided";

/**
 * Backslash-escapes Markdown so a visitor's text shows literally (no bold, masked links, spoilers, headings, quotes,
 * lists or mention syntax). `@` stays as typed (emails must copy cleanly); allowed_mentions stops any ping.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\*_~`|[\]()<>#-]/g, (c) => `\\${c}`).replace(/^(\s*\d+)\./gm, "$1\\.");
}

/** Characters a reader cannot see or that reorder what they see: controls, format characters, default-ignorables. */
const HIDDEN_CHARACTER = /^[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]$/u;
const PICTOGRAPH = /^\p{Extended_Pictographic}$/u;
const HAN = /^\p{Script=Han}$/u;
const SKIN_TONE = /^[\u{1F3FB}-\u{1F3FF}]$/u;
const TAG = /^[\u{E0020}-\u{E007F}]$/u;
const BLACK_FLAG = "\u{1F3F4}";

/** What a reader sees as one character (an emoji with its joiners, a letter with its accents): text is never cut inside one. */
const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

/**
 * Whether the invisible code point at `index` of a grapheme's code points is one emoji (and CJK variants) are made
 * of, which must stay for them to show as intended. The segmenter keeps such joiners and selectors in their emoji's grapheme.
 */
function partOfEmoji(points: readonly string[], index: number): boolean {
  const char = points[index] ?? "";
  const before = points[index - 1] ?? "";
  if (char === "\u200D") {
    // Emoji joined into one (family, profession, rainbow flag): look past a presentation selector or skin tone.
    let at = index - 1;
    while (points[at] === "\uFE0F" || SKIN_TONE.test(points[at] ?? "")) at--;
    return PICTOGRAPH.test(points[at] ?? "") && PICTOGRAPH.test(points[index + 1] ?? "");
  }
  if (char === "\uFE0E" || char === "\uFE0F") return PICTOGRAPH.test(before) || /^[0-9#*]$/.test(before);
  if (/^[\u{E0100}-\u{E01EF}]$/u.test(char)) return HAN.test(before);
  if (TAG.test(char)) {
    // Subdivision flags: the black flag, then tag characters up to the cancel tag.
    let at = index - 1;
    while (TAG.test(points[at] ?? "")) at--;
    return points[at] === BLACK_FLAG;
  }
  return false;
}

/**
 * Shows hidden characters as `[U+202E]` so staff read what was typed: a right-to-left override or a zero-width space
 * cannot make a contact address look like another. Line breaks, tabs and the joiners inside emoji stay.
 */
export function markHiddenCharacters(text: string): string {
  let marked = "";
  for (const { segment } of graphemes.segment(text)) {
    const points = [...segment];
    points.forEach((char, index) => {
      const hidden = HIDDEN_CHARACTER.test(char) && char !== "\n" && char !== "\t" && !partOfEmoji(points, index);
      marked += hidden ? `[U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}]` : char;
    });
  }
  return marked;
}

/** An answer as the channel shows it: hidden characters marked, Markdown escaped. */
export function renderAnswer(answer: string | undefined): string {
  const trimmed = answer?.trim() ?? "";
  return trimmed === "" ? NO_ANSWER : escapeMarkdown(markHiddenCharacters(trimmed));
}

function endsWithOddBackslashes(text: string, end: number): boolean {
  let count = 0;
  while (end - count > 0 && text[end - count - 1] === "\\") count++;
  return count % 2 === 1;
}

/** Offsets in `text` where one grapheme ends and the next starts (0 and text.length included). */
function graphemeBoundaries(text: string): Set<number> {
  const boundaries = new Set([text.length]);
  for (const { index } of graphemes.segment(text)) boundaries.add(index);
  return boundaries;
}

/** Cuts text to at most `max` UTF-16 units (as Discord counts) between graphemes, without leaving a dangling escape. */
export function truncateSafely(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return "";
  // Whole graphemes up to one unit short of max: the ellipsis takes the last.
  let end = 0;
  for (const { index, segment } of graphemes.segment(text)) {
    if (index + segment.length > max - 1) break;
    end = index + segment.length;
  }
  let cut = text.slice(0, end);
  // An odd run of trailing backslashes would escape the ellipsis; drop one.
  if (endsWithOddBackslashes(cut, cut.length)) cut = cut.slice(0, -1);
  return `${cut}…`;
}

/**
 * Shares a character budget between texts: short ones keep everything, long ones split what is left evenly
 * (so one very long answer cannot push the others out).
 */
function fitTexts(texts: string[], budget: number): string[] {
  const result = [...texts];
  const order = texts.map((t, i) => ({ i, length: t.length })).sort((a, b) => a.length - b.length);
  let remaining = budget;
  order.forEach(({ i, length }, position) => {
    const share = Math.floor(remaining / (order.length - position));
    const text = texts[i] ?? "";
    result[i] = length <= share ? text : truncateSafely(text, share);
    remaining -= result[i]?.length ?? 0;
  });
  return result;
}

const SECTION_SEPARATOR = "\n\n";

/** Where a piece of a section may end: between graphemes, not inside an escape, and not where the rest would start a list. */
function canSplitAt(text: string, at: number, boundaries: ReadonlySet<number>): boolean {
  if (!boundaries.has(at)) return false;
  if (endsWithOddBackslashes(text, at)) return false;
  return !/^\s*\d+\./.test(text.slice(at, at + 16));
}

/** Where to end the first piece of an over-long section: a line break, else a space, in its last quarter, else any safe place. */
function splitPoint(text: string, max: number): number {
  const boundaries = graphemeBoundaries(text);
  for (const boundary of ["\n", " "]) {
    for (let at = max; at > max * 0.75; at--)
      if (text[at - 1] === boundary && canSplitAt(text, at, boundaries)) return at;
  }
  for (let at = max; at > 0; at--) if (canSplitAt(text, at, boundaries)) return at;
  // No safe place at all (one grapheme longer than a description): cut at the limit rather than never.
  return max;
}

/** Lays sections out over as many descriptions as needed: whole sections together, one too long for any split in pieces. */
function flowIntoDescriptions(sections: string[], max: number): string[] {
  const descriptions: string[] = [];
  let current = "";
  for (const section of sections) {
    if (current !== "" && current.length + SECTION_SEPARATOR.length + section.length <= max) {
      current += SECTION_SEPARATOR + section;
      continue;
    }
    if (current !== "") descriptions.push(current);
    current = section;
    while (current.length > max) {
      const at = splitPoint(current, max);
      descriptions.push(current.slice(0, at));
      current = current.slice(at);
    }
  }
  if (current !== "") descriptions.push(current);
  return descriptions;
}

/**
 * The request as descriptions: `lead` (our own line, e.g. the language) first, then each question in bold with its
 * answer on the next line, sections separated by a blank line. Everything that fits `budget` (Discord's 6000
 * characters across embeds) is kept whole, in as many descriptions of at most 4096 as it takes; only what cannot fit
 * is cut, fairly across answers and ending in "…".
 */
export function buildDescriptions(
  questions: readonly string[],
  answers: readonly string[],
  budget: number,
  lead?: string,
): string[] {
  const headings = questions.map((q) => `**${escapeMarkdown(q)}**\n`);
  const bodies = questions.map((_, i) => renderAnswer(answers[i]));
  const leading = lead === undefined ? [] : [lead];
  const sections = leading.length + questions.length;
  const fixed =
    [...leading, ...headings].reduce((sum, h) => sum + h.length, 0) +
    SECTION_SEPARATOR.length * Math.max(0, sections - 1);
  const wanted = bodies.reduce((sum, b) => sum + b.length, 0);
  const fitted = fixed + wanted <= budget ? bodies : fitTexts(bodies, Math.max(0, budget - fixed));
  return flowIntoDescriptions([...leading, ...headings.map((h, i) => `${h}${fitted[i]}`)], CHANNEL_LIMITS.description);
}

const ENGLISH_LANGUAGE_NAMES = new Intl.DisplayNames(["en"], { type: "language", fallback: "none" });

/**
 * The visitor's language as the team reads it, in English whatever the visitor chatted in: "German (de)",
 * "Brazilian Portuguese (pt-br)"; a code this release does not know stays as it is.
 */
export function languageName(locale: string): string {
  const tag = isLocale(locale) || locale === PSEUDO_LOCALE ? localeInfo(locale).tag : undefined;
  const name = tag === undefined ? undefined : ENGLISH_LANGUAGE_NAMES.of(tag);
  return name ? `${name} (${locale})` : locale;
}

/** Sum of the embeds' text fields, as Discord counts it against the 6000-character total. */
export function embedTextLength(message: ChatChannelMessage): number {
  return (message.embeds ?? []).reduce(
    (sum, e) =>
      sum +
      (e.title?.length ?? 0) +
      (e.description?.length ?? 0) +
      (e.footer?.text.length ?? 0) +
      (e.author?.name.length ?? 0) +
      (e.fields ?? []).reduce((s, f) => s + f.name.length + f.value.length, 0),
    0,
  );
}

export const STATUS_ALERT_COLORS = { outage: 0xf43f5e, operational: 0x10b981 } as const;

/**
 * A status alert (a probe's transition): the first answer is the headline ("Kestrel Vault is down"), the others the
 * probe's findings and the incident's link. Our own text, but escaped like any answer.
 */
function buildStatusAlertMessage(request: ChannelSupportRequest): ChatChannelMessage {
  const [headline = "Status change", ...details] = request.answers;
  const title = truncateSafely(escapeMarkdown(headline), CHANNEL_LIMITS.title);
  const footer = truncateSafely(`Alert ID: ${request.id}`, CHANNEL_LIMITS.footer);
  const [description] = buildDescriptions(request.questions.slice(1), details, CHANNEL_LIMITS.description - 1);
  return {
    content: truncateSafely(`Status alert: ${escapeMarkdown(headline)}`, CHANNEL_LIMITS.content),
    embeds: [
      {
        title,
        ...(description ? { description } : {}),
        color: /\bis down\b|outage/i.test(headline) ? STATUS_ALERT_COLORS.outage : STATUS_ALERT_COLORS.operational,
        timestamp: new Date(request.createdAt).toISOString(),
        footer: { text: footer },
      },
    ],
    allowed_mentions: { parse: [] },
  };
}

/** One embed for a usual request; a long one continues in further embeds (title on the first, footer on the last). */
export function buildChatChannelMessage(request: ChannelSupportRequest): ChatChannelMessage {
  if (request.category === STATUS_ALERT_CATEGORY) return buildStatusAlertMessage(request);
  const category = escapeMarkdown(request.category);
  const title = truncateSafely(`Support Request - ${category}`, CHANNEL_LIMITS.title);
  const footer = truncateSafely(`Request ID: ${request.id}`, CHANNEL_LIMITS.footer);
  // The visitor's language in a field of its own (English goes without), so the description stays the seed's exactly.
  const languageField =
    request.locale && request.locale !== DEFAULT_LOCALE
      ? { name: "Language", value: languageName(request.locale), inline: true }
      : undefined;
  const language = languageField ? [languageField] : undefined;
  const languageLength = languageField ? languageField.name.length + languageField.value.length : 0;
  const descriptions = buildDescriptions(
    request.questions,
    request.answers,
    CHANNEL_LIMITS.embedTotal - title.length - footer.length - languageLength,
  );
  const parts = descriptions.length > 0 ? descriptions : [undefined];
  return {
    content: truncateSafely(`New ${category} Request`, CHANNEL_LIMITS.content),
    embeds: parts.map((description, i) => ({
      ...(i === 0 ? { title } : {}),
      ...(i === 0 && language ? { fields: language } : {}),
      ...(description === undefined ? {} : { description }),
      color: EMBED_COLOR,
      ...(i === parts.length - 1
        ? { timestamp: new Date(request.createdAt).toISOString(), footer: { text: footer } }
        : {}),
    })),
    // Nothing a visitor types (@everyone, role or user mentions) may ping anyone.
    allowed_mentions: { parse: [] },
  };
}

export type ChannelPostResult =
  | { outcome: "delivered" }
  /** Worth trying again later (network error, timeout, 5xx). */
  | { outcome: "retry"; reason: string }
  /** 429: nothing more may be posted to the channel for `retryAfterMs`. */
  | { outcome: "rate_limited"; reason: string; retryAfterMs: number }
  /** The channel refused this message for good (4xx other than 429). */
  | { outcome: "rejected"; reason: string };

export const CHANNEL_TIMEOUT_MS = 10_000;
/** The wait after a 429 that names none (Discord always does; a proxy in between might not). */
export const DEFAULT_RETRY_AFTER_MS = 1_000;

/** How long a 429 asks us to wait: the body's `retry_after` (float seconds) first, then the Retry-After header. */
export function retryAfterMs(body: unknown, header: string | null, now = Date.now()): number | undefined {
  const fromBody = (body as { retry_after?: unknown } | null)?.retry_after;
  if (typeof fromBody === "number" && Number.isFinite(fromBody) && fromBody >= 0) return Math.ceil(fromBody * 1000);
  return retryAfterHeaderMs(header, now);
}

function describeNetworkError(error: unknown): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))
    return "timed out or aborted";
  const cause = (error as { cause?: { code?: string } })?.cause;
  // Only the error code: a full message could repeat the webhook URL, which is a secret.
  return `network error${cause?.code ? ` (${cause.code})` : ""}`;
}

/** Posts one message to `{webhookUrl}?wait=true`; never throws, never logs or returns the URL. */
export async function postToChatChannel(
  webhookUrl: string,
  message: ChatChannelMessage,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<ChannelPostResult> {
  const url = new URL(webhookUrl);
  url.searchParams.set("wait", "true");
  const timeout = AbortSignal.timeout(options.timeoutMs ?? CHANNEL_TIMEOUT_MS);
  let response: Response;
  let body: unknown;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "User-Agent": "KestrelStorefront (support relay)" },
      body: JSON.stringify(message),
      signal: options.signal ? AbortSignal.any([timeout, options.signal]) : timeout,
      redirect: "error",
    });
    const text = await response.text();
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
  } catch (error) {
    return { outcome: "retry", reason: describeNetworkError(error) };
  }
  if (response.ok) return { outcome: "delivered" };
  const detail = (body as { message?: unknown } | null)?.message;
  const reason = `HTTP ${response.status}${typeof detail === "string" ? `: ${detail.slice(0, 200)}` : ""}`;
  if (response.status === 429) {
    return {
      outcome: "rate_limited",
      reason,
      retryAfterMs: retryAfterMs(body, response.headers.get("retry-after")) ?? DEFAULT_RETRY_AFTER_MS,
    };
  }
  if (response.status >= 500 || response.status === 408) return { outcome: "retry", reason };
  return { outcome: "rejected", reason };
}
