// The chat channel (a Discord-compatible webhook). Its wire format stays in this module: callers pass our own types.
import type { RESTPostAPIWebhookWithTokenJSONBody } from "discord-api-types/v10";

export interface ChannelSupportRequest {
  id: string;
  category: string;
  questions: readonly string[];
  answers: readonly string[];
  /** ISO-8601 time the visitor submitted the request. */
  createdAt: string;
}

export type ChatChannelMessage = RESTPostAPIWebhookWithTokenJSONBody;

/** Discord's documented message limits. */
export const CHANNEL_LIMITS = { content: 2000, title: 256, description: 4096, footer: 2048, embedTotal: 6000 } as const;
export const EMBED_COLOR = 5793266;
export const NO_ANSWER = "No answer provided";

/**
 * Backslash-escapes Markdown so a visitor's text shows literally (no bold, masked links, spoilers, headings, quotes,
 * lists or mention syntax). `@` stays as typed (emails must copy cleanly); allowed_mentions stops any ping.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\*_~`|[\]()<>#-]/g, (c) => `\\${c}`).replace(/^(\s*\d+)\./gm, "$1\\.");
}

/** Cuts text to at most `max` UTF-16 units without splitting a surrogate pair or leaving a dangling escape. */
export function truncateSafely(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return "";
  let cut = text.slice(0, Math.max(0, max - 1));
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  // An odd run of trailing backslashes would escape the ellipsis; drop one.
  const trailing = /\\+$/.exec(cut)?.[0].length ?? 0;
  if (trailing % 2 === 1) cut = cut.slice(0, -1);
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

/** The description: each question in bold, its answer on the next line, sections separated by a blank line. */
export function buildDescription(questions: readonly string[], answers: readonly string[], max: number = CHANNEL_LIMITS.description): string {
  const headings = questions.map((q) => `**${escapeMarkdown(q)}**\n`);
  const bodies = questions.map((_, i) => {
    const answer = answers[i]?.trim() ?? "";
    return answer === "" ? NO_ANSWER : escapeMarkdown(answer);
  });
  const fixed = headings.reduce((sum, h) => sum + h.length, 0) + SECTION_SEPARATOR.length * Math.max(0, questions.length - 1);
  const fitted = fitTexts(bodies, Math.max(0, max - fixed));
  return truncateSafely(headings.map((h, i) => `${h}${fitted[i]}`).join(SECTION_SEPARATOR), max);
}

/** Sum of the embed's text fields, as Discord counts it against the 6000-character total. */
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

export function buildChatChannelMessage(request: ChannelSupportRequest): ChatChannelMessage {
  const category = escapeMarkdown(request.category);
  const title = truncateSafely(`Support Request - ${category}`, CHANNEL_LIMITS.title);
  const footer = truncateSafely(`Request ID: ${request.id}`, CHANNEL_LIMITS.footer);
  const descriptionBudget = Math.min(CHANNEL_LIMITS.description, CHANNEL_LIMITS.embedTotal - title.length - footer.length);
  return {
    content: truncateSafely(`New ${category} Request`, CHANNEL_LIMITS.content),
    embeds: [
      {
        title,
        description: buildDescription(request.questions, request.answers, descriptionBudget),
        color: EMBED_COLOR,
        timestamp: new Date(request.createdAt).toISOString(),
        footer: { text: footer },
      },
    ],
    // Nothing a visitor types (@everyone, role or user mentions) may ping anyone.
    allowed_mentions: { parse: [] },
  };
}

export type ChannelPostResult =
  | { outcome: "delivered" }
  /** Worth trying again later; `retryAfterMs` is what the channel asked us to wait (429). */
  | { outcome: "retry"; reason: string; retryAfterMs?: number }
  /** The channel refused this message for good (4xx other than 429). */
  | { outcome: "rejected"; reason: string };

export const CHANNEL_TIMEOUT_MS = 10_000;

/** How long a 429 asks us to wait: the body's `retry_after` (float seconds) first, then the Retry-After header. */
export function retryAfterMs(body: unknown, header: string | null, now = Date.now()): number | undefined {
  const fromBody = (body as { retry_after?: unknown } | null)?.retry_after;
  if (typeof fromBody === "number" && Number.isFinite(fromBody) && fromBody >= 0) return Math.ceil(fromBody * 1000);
  if (header) {
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
    const date = Date.parse(header);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  return undefined;
}

function describeNetworkError(error: unknown): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) return "timed out or aborted";
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
  if (response.status === 429) return { outcome: "retry", reason, retryAfterMs: retryAfterMs(body, response.headers.get("retry-after")) };
  if (response.status >= 500 || response.status === 408) return { outcome: "retry", reason };
  return { outcome: "rejected", reason };
}
