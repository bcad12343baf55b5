// The browser's side of a conversation: read it, answer in it, say what was seen, and follow it live (the event
// stream, or polling when the stream cannot be used). Shared by the chat panel and the conversation page.
import {
  type ConversationMessage,
  type ConversationView,
  conversationMessageSchema,
  conversationViewSchema,
  POLLING_FALLBACK_MS,
} from "./support-conversation";

const API = "/api/support/conversation";

/** The server did not take the visitor's message; `status` says why (429: too many, 409: resolved). */
export class ConversationMessageError extends Error {
  constructor(
    readonly status: number,
    detail: string,
  ) {
    super(`Conversation message rejected (${status}): ${detail}`);
  }
}

/** This browser's conversation (its cookie), or null when it has none. Messages after `after` only, when given. */
export async function fetchConversation(after?: number, signal?: AbortSignal): Promise<ConversationView | null> {
  const response = await fetch(after === undefined ? API : `${API}?after=${after}`, {
    headers: { Accept: "application/json" },
    signal,
  });
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`Conversation could not be read (${response.status})`);
  return conversationViewSchema.parse(await response.json());
}

/** Posts the visitor's message; resolves with it as stored, throws ConversationMessageError otherwise. */
export async function postConversationMessage(text: string): Promise<ConversationMessage> {
  const response = await fetch(`${API}/messages`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ text }),
  });
  const body = (await response.json().catch(() => null)) as { message?: unknown; error?: string } | null;
  const message = conversationMessageSchema.safeParse(body?.message);
  if (response.status !== 202 || !message.success)
    throw new ConversationMessageError(response.status, body?.error ?? "no details");
  return message.data;
}

/** Tells the server the page showed everything up to `seq` (no unseen-reply email for those). */
export function postSeen(seq: number): void {
  void fetch(`${API}/seen`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ seq }),
    keepalive: true,
  }).catch(() => {});
}

export interface ConversationFollower {
  onMessages(messages: ConversationMessage[]): void;
  onStatus(status: { status: ConversationView["status"]; repliesLive: boolean }): void;
}

/**
 * Follows the conversation from `after` on: the event stream (which resends Last-Event-ID itself on reconnects), and
 * polling every few seconds once the stream is refused or unavailable. Returns the function that stops following.
 */
export function followConversation(after: number, follower: ConversationFollower): () => void {
  let last = after;
  let stopped = false;
  let pollTimer: ReturnType<typeof setTimeout> | undefined;
  let stream: EventSource | undefined;

  const take = (messages: ConversationMessage[]) => {
    const fresh = messages.filter((m) => m.seq > last);
    if (fresh.length === 0) return;
    last = Math.max(last, ...fresh.map((m) => m.seq));
    follower.onMessages(fresh);
  };

  const poll = async () => {
    if (stopped) return;
    try {
      const view = await fetchConversation(last);
      if (view && !stopped) {
        take(view.messages);
        follower.onStatus({ status: view.status, repliesLive: view.repliesLive });
      }
    } catch {
      // A failed poll is simply tried again at the next tick.
    }
    if (!stopped) pollTimer = setTimeout(poll, POLLING_FALLBACK_MS);
  };

  const catchUp = async () => {
    try {
      const view = await fetchConversation(last);
      if (view && !stopped) take(view.messages);
    } catch {}
  };

  const startPolling = () => {
    stream?.close();
    stream = undefined;
    if (!stopped && pollTimer === undefined) pollTimer = setTimeout(poll, 0);
  };

  if (typeof EventSource === "undefined") startPolling();
  else {
    // The server replays what came after `after` (the first request carries it; reconnects send Last-Event-ID).
    stream = new EventSource(`${API}/events?after=${after}`);
    // Whatever was stored between the page's read and the stream's start is fetched once it is open.
    stream.addEventListener("open", () => void catchUp());
    stream.addEventListener("message", (event) => {
      const parsed = conversationMessageSchema.safeParse(safeJson((event as MessageEvent<string>).data));
      if (parsed.success) take([parsed.data]);
    });
    stream.addEventListener("status", (event) => {
      const data = safeJson((event as MessageEvent<string>).data) as { status?: unknown; repliesLive?: unknown } | null;
      if ((data?.status === "open" || data?.status === "resolved") && typeof data.repliesLive === "boolean")
        follower.onStatus({ status: data.status, repliesLive: data.repliesLive });
    });
    // A refused stream (404, wrong type, a proxy in the way) is closed for good by the browser: poll instead.
    stream.addEventListener("error", () => {
      if (stream?.readyState === EventSource.CLOSED) startPolling();
    });
  }

  return () => {
    stopped = true;
    stream?.close();
    clearTimeout(pollTimer);
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
