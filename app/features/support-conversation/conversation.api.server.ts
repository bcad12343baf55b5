// The visitor's conversation over HTTP: read it (JSON or an event stream), answer in it, say what the page showed.
// Every route finds the conversation by the HttpOnly cookie only; without a valid one the answer is a 404.
import express from "express";
import type { Kysely } from "kysely";
import { z } from "zod";
import { cookieValue } from "~/platform/form-input";
import { getDb } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { jsonBody } from "~/platform/json-body.server";
import { createRateLimiter, type RateLimitPolicy, rateLimit } from "~/platform/rate-limit.server";
import type { Database } from "../../../db/schema";
import {
  type ConversationRow,
  conversationMessages,
  findConversationByToken,
  latestSeqs,
  markVisitorPresent,
} from "./conversation-store.server";
import type { ConversationStreams } from "./conversation-streams.server";
import { conversationStreams } from "./conversation-live.server";
import {
  CONVERSATION_COOKIE,
  type ConversationView,
  hasConversationHint,
  visitorMessageSchema,
} from "./support-conversation";
import {
  addVisitorMessage,
  clearedConversationHintCookie,
  conversationView,
  repliesLive,
} from "./support-conversation.server";

export const NO_CONVERSATION_ERROR = "No support conversation in this browser";
export const FOREIGN_ORIGIN_ERROR = "Messages can only be sent from this shop's pages";
export const RESOLVED_ERROR = "This conversation is resolved. Please start a new support request.";

/** A chat's pace: per conversation (one visitor) and per address (several behind one network). */
export const VISITOR_MESSAGE_LIMITS = {
  conversation: {
    name: "support-message-conversation",
    points: 20,
    durationSeconds: 600,
    error: "Too many messages. Please wait a few minutes and try again.",
  },
  address: {
    name: "support-message-address",
    points: 60,
    durationSeconds: 600,
    error: "Too many messages. Please wait a few minutes and try again.",
  },
} satisfies Record<string, RateLimitPolicy>;
/** Reading: the polling fallback asks every 3 s, so an address may read often (several visitors behind one NAT). */
export const CONVERSATION_READ_LIMIT: RateLimitPolicy = {
  name: "support-conversation-read",
  points: 1200,
  durationSeconds: 600,
  error: "Too many requests. Please slow down.",
};
/** Stream (re)connections per conversation: a browser reconnects every 3 s at worst. */
export const EVENT_STREAM_CONNECT_LIMIT: RateLimitPolicy = {
  name: "support-conversation-stream",
  points: 300,
  durationSeconds: 600,
  error: "Too many reconnections. Please reload the page.",
};
/** Open streams of one conversation at once (tabs); more answer 429. */
export const MAX_STREAMS_PER_CONVERSATION = 8;

const afterSchema = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const seenSchema = z.object({ seq: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) });

export interface ConversationApiOptions {
  db?: () => Kysely<Database>;
  streams?: () => ConversationStreams;
}

