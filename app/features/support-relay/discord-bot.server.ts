// The Discord bot (REST): posts each support request into the support channel with a thread of its own, posts into
// and reads that thread, and sees when the team resolves it. Discord's wire format stays in this module: callers pass
// and get our own types. The token is sent in one header and nowhere else: never logged, never in an error.
import type {
  RESTPostAPIChannelMessageJSONBody,
  RESTPostAPIChannelMessagesThreadsJSONBody,
  RESTPostAPIGuildForumThreadsJSONBody,
} from "discord-api-types/v10";
import type { Logger } from "pino";
import { z } from "zod";
import { logger as platformLogger } from "~/platform/logger.server";
import {
  buildChatChannelMessage,
  CHANNEL_LIMITS,
  type ChannelSupportRequest,
  escapeMarkdown,
  markHiddenCharacters,
  retryAfterMs,
  truncateSafely,
} from "./chat-channel.server";
import { createRateLimitTracker, type RateLimitTracker, type RouteKey, routeKey } from "./discord-rate-limits.server";

export const DISCORD_TIMEOUT_MS = 10_000;
/** A 429 asking for a longer wait than this is not waited out in the call: the caller gets `rate_limited`. */
export const MAX_WAIT_IN_CALL_MS = 30_000;
/** How many 429s one call waits out before giving up with `rate_limited`. */
export const MAX_RETRIES_AFTER_429 = 3;
/** Content that starts with this (any case) is the team's internal note: never relayed, confirmed by a reaction. */
export const NOTE_PREFIX = "note:";
/** The reaction the bot adds to a note it has read, so the team sees it stayed internal. */
export const NOTE_REACTION = "📝";
/** How a visitor's message starts in the thread, so the team tells it from the bot's own lines. */
export const VISITOR_PREFIX = "**Visitor:** ";
/** Threads archive after a week without messages, Discord's longest choice (archiving is how the team resolves one). */
export const THREAD_AUTO_ARCHIVE_MINUTES = 10080;
/** Discord's limit for a thread's name. */
export const THREAD_NAME_LIMIT = 100;

/** Where requests go: a text channel (message, then a thread on it) or a forum channel (a post is a thread). */
export interface SupportChannel {
  id: string;
  kind: "text" | "forum";
  name: string | null;
  /** The server (guild) it belongs to, when Discord said. */
  guildId?: string;
}

/** A request posted into the channel, with the thread its conversation happens in. */
export interface PostedRequest {
  channelId: string;
  /** The request's message (in a forum, the post's first message: the same id as the thread). */
  messageId: string;
  threadId: string;
}

/** A message of a thread, as the support relay sees it. */
export type ThreadMessage =
  | { kind: "team_reply"; id: string; authorName: string; text: string; attachmentUrls: string[]; sentAt: string }
  /** `note: …`: the team's internal note, never relayed to the visitor. */
  | { kind: "note"; id: string; authorName: string; text: string; sentAt: string }
  /** From a person, but Discord withheld its content (the bot lacks the Message Content intent). */
  | { kind: "unreadable"; id: string; authorName: string; sentAt: string }
  /** A bot's (ours included), a webhook's, or a system message (thread created, pinned …): not part of the talk. */
  | { kind: "ignored"; id: string; sentAt: string };

export interface ThreadPage {
  /** Oldest first. */
  messages: ThreadMessage[];
  /** The newest message id seen (of any kind): the `after` for the next read; null when the page was empty. */
  newestId: string | null;
  /** The page was full: more messages may follow `newestId`. */
  more: boolean;
  /** A person's message came with empty content: the Message Content intent is off, replies cannot be relayed. */
  intentMissing: boolean;
}

export interface ThreadState {
  archived: boolean;
  locked: boolean;
  /** The team resolved the conversation (archived or locked the thread). */
  resolved: boolean;
}

