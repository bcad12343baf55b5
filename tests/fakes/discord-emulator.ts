// Discord's REST API for the support bot, on 127.0.0.1: text and forum channels, threads, message history (newest
// first, `after` and `limit`), reactions, per-bucket rate-limit headers and 429s, 401 for a wrong token, 403 for a
// channel the bot may not use, blanked content without the Message Content intent, and going down and coming back.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type {
  APIChannel,
  APIMessage,
  RESTPostAPIChannelMessageJSONBody,
  RESTPostAPIChannelMessagesThreadsJSONBody,
  RESTPostAPIGuildForumThreadsJSONBody,
} from "discord-api-types/v10";

/** What the bot may do in a channel: everything, see it but not write (50013), or not even see it (50001). */
export type ChannelAccess = "full" | "read-only" | "none";

export interface EmulatedAuthor {
  id: string;
  username: string;
  /** The display name people see (Discord's `global_name`); null/absent: the username is shown. */
  globalName?: string;
  bot?: boolean;
}

export interface EmulatedMessage {
  id: string;
  channelId: string;
  type: number;
  content: string;
  embeds: unknown[];
  attachments: { id: string; filename: string; url: string; size: number; proxy_url: string }[];
  author: EmulatedAuthor;
  webhookId?: string;
  timestamp: string;
  /** Emoji our bot reacted with. */
  reactions: string[];
  allowedMentions?: unknown;
  /** The nonce the bot sent with it (Discord echoes it in the create answer). */
  nonce?: string;
}

export interface EmulatedChannel {
  id: string;
  kind: "text" | "forum" | "thread" | "voice";
  name: string;
  access: ChannelAccess;
  /** Threads: the channel they belong to. */
  parentId?: string;
  archived: boolean;
  locked: boolean;
  autoArchiveDuration?: number;
  messages: EmulatedMessage[];
}

export interface EmulatedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  authorization: string | undefined;
  status: number;
  at: number;
}

/** A forced answer for the next matching request: a 429 (per-route or global), or a 500. */
export type ForcedAnswer =
  | {
      kind: "429";
      retryAfterSeconds: number;
      global?: boolean;
      scope?: "user" | "global" | "shared";
      /** false: no Retry-After header; body false: no retry_after in the body. */
      header?: boolean;
      body?: boolean;
    }
  | { kind: "500" };