/** `/api/support/conversation…` (mount before the support request router: its limit covers all of /support/*). */
export function createConversationApi(options: ConversationApiOptions = {}) {
  const db = options.db ?? (() => getDb().db);
  const streams = options.streams ?? conversationStreams;
  const router = express.Router();
  const perConversation = createRateLimiter(VISITOR_MESSAGE_LIMITS.conversation);
  const streamConnects = createRateLimiter(EVENT_STREAM_CONNECT_LIMIT);

  /** The conversation of the browser's cookie, or a 404 answered (and the chat's hint cleared, so it stops asking). */
  const conversationOf = async (req: express.Request, res: express.Response) => {
    const token = cookieValue(req.headers.cookie ?? null, CONVERSATION_COOKIE);
    const conversation = token ? await findConversationByToken(db(), token) : undefined;
    if (conversation) return conversation;
    if (hasConversationHint(req.headers.cookie ?? ""))
      res.append("Set-Cookie", clearedConversationHintCookie(req.secure));
    res.status(404).json({ error: NO_CONVERSATION_ERROR });
    return undefined;
  };

  const read = rateLimit(CONVERSATION_READ_LIMIT);
  router.get("/support/conversation", read, async (req, res) => {
    const conversation = await conversationOf(req, res);
    if (!conversation) return;
    const after = afterSchema.safeParse(req.query.after ?? 0);
    if (!after.success || Array.isArray(req.query.after)) {
      res.status(400).json({ error: "after must be a message number (0 or more)" });
      return;
    }
    await markVisitorPresent(db(), conversation.id, undefined);
    // The polling fallback reads only what is new.
    const view: ConversationView =
      after.data === 0
        ? await conversationView(conversation, db())
        : {
            id: conversation.id,
            category: conversation.category,
            status: conversation.status,
            repliesLive: repliesLive(),
            messages: await conversationMessages(db(), conversation.id, after.data),
          };
    res.set("Cache-Control", "no-store");
    res.json(view);
  });

  router.get("/support/conversation/events", read, async (req, res) => {
    const conversation = await conversationOf(req, res);
    if (!conversation) return;
    const resumeFrom = req.get("Last-Event-ID") ?? req.query.after ?? 0;
    const after = afterSchema.safeParse(resumeFrom);
    if (!after.success || Array.isArray(resumeFrom)) {
      res.status(400).json({ error: "Last-Event-ID and after must be a message number (0 or more)" });
      return;
    }
    if (req.method === "HEAD") {
      // Express answers HEAD with the GET route: the headers of a stream, and no stream held open for nobody.
      res.set({ "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store, no-transform" }).end();
      return;
    }
    if (!(await spend(streamConnects, conversation.id, res, EVENT_STREAM_CONNECT_LIMIT))) return;
    if (streams().countFor(conversation.id) >= MAX_STREAMS_PER_CONVERSATION) {
      res.set("Retry-After", "30").status(429).json({ error: "Too many open windows of this conversation" });
      return;
    }
    await markVisitorPresent(db(), conversation.id, undefined);
    // An id beyond this conversation's last message was seen in another one (the cookie changed since): start over.
    const latest = (await latestSeqs(db(), [conversation.id])).get(conversation.id) ?? 0;
    streams().open(req, res, conversation, after.data > latest ? 0 : after.data);
  });

  // Limit, then origin, then the body: a flood or a foreign page costs no parsing.
  router.post("/support/conversation/messages", rateLimit(VISITOR_MESSAGE_LIMITS.address), ownOriginOnly, jsonBody);
  router.post("/support/conversation/seen", read, ownOriginOnly, jsonBody);
  router.post("/support/conversation/messages", async (req, res) => {
    const conversation = await conversationOf(req, res);
    if (!conversation) return;
    const parsed = visitorMessageSchema.safeParse(req.body);
    if (!parsed.success) {
      res.status(400).json({ error: parsed.error.issues[0]?.message ?? "Invalid message" });
      return;
    }
    if (!acceptsMessages(conversation, res)) return;
    if (!(await spend(perConversation, conversation.id, res, VISITOR_MESSAGE_LIMITS.conversation))) return;
    const message = await addVisitorMessage(conversation, parsed.data.text, db());
    res.set("Cache-Control", "no-store");
    res.status(202).json({ message });
  });

  router.post("/support/conversation/seen", async (req, res) => {
    const conversation = await conversationOf(req, res);
    if (!conversation) return;
    const parsed = seenSchema.safeParse(req.body);
    if (!parsed.success) {
      res.status(400).json({ error: "seq must be a message number (0 or more)" });
      return;
    }
    // A page cannot have seen more than exists: a larger number would silence the mail of replies not written yet.
    const last = await db()
      .selectFrom("support_conversation_messages")
      .select((eb) => eb.fn.max("seq").as("seq"))
      .where("conversation_id", "=", conversation.id)
      .executeTakeFirst();
    await markVisitorPresent(db(), conversation.id, Math.min(parsed.data.seq, Number(last?.seq ?? 0)));
    res.status(204).end();
  });

  return router;
}

function acceptsMessages(conversation: ConversationRow, res: express.Response): boolean {
  if (conversation.status === "open") return true;
  res.status(409).json({ error: RESOLVED_ERROR });
  return false;
}

async function spend(
  limiter: ReturnType<typeof createRateLimiter>,
  key: string,
  res: express.Response,
  policy: RateLimitPolicy,
): Promise<boolean> {
  const spent = await limiter.consume(key);
  if (spent.ok) return true;
  res.set("Retry-After", String(spent.retryAfterSeconds)).status(429).json({ error: policy.error });
  return false;
}

/**
 * A cookie-authenticated write must come from our own pages: Origin (or, without it, Sec-Fetch-Site or Referer) names
 * this request's origin or PUBLIC_URL's. A request naming none of them is refused too.
 */
const ownOriginOnly: express.RequestHandler = (req, res, next) => {
  if (isOwnOrigin(req)) {
    next();
    return;
  }
  res.status(403).json({ error: FOREIGN_ORIGIN_ERROR });
};

export function isOwnOrigin(req: express.Request): boolean {
  const allowed = new Set([`${req.protocol}://${req.get("host")}`, new URL(getEnv().PUBLIC_URL).origin]);
  const origin = req.get("Origin");
  if (origin) return allowed.has(origin);
  const site = req.get("Sec-Fetch-Site");
  if (site) return site === "same-origin";
  const referer = req.get("Referer");
  if (!referer) return false;
  try {
    return allowed.has(new URL(referer).origin);
  } catch {
    return false;
  }
}