/** Why a call did not succeed; every kind is logged once (one line) when it starts happening. */
export type DiscordBotError =
  /** 401: the token is wrong or was reset. */
  | { kind: "unauthorized"; message: string }
  /** 403 with 50001: the bot cannot see the channel (not invited, or View Channel denied). */
  | { kind: "missing_access"; message: string }
  /** 403 with 50013 (or another 403): the bot can see the channel but lacks a permission for this action. */
  | { kind: "missing_permissions"; message: string }
  /** 404 / Unknown Channel or Message. */
  | { kind: "not_found"; message: string }
  /** The thread is archived and locked (or otherwise closed to the bot). */
  | { kind: "thread_closed"; message: string }
  /** The channel is not a text or forum channel. */
  | { kind: "unsupported_channel"; message: string }
  /** Still limited after waiting out what we could; try again after `retryAfterMs`. */
  | { kind: "rate_limited"; message: string; retryAfterMs: number }
  /** Too many 401/403/429 in ten minutes: we stopped calling Discord so the address is not banned. */
  | { kind: "invalid_request_budget"; message: string }
  /** Network error, timeout, 5xx: worth trying again later. */
  | { kind: "unavailable"; message: string }
  /** Discord refused the request for another reason, or answered something we cannot read. */
  | { kind: "rejected"; message: string };

export type DiscordResult<T> = { ok: true; value: T } | { ok: false; error: DiscordBotError };

export interface DiscordBotOptions {
  token: string;
  /** `https://discord.com/api/v10`, or the emulator's. */
  apiBase: string;
  supportChannelId: string;
  /** The shop's PUBLIC_URL, named in the User-Agent Discord asks bots to send (`DiscordBot (url, version)`). */
  publicUrl?: string;
  logger?: Logger;
  timeoutMs?: number;
  limits?: RateLimitTracker;
  maxWaitInCallMs?: number;
  /** Stops waits and requests (shutdown). */
  signal?: AbortSignal;
}

export interface DiscordBot {
  /** The support channel (or another): text or forum, via GET /channels/{id}. */
  lookUpChannel(channelId?: string): Promise<DiscordResult<SupportChannel>>;
  /**
   * Posts the request as the webhook path does (same title, content and embeds) and opens its thread. Safe to repeat
   * after a crash between the post and its record: a text channel's message carries `nonce` with `enforce_nonce`
   * (Discord answers the earlier message instead of posting again) and a thread already opened on it is taken as it
   * is; in a forum (posts take no nonce) a `resume` looks for the request's post among the active threads first.
   */
  postRequest(
    request: ChannelSupportRequest,
    options?: { nonce?: string; resume?: boolean },
  ): Promise<DiscordResult<PostedRequest>>;
  /**
   * Posts a visitor's message into a request's thread as `**Visitor:** …`: shown as typed (Markdown escaped, hidden
   * characters marked, no mention pings), cut to Discord's 2000 characters. An empty message is refused unsent.
   */
  postToThread(
    threadId: string,
    visitorText: string,
    options?: { nonce?: string },
  ): Promise<DiscordResult<{ messageId: string }>>;
  /**
   * Reads up to `limit` messages after `after` (all from the start without it), oldest first, classified; adds the
   * note reaction to each new note unless `reactToNotes` is false.
   */
  readThread(
    threadId: string,
    options?: { after?: string; limit?: number; reactToNotes?: boolean },
  ): Promise<DiscordResult<ThreadPage>>;
  /** Adds a reaction to a message (the note confirmation). */
  react(threadId: string, messageId: string, emoji?: string): Promise<DiscordResult<void>>;
  /** Whether the team resolved the thread (archived or locked it). */
  threadState(threadId: string): Promise<DiscordResult<ThreadState>>;
  /**
   * Posts what an agent wrote in the console into the thread under their name: a reply as `**Name** (console): …`, a
   * note as `note: **Name** (console): …` (the thread's own note convention), shown as typed like a visitor's message.
   */
  postTeamMessage(
    threadId: string,
    message: { authorName: string; text: string; note: boolean },
    options?: { nonce?: string },
  ): Promise<DiscordResult<{ messageId: string }>>;
  /** Archives the thread (the console resolved the conversation) or opens it again (reopened). */
  setThreadArchived(threadId: string, archived: boolean): Promise<DiscordResult<void>>;
}