export interface DiscordEmulator {
  /** The DISCORD_API_BASE to configure, e.g. http://127.0.0.1:PORT/api/v10 (stable across stop()/start()). */
  apiBase: string;
  token: string;
  botUser: EmulatedAuthor;
  requests: EmulatedRequest[];
  /** Adds a channel the bot posts into; returns its id. */
  addChannel(options: { kind: "text" | "forum" | "voice"; name?: string; access?: ChannelAccess }): string;
  channel(id: string): EmulatedChannel | undefined;
  /** Threads of a text or forum channel, oldest first. */
  threadsOf(channelId: string): EmulatedChannel[];
  /** Messages of a channel or thread, oldest first, as stored (never blanked). */
  messagesOf(channelId: string): EmulatedMessage[];
  /** A thread in a channel made without the bot's posts (benchmarks set up thousands at once); returns its id. */
  addThread(channelId: string, name?: string): string;
  /** A person of the team writes into a thread; returns the message id. */
  postAsTeam(threadId: string, content: string, options?: { author?: Partial<EmulatedAuthor> }): string;
  /** An internal note (`note: …`) from the team. */
  postNote(threadId: string, text: string): string;
  /** Another bot, or a webhook, writes into a thread. */
  postAsBot(threadId: string, content: string, options?: { webhook?: boolean }): string;
  archive(threadId: string): void;
  lock(threadId: string): void;
  /** The bot's Message Content intent: off blanks content, embeds and attachments of others' messages. */
  setMessageContentIntent(on: boolean): void;
  /** Each bucket allows `limit` requests per channel every `resetAfterSeconds` (defaults: 50 per 1 s). */
  setBucketLimit(limit: number, resetAfterSeconds: number): void;
  /** Answers for the next requests (any route), before rate limits and routes apply. */
  queue(...answers: ForcedAnswer[]): void;
  /** Forgets every nonce, as Discord does after a few minutes (a repeat is then posted again). */
  forgetNonces(): void;
  /** Requests answered 429, by the emulator's own buckets or queued. */
  rateLimited(): EmulatedRequest[];
  /** Stops listening (connection refused); start() listens again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Each route's bucket hash, as Discord names buckets (the major parameter not included). */
function bucketOf(method: string, route: string): string {
  return `${method}:${route}`.replace(/[^a-z0-9]/gi, "").slice(0, 32) || "bucket";
}

const FORUM_NAME_LIMIT = 100;

export async function startDiscordEmulator(
  options: { token?: string; messageContentIntent?: boolean } = {},
): Promise<DiscordEmulator> {
  const token = options.token ?? "emulated.bot-token.SECRET-9f3c2a";
  const botUser: EmulatedAuthor = { id: "900000000000000001", username: "Kestrel Support", bot: true };
  const teamMember: EmulatedAuthor = { id: "900000000000000002", username: "dana" };
  let intent = options.messageContentIntent ?? true;
  let bucketLimit = 50;
  let bucketResetSeconds = 1;
  const channels = new Map<string, EmulatedChannel>();
  const requests: EmulatedRequest[] = [];
  const queued: ForcedAnswer[] = [];
  /** `${bucket}:${major}` → requests left and when the window resets. */
  const buckets = new Map<string, { remaining: number; resetAt: number }>();
  /** `${channel}:${nonce}` → the message it created: with enforce_nonce a repeat answers that message, as Discord does. */
  const nonces = new Map<string, EmulatedMessage>();
  let nextId = 1_200_000_000_000_000_000n;
  const newId = () => String(nextId++);

  function addMessage(
    channel: EmulatedChannel,
    fields: Partial<EmulatedMessage> & { author: EmulatedAuthor; content: string },
  ): EmulatedMessage {
    const message: EmulatedMessage = {
      id: newId(),
      channelId: channel.id,
      type: 0,
      embeds: [],
      attachments: [],
      timestamp: new Date().toISOString(),
      reactions: [],
      ...fields,
    };
    channel.messages.push(message);
    return message;
  }

  function addThread(parent: EmulatedChannel, name: string, id: string, autoArchiveDuration?: number) {
    const thread: EmulatedChannel = {
      id,
      kind: "thread",
      name,
      access: parent.access,
      parentId: parent.id,
      archived: false,
      locked: false,
      autoArchiveDuration,
      messages: [],
    };
    channels.set(id, thread);
    return thread;
  }

  function channelJson(channel: EmulatedChannel): APIChannel {
    const type = { text: 0, voice: 2, forum: 15, thread: 11 }[channel.kind];
    return {
      id: channel.id,
      type,
      name: channel.name,
      guild_id: "800000000000000001",
      ...(channel.parentId ? { parent_id: channel.parentId } : {}),
      ...(channel.kind === "thread"
        ? {
            thread_metadata: {
              archived: channel.archived,
              locked: channel.locked,
              auto_archive_duration: channel.autoArchiveDuration ?? 4320,
              archive_timestamp: new Date().toISOString(),
            },
          }
        : {}),
    } as APIChannel;
  }

  function messageJson(message: EmulatedMessage): APIMessage {
    // Without the intent Discord blanks what others wrote; the bot always reads its own messages.
    const blank = !intent && message.author.id !== botUser.id;
    return {
      id: message.id,
      channel_id: message.channelId,
      type: message.type,
      content: blank ? "" : message.content,
      embeds: blank ? [] : message.embeds,
      attachments: blank ? [] : message.attachments,
      author: {
        id: message.author.id,
        username: message.author.username,
        global_name: message.author.globalName ?? null,
        discriminator: "0",
        avatar: null,
        ...(message.author.bot ? { bot: true } : {}),
      },
      ...(message.webhookId ? { webhook_id: message.webhookId } : {}),
      ...(message.nonce === undefined ? {} : { nonce: message.nonce }),
      timestamp: message.timestamp,
      edited_timestamp: null,
      tts: false,
      mention_everyone: false,
      mentions: [],
      mention_roles: [],
      pinned: false,
      ...(message.reactions.length > 0
        ? {
            reactions: message.reactions.map((name) => ({
              count: 1,
              me: true,
              emoji: { id: null, name },
              count_details: { burst: 0, normal: 1 },
              me_burst: false,
              burst_colors: [],
            })),
          }
        : {}),
    } as APIMessage;
  }

  /** Applies the emulator's buckets: headers on every answer, a 429 when a bucket is empty. */
  function takeFromBucket(method: string, route: string, major: string, res: http.ServerResponse): boolean {
    const bucket = bucketOf(method, route);
    const key = `${bucket}:${major}`;
    const now = Date.now();
    let state = buckets.get(key);
    if (!state || state.resetAt <= now) {
      state = { remaining: bucketLimit, resetAt: now + bucketResetSeconds * 1000 };
      buckets.set(key, state);
    }
    const resetAfter = Math.max(0, (state.resetAt - now) / 1000);
    res.setHeader("X-RateLimit-Bucket", bucket);
    res.setHeader("X-RateLimit-Limit", String(bucketLimit));
    res.setHeader("X-RateLimit-Reset", String(state.resetAt / 1000));
    res.setHeader("X-RateLimit-Reset-After", resetAfter.toFixed(3));
    if (state.remaining <= 0) {
      res.setHeader("X-RateLimit-Remaining", "0");
      res.setHeader("X-RateLimit-Scope", "user");
      res.setHeader("Retry-After", String(Math.ceil(resetAfter)));
      json(res, 429, { message: "You are being rate limited.", retry_after: resetAfter, global: false });
      return false;
    }
    state.remaining -= 1;
    res.setHeader("X-RateLimit-Remaining", String(state.remaining));
    return true;
  }

  function json(res: http.ServerResponse, status: number, body: unknown) {
    if (status === 204) res.writeHead(204).end();
    else res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
  }

  const missingAccess = { message: "Missing Access", code: 50001 };
  const missingPermissions = { message: "Missing Permissions", code: 50013 };
  const unknownChannel = { message: "Unknown Channel", code: 10003 };

  function route(method: string, parts: string[], query: URLSearchParams, body: unknown): [number, unknown] {
    const [root, channelId, sub, messageId, action, emoji, me] = parts;
    // GET /guilds/{guild}/threads/active: the guild's threads not archived, those the bot can see.
    if (method === "GET" && root === "guilds" && sub === "threads" && messageId === "active") {
      const active = [...channels.values()].filter((c) => c.kind === "thread" && !c.archived && c.access !== "none");
      return [200, { threads: active.map(channelJson), members: [] }];
    }
    if (root !== "channels" || channelId === undefined) return [404, { message: "404: Not Found", code: 0 }];
    const channel = channels.get(channelId);
    if (!channel) return [404, unknownChannel];
    if (channel.access === "none") return [403, missingAccess];
    const writes = method !== "GET";
    if (writes && channel.access === "read-only") return [403, missingPermissions];

    if (method === "GET" && sub === undefined) return [200, channelJson(channel)];
    // PATCH /channels/{thread}: archive it or open it again (a locked thread stays closed to the bot).
    if (method === "PATCH" && sub === undefined && channel.kind === "thread") {
      const archived = (body as { archived?: unknown } | undefined)?.archived;
      if (typeof archived !== "boolean") return [400, { message: "Invalid Form Body", code: 50035 }];
      if (channel.locked && !archived) return [403, missingPermissions];
      channel.archived = archived;
      return [200, channelJson(channel)];
    }

    if (method === "GET" && sub === "messages" && messageId === undefined) {
      const limit = Math.min(100, Math.max(1, Number(query.get("limit") ?? 50)));
      const after = query.get("after");
      const before = query.get("before");
      let list = [...channel.messages].sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
      if (after !== null) list = list.filter((m) => BigInt(m.id) > BigInt(after)).slice(0, limit);
      else if (before !== null) list = list.filter((m) => BigInt(m.id) < BigInt(before)).slice(-limit);
      else list = list.slice(-limit);
      // Newest first, like Discord.
      return [200, list.reverse().map(messageJson)];
    }

    if (method === "POST" && sub === "messages" && messageId === undefined) {
      if (channel.kind === "forum") return [400, { message: "Cannot send messages in a forum channel", code: 40058 }];
      if (channel.kind === "voice")
        return [400, { message: "Cannot send messages in a non-text channel", code: 50008 }];
      if (channel.kind === "thread" && channel.locked)
        return [400, { message: "Operation cannot be performed on an archived thread.", code: 50083 }];
      // A message in an archived (not locked) thread opens it again, as in Discord.
      if (channel.kind === "thread") channel.archived = false;
      const post = body as RESTPostAPIChannelMessageJSONBody;
      if (!post?.content && !post?.embeds?.length)
        return [400, { message: "Cannot send an empty message", code: 50006 }];
      const nonce = post.nonce === undefined ? undefined : String(post.nonce);
      if (nonce !== undefined && nonce.length > 25) return [400, { message: "Invalid Form Body", code: 50035 }];
      const nonceKey = `${channel.id}:${nonce}`;
      const earlier = nonce !== undefined && post.enforce_nonce ? nonces.get(nonceKey) : undefined;
      if (earlier) return [200, messageJson(earlier)];
      const message = addMessage(channel, {
        author: botUser,
        content: post.content ?? "",
        embeds: post.embeds ?? [],
        allowedMentions: post.allowed_mentions,
        ...(nonce === undefined ? {} : { nonce }),
      });
      if (nonce !== undefined) nonces.set(nonceKey, message);
      return [200, messageJson(message)];
    }

    if (method === "POST" && sub === "messages" && messageId !== undefined && action === "threads") {
      if (channel.kind !== "text") return [400, { message: "Cannot execute action on this channel type", code: 50024 }];
      const starter = channel.messages.find((m) => m.id === messageId);
      if (!starter) return [404, { message: "Unknown Message", code: 10008 }];
      if (channels.has(messageId))
        return [400, { message: "A thread has already been created for this message", code: 160004 }];
      const start = body as RESTPostAPIChannelMessagesThreadsJSONBody;
      if (!start?.name || start.name.length > FORUM_NAME_LIMIT)
        return [400, { message: "Invalid Form Body", code: 50035 }];
      // The thread's id is the message's, as in Discord; its first message points at the starter (type 21).
      const thread = addThread(channel, start.name, messageId, start.auto_archive_duration);
      addMessage(thread, { author: botUser, content: "", type: 21 });
      return [201, channelJson(thread)];
    }

    if (method === "POST" && sub === "threads") {
      if (channel.kind !== "forum") return [400, { message: "Invalid Form Body", code: 50035 }];
      const post = body as RESTPostAPIGuildForumThreadsJSONBody;
      if (!post?.name || post.name.length > FORUM_NAME_LIMIT || !post.message)
        return [400, { message: "Invalid Form Body", code: 50035 }];
      const id = newId();
      const thread = addThread(channel, post.name, id, post.auto_archive_duration);
      // A forum post's first message has the post's id.
      const message: EmulatedMessage = {
        id,
        channelId: id,
        type: 0,
        content: post.message.content ?? "",
        embeds: post.message.embeds ?? [],
        attachments: [],
        author: botUser,
        timestamp: new Date().toISOString(),
        reactions: [],
        allowedMentions: post.message.allowed_mentions,
      };
      thread.messages.push(message);
      return [201, { ...channelJson(thread), message: messageJson(message) }];
    }

    if (method === "PUT" && sub === "messages" && action === "reactions" && emoji !== undefined && me === "@me") {
      const message = channel.messages.find((m) => m.id === messageId);
      if (!message) return [404, { message: "Unknown Message", code: 10008 }];
      const name = decodeURIComponent(emoji);
      if (!message.reactions.includes(name)) message.reactions.push(name);
      return [204, null];
    }
    return [405, { message: "405: Method Not Allowed", code: 0 }];
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = undefined;
      }
      const record: EmulatedRequest = {
        method: req.method ?? "GET",
        path: url.pathname,
        query: url.searchParams,
        body,
        authorization: req.headers.authorization,
        status: 0,
        at: Date.now(),
      };
      requests.push(record);
      const answer = (status: number, payload: unknown) => {
        record.status = status;
        json(res, status, payload);
      };
      if (!url.pathname.startsWith("/api/v10/")) return answer(404, { message: "404: Not Found", code: 0 });
      if (req.headers.authorization !== `Bot ${token}`) return answer(401, { message: "401: Unauthorized", code: 0 });
      const forced = queued.shift();
      if (forced?.kind === "500") return answer(500, { message: "500: Internal Server Error", code: 0 });
      if (forced?.kind === "429") {
        const scope = forced.scope ?? (forced.global ? "global" : "user");
        if (forced.header !== false) res.setHeader("Retry-After", String(Math.ceil(forced.retryAfterSeconds)));
        res.setHeader("X-RateLimit-Scope", scope);
        if (forced.global) res.setHeader("X-RateLimit-Global", "true");
        return answer(
          429,
          forced.body === false
            ? { message: "You are being rate limited." }
            : {
                message: "You are being rate limited.",
                retry_after: forced.retryAfterSeconds,
                global: forced.global ?? false,
              },
        );
      }
      const parts = url.pathname.slice("/api/v10/".length).split("/").filter(Boolean);
      const routeName = parts
        .map((part, i) =>
          parts[i - 1] === "channels"
            ? ":channel"
            : parts[i - 1] === "reactions"
              ? ":emoji"
              : /^\d+$/.test(part)
                ? ":id"
                : part,
        )
        .join("/");
      if (!takeFromBucket(record.method, routeName, parts[1] ?? "", res)) {
        record.status = 429;
        return;
      }
      const [status, payload] = route(record.method, parts, url.searchParams, body);
      answer(status, payload);
    });
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  const stopListening = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });

  const thread = (id: string) => {
    const found = channels.get(id);
    if (found?.kind !== "thread") throw new Error(`discord emulator: no thread ${id}`);
    return found;
  };

  return {
    apiBase: `http://127.0.0.1:${port}/api/v10`,
    token,
    botUser,
    requests,
    addChannel({ kind, name, access = "full" }) {
      const id = newId();
      channels.set(id, {
        id,
        kind,
        name: name ?? `support-${kind}`,
        access,
        archived: false,
        locked: false,
        messages: [],
      });
      return id;
    },
    channel: (id) => channels.get(id),
    addThread(channelId, name) {
      const parent = channels.get(channelId);
      if (!parent) throw new Error(`discord emulator: no channel ${channelId}`);
      return addThread(parent, name ?? "support thread", newId()).id;
    },
    threadsOf: (channelId) => [...channels.values()].filter((c) => c.kind === "thread" && c.parentId === channelId),
    messagesOf: (channelId) => [...(channels.get(channelId)?.messages ?? [])],
    postAsTeam(threadId, content, postOptions = {}) {
      return addMessage(thread(threadId), { author: { ...teamMember, ...postOptions.author }, content }).id;
    },
    postNote(threadId, text) {
      return addMessage(thread(threadId), { author: teamMember, content: `note: ${text}` }).id;
    },
    postAsBot(threadId, content, botOptions = {}) {
      const author = botOptions.webhook
        ? { id: "900000000000000009", username: "Status Hook", bot: true }
        : { id: "900000000000000003", username: "Other Bot", bot: true };
      return addMessage(thread(threadId), {
        author,
        content,
        ...(botOptions.webhook ? { webhookId: "900000000000000009" } : {}),
      }).id;
    },
    archive(threadId) {
      thread(threadId).archived = true;
    },
    lock(threadId) {
      thread(threadId).locked = true;
    },
    setMessageContentIntent(on) {
      intent = on;
    },
    setBucketLimit(limit, resetAfterSeconds) {
      bucketLimit = limit;
      bucketResetSeconds = resetAfterSeconds;
      buckets.clear();
    },
    queue(...answers) {
      queued.push(...answers);
    },
    forgetNonces: () => nonces.clear(),
    rateLimited: () => requests.filter((r) => r.status === 429),
    stop: stopListening,
    start: () => listen(port),
    close: () => (server.listening ? stopListening() : Promise.resolve()),
  };
}