// Only the fields we read; Discord sends many more.
const snowflake = z.string().regex(/^\d+$/);
const channelSchema = z.object({
  id: snowflake,
  type: z.number().int(),
  name: z.string().nullish(),
  guild_id: snowflake.optional(),
  parent_id: snowflake.nullish(),
  thread_metadata: z.object({ archived: z.boolean(), locked: z.boolean().optional() }).optional(),
});
const messageSchema = z.object({
  id: snowflake,
  type: z.number().int(),
  content: z.string(),
  timestamp: z.string(),
  author: z.object({
    id: snowflake,
    username: z.string(),
    global_name: z.string().nullish(),
    bot: z.boolean().optional(),
    system: z.boolean().optional(),
  }),
  webhook_id: snowflake.optional(),
  attachments: z.array(z.object({ url: z.string() })).default([]),
  embeds: z.array(z.unknown()).default([]),
  sticker_items: z.array(z.unknown()).optional(),
  components: z.array(z.unknown()).optional(),
});
const messagesSchema = z.array(messageSchema);
const activeThreadsSchema = z.object({ threads: z.array(channelSchema) });
/** Discord's longest nonce. */
export const NONCE_LIMIT = 25;
const THREAD_ALREADY_CREATED = 160004;
const errorBodySchema = z.object({ code: z.number().optional(), message: z.string().optional() }).partial();

// Channel types (discord-api-types' ChannelType, kept as numbers so nothing of it is needed at runtime).
const TEXT_CHANNEL_TYPES = new Set([0, 5]); // GuildText, GuildAnnouncement
const FORUM_CHANNEL_TYPES = new Set([15, 16]); // GuildForum, GuildMedia
/** Message types a person writes: Default and Reply. Others are system messages (thread created, pins …). */
const PERSON_MESSAGE_TYPES = new Set([0, 19]);
const MISSING_ACCESS = 50001;
const UNKNOWN_CODES = new Set([10003, 10008]); // Unknown Channel, Unknown Message
const THREAD_CLOSED_CODES = new Set([50083, 160005]); // archived thread, locked thread

/** The thread's name: the request's category and the start of its id, within Discord's 100 characters. */
export function threadName(request: Pick<ChannelSupportRequest, "id" | "category">): string {
  const name = `${request.category} · ${request.id.slice(0, 8)}`;
  return name.length <= THREAD_NAME_LIMIT ? name : `${name.slice(0, THREAD_NAME_LIMIT - 1)}…`;
}

/** Whether the text of a message is the team's internal note. */
export function isNote(content: string): boolean {
  return content.trimStart().toLowerCase().startsWith(NOTE_PREFIX);
}

/** Sorts Discord ids (snowflakes grow with time) oldest first. */
function compareSnowflakes(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

type WireMessage = z.infer<typeof messageSchema>;

/** What a message is to the support relay; `withheld` when Discord blanked a person's message (no intent). */
function classify(message: WireMessage): ThreadMessage {
  const base = { id: message.id, sentAt: message.timestamp };
  if (message.author.bot || message.author.system || message.webhook_id || !PERSON_MESSAGE_TYPES.has(message.type))
    return { kind: "ignored", ...base };
  const authorName = message.author.global_name ?? message.author.username;
  const withheld =
    message.content === "" &&
    message.attachments.length === 0 &&
    message.embeds.length === 0 &&
    (message.sticker_items?.length ?? 0) === 0;
  if (withheld) return { kind: "unreadable", authorName, ...base };
  if (isNote(message.content))
    return { kind: "note", authorName, text: message.content.trimStart().slice(NOTE_PREFIX.length).trim(), ...base };
  return {
    kind: "team_reply",
    authorName,
    text: message.content,
    attachmentUrls: message.attachments.map((a) => a.url),
    ...base,
  };
}

/** The one log line for each kind of failure that needs the shop owner (the rest are the caller's to report). */
const OWNER_PROBLEMS: Partial<Record<DiscordBotError["kind"] | "intent_missing", string>> = {
  unauthorized:
    "discord bot: Discord refused the token (401 Unauthorized): set DISCORD_BOT_TOKEN to the bot's current token; support requests stay one-way",
  missing_access:
    "discord bot: the bot cannot see the support channel (403 Missing Access, 50001): invite it to the server and allow it View Channel there; support requests stay one-way",
  missing_permissions:
    "discord bot: the bot lacks a permission in the support channel (403 Missing Permissions, 50013): allow it Send Messages, Create Public Threads, Send Messages in Threads, Read Message History and Add Reactions; support requests stay one-way",
  intent_missing:
    "discord bot: the team's replies arrive empty: switch on the Message Content intent (Developer Portal → Bot → Privileged Gateway Intents); support requests stay one-way",
  invalid_request_budget:
    "discord bot: stopped calling Discord: too many refused requests (401/403/429) in 10 minutes, close to the limit after which Discord bans the address",
};

interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

function numberHeader(headers: Headers, name: string): number | undefined {
  const value = headers.get(name);
  if (value === null || value.trim() === "") return undefined;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : undefined;
}

function describeNetworkError(error: unknown): string {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))
    return "timed out or aborted";
  const cause = (error as { cause?: { code?: string } })?.cause;
  return `network error${cause?.code ? ` (${cause.code})` : ""}`;
}

function errorFor(answer: Answer): DiscordBotError {
  const parsed = errorBodySchema.safeParse(answer.body);
  const code = parsed.success ? parsed.data.code : undefined;
  const detail = parsed.success && parsed.data.message ? `: ${parsed.data.message.slice(0, 200)}` : "";
  const message = `HTTP ${answer.status}${code === undefined ? "" : ` (code ${code})`}${detail}`;
  if (answer.status === 401) return { kind: "unauthorized", message };
  if (code !== undefined && THREAD_CLOSED_CODES.has(code)) return { kind: "thread_closed", message };
  // 50001: the channel is out of sight; 50013 (or any other 403): a permission for this action is missing.
  if (answer.status === 403)
    return code === MISSING_ACCESS ? { kind: "missing_access", message } : { kind: "missing_permissions", message };
  if (answer.status === 404 || (code !== undefined && UNKNOWN_CODES.has(code))) return { kind: "not_found", message };
  if (answer.status >= 500 || answer.status === 408) return { kind: "unavailable", message };
  return { kind: "rejected", message };
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, Math.max(0, ms));
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });

export function createDiscordBot(options: DiscordBotOptions): DiscordBot {
  const log = options.logger ?? platformLogger;
  const limits = options.limits ?? createRateLimitTracker();
  const maxWait = options.maxWaitInCallMs ?? MAX_WAIT_IN_CALL_MS;
  const base = options.apiBase.replace(/\/+$/, "");
  /** Problems already logged: each is logged once when it starts, and again only after it went away. */
  const reported = new Set<string>();

  const report = (problem: keyof typeof OWNER_PROBLEMS, fields: Record<string, unknown> = {}) => {
    const line = OWNER_PROBLEMS[problem];
    if (line === undefined || reported.has(problem)) return;
    reported.add(problem);
    log.error({ discordProblem: problem, ...fields }, line);
  };
  const recovered = (...problems: string[]) => {
    for (const problem of problems) reported.delete(problem);
  };

  /** One API call, waiting out buckets and 429s (within `maxWait`); never throws. */
  async function call(method: string, path: string, body?: unknown): Promise<DiscordResult<unknown>> {
    const key: RouteKey = routeKey(method, path);
    for (let attempt = 0; ; attempt++) {
      if (limits.invalidBudgetExhausted()) {
        const error = { kind: "invalid_request_budget", message: OWNER_PROBLEMS.invalid_request_budget ?? "" } as const;
        report("invalid_request_budget", { invalidRequests: limits.invalidRequests() });
        return { ok: false, error };
      }
      for (let wait = limits.reserve(key); wait > 0; wait = limits.reserve(key)) {
        if (wait > maxWait)
          return {
            ok: false,
            error: { kind: "rate_limited", message: `rate limited on ${key.route}`, retryAfterMs: wait },
          };
        await sleep(wait, options.signal);
        if (options.signal?.aborted) return { ok: false, error: { kind: "unavailable", message: "aborted" } };
      }
      let answer: Answer;
      try {
        const timeout = AbortSignal.timeout(options.timeoutMs ?? DISCORD_TIMEOUT_MS);
        const response = await fetch(`${base}${path}`, {
          method,
          headers: {
            Authorization: `Bot ${options.token}`,
            "User-Agent": `DiscordBot (${options.publicUrl ?? "http://localhost"}, 1) KestrelStorefront support relay`,
            ...(body === undefined ? {} : { "Content-Type": "application/json" }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: options.signal ? AbortSignal.any([timeout, options.signal]) : timeout,
          redirect: "error",
        });
        const text = await response.text();
        let parsed: unknown = null;
        try {
          parsed = text ? JSON.parse(text) : null;
        } catch {}
        answer = { status: response.status, body: parsed, headers: response.headers };
      } catch (error) {
        return { ok: false, error: { kind: "unavailable", message: describeNetworkError(error) } };
      }
      const { headers } = answer;
      const resetAfter = numberHeader(headers, "x-ratelimit-reset-after");
      const wait = answer.status === 429 ? (retryAfterMs(answer.body, headers.get("retry-after")) ?? 1000) : undefined;
      limits.record(key, {
        status: answer.status,
        bucket: headers.get("x-ratelimit-bucket") ?? undefined,
        remaining: numberHeader(headers, "x-ratelimit-remaining"),
        resetAfterMs: resetAfter === undefined ? undefined : Math.ceil(resetAfter * 1000),
        retryAfterMs: wait,
        global:
          headers.get("x-ratelimit-global")?.toLowerCase() === "true" ||
          (answer.body as { global?: unknown } | null)?.global === true,
        scope: headers.get("x-ratelimit-scope") ?? undefined,
      });
      if (answer.status >= 200 && answer.status < 300) {
        recovered("unauthorized", "invalid_request_budget");
        if (method !== "GET") recovered("missing_access", "missing_permissions");
        return { ok: true, value: answer.body };
      }
      if (answer.status === 429) {
        if (attempt < MAX_RETRIES_AFTER_429 && (wait ?? 0) <= maxWait) continue;
        return {
          ok: false,
          error: { kind: "rate_limited", message: `HTTP 429 on ${key.route}`, retryAfterMs: wait ?? 0 },
        };
      }
      const error = errorFor(answer);
      // Discord never echoes the token; whatever stands in front of it (a proxy, the emulator) must not make us either.
      if (options.token) error.message = error.message.split(options.token).join("[redacted]");
      if (error.kind === "unauthorized" || error.kind === "missing_access" || error.kind === "missing_permissions")
        report(error.kind, { route: key.route, status: answer.status });
      return { ok: false, error };
    }
  }

  function read<T>(schema: z.ZodType<T>, result: DiscordResult<unknown>, what: string): DiscordResult<T> {
    if (!result.ok) return result;
    const parsed = schema.safeParse(result.value);
    if (parsed.success) return { ok: true, value: parsed.data };
    log.warn({ what }, "discord bot: Discord answered something we cannot read");
    return { ok: false, error: { kind: "rejected", message: `unexpected answer for ${what}` } };
  }

  async function lookUpChannel(channelId = options.supportChannelId): Promise<DiscordResult<SupportChannel>> {
    const result = read(channelSchema, await call("GET", `/channels/${channelId}`), "the channel");
    if (!result.ok) return result;
    const { id, type, name, guild_id: guildId } = result.value;
    const more = guildId === undefined ? {} : { guildId };
    if (TEXT_CHANNEL_TYPES.has(type)) return { ok: true, value: { id, kind: "text", name: name ?? null, ...more } };
    if (FORUM_CHANNEL_TYPES.has(type)) return { ok: true, value: { id, kind: "forum", name: name ?? null, ...more } };
    return {
      ok: false,
      error: { kind: "unsupported_channel", message: `channel type ${type} is neither a text nor a forum channel` },
    };
  }

  async function react(threadId: string, messageId: string, emoji = NOTE_REACTION): Promise<DiscordResult<void>> {
    const result = await call(
      "PUT",
      `/channels/${threadId}/messages/${messageId}/reactions/${encodeURIComponent(emoji)}/@me`,
    );
    return result.ok ? { ok: true, value: undefined } : result;
  }

  /** Posts `prefix` and the text shown as typed (Markdown escaped, hidden characters marked, no pings), once. */
  async function postShownAsTyped(
    threadId: string,
    prefix: string,
    typed: string,
    nonce: string | undefined,
  ): Promise<DiscordResult<{ messageId: string }>> {
    const text = typed.trim();
    if (text === "") return { ok: false, error: { kind: "rejected", message: "an empty message is not posted" } };
    const content = truncateSafely(`${prefix}${escapeMarkdown(markHiddenCharacters(text))}`, CHANNEL_LIMITS.content);
    const body: RESTPostAPIChannelMessageJSONBody = {
      content,
      allowed_mentions: { parse: [] },
      // Discord answers the message made earlier with this nonce instead of posting it twice.
      ...(nonce === undefined ? {} : { nonce, enforce_nonce: true }),
    };
    const posted = read(messageSchema, await call("POST", `/channels/${threadId}/messages`, body), "a message");
    return posted.ok ? { ok: true, value: { messageId: posted.value.id } } : posted;
  }

  return {
    lookUpChannel,
    react,

    async postRequest(request, postOptions = {}) {
      const channel = await lookUpChannel();
      if (!channel.ok) return channel;
      const message = buildChatChannelMessage(request);
      const content: RESTPostAPIChannelMessageJSONBody = {
        content: message.content,
        embeds: message.embeds,
        allowed_mentions: { parse: [] },
      };
      const name = threadName(request);
      if (channel.value.kind === "forum" && postOptions.resume && channel.value.guildId) {
        // A post made before a crash kept us from recording it: it is among the guild's active threads.
        const active = read(
          activeThreadsSchema,
          await call("GET", `/guilds/${channel.value.guildId}/threads/active`),
          "the active threads",
        );
        if (!active.ok) return active;
        const earlier = active.value.threads.find((t) => t.parent_id === channel.value.id && t.name === name);
        if (earlier)
          return { ok: true, value: { channelId: channel.value.id, messageId: earlier.id, threadId: earlier.id } };
      }
      if (channel.value.kind === "forum") {
        const post: RESTPostAPIGuildForumThreadsJSONBody = {
          name,
          auto_archive_duration: THREAD_AUTO_ARCHIVE_MINUTES,
          message: content,
        };
        const thread = read(channelSchema, await call("POST", `/channels/${channel.value.id}/threads`, post), "a post");
        if (!thread.ok) return thread;
        // A forum post's first message has the post's id.
        return {
          ok: true,
          value: { channelId: channel.value.id, messageId: thread.value.id, threadId: thread.value.id },
        };
      }
      const once = postOptions.nonce === undefined ? {} : { nonce: postOptions.nonce, enforce_nonce: true };
      const posted = read(
        messageSchema,
        await call("POST", `/channels/${channel.value.id}/messages`, { ...content, ...once }),
        "the request's message",
      );
      if (!posted.ok) return posted;
      const start: RESTPostAPIChannelMessagesThreadsJSONBody = {
        name,
        auto_archive_duration: THREAD_AUTO_ARCHIVE_MINUTES,
      };
      const opened = await call("POST", `/channels/${channel.value.id}/messages/${posted.value.id}/threads`, start);
      // The message is the one posted before a crash, and its thread was opened then: a thread has its message's id.
      if (!opened.ok && opened.error.message.includes(`code ${THREAD_ALREADY_CREATED}`))
        return {
          ok: true,
          value: { channelId: channel.value.id, messageId: posted.value.id, threadId: posted.value.id },
        };
      const thread = read(channelSchema, opened, "the request's thread");
      if (!thread.ok) {
        log.warn(
          { messageId: posted.value.id, error: thread.error.kind },
          "discord bot: the request was posted but its thread could not be opened",
        );
        return thread;
      }
      return {
        ok: true,
        value: { channelId: channel.value.id, messageId: posted.value.id, threadId: thread.value.id },
      };
    },

    postToThread(threadId, visitorText, postOptions = {}) {
      return postShownAsTyped(threadId, VISITOR_PREFIX, visitorText, postOptions.nonce);
    },

    postTeamMessage(threadId, message, postOptions = {}) {
      const name = `**${escapeMarkdown(markHiddenCharacters(message.authorName.trim()))}** (console): `;
      return postShownAsTyped(
        threadId,
        message.note ? `${NOTE_PREFIX} ${name}` : name,
        message.text,
        postOptions.nonce,
      );
    },

    async setThreadArchived(threadId, archived) {
      const result = read(
        channelSchema,
        await call("PATCH", `/channels/${threadId}`, { archived }),
        archived ? "the archived thread" : "the reopened thread",
      );
      return result.ok ? { ok: true, value: undefined } : result;
    },

    async readThread(threadId, readOptions = {}) {
      const limit = Math.min(100, Math.max(1, readOptions.limit ?? 100));
      // Without `after` Discord answers the newest messages; from the thread's id on it answers from the start.
      const after = readOptions.after ?? threadId;
      const query = new URLSearchParams({ after, limit: String(limit) });
      const result = read(
        messagesSchema,
        await call("GET", `/channels/${threadId}/messages?${query}`),
        "the thread's messages",
      );
      if (!result.ok) return result;
      const wire = [...result.value].sort((a, b) => compareSnowflakes(a.id, b.id));
      const messages = wire.map(classify);
      const intentMissing = messages.some((m) => m.kind === "unreadable");
      if (intentMissing) report("intent_missing", { threadId });
      else if (messages.some((m) => m.kind === "team_reply" || m.kind === "note")) recovered("intent_missing");
      if (readOptions.reactToNotes !== false) {
        for (const note of messages.filter((m) => m.kind === "note")) {
          const reacted = await react(threadId, note.id);
          if (!reacted.ok)
            log.warn({ error: reacted.error.kind }, "discord bot: could not confirm a note with a reaction");
        }
      }
      return {
        ok: true,
        value: { messages, newestId: wire.at(-1)?.id ?? null, more: wire.length === limit, intentMissing },
      };
    },

    async threadState(threadId) {
      const result = read(channelSchema, await call("GET", `/channels/${threadId}`), "the thread");
      if (!result.ok) return result;
      const archived = result.value.thread_metadata?.archived ?? false;
      const locked = result.value.thread_metadata?.locked ?? false;
      return { ok: true, value: { archived, locked, resolved: archived || locked } };
    },
  };
}
