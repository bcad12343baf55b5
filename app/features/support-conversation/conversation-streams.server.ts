// The open event streams of this instance: each replays from the database, then re-reads on every doorbell ring.
// The bell carries no data, so a ring that arrives twice, late or for nothing costs one read and never a duplicate.
import type express from "express";
import type { Kysely } from "kysely";
import { logger } from "~/platform/logger.server";
import type { Database } from "../../../db/schema";
import type { ConversationDoorbell } from "./conversation-doorbell.server";
import { type ConversationRow, conversationMessages } from "./conversation-store.server";
import { EVENT_STREAM_PING_MS } from "./support-conversation";

/** How long the browser waits before reconnecting a dropped stream (sent as `retry:`). */
export const EVENT_STREAM_RETRY_MS = 3_000;
/** How often an open stream tells the reply reader that its visitor is on the page (fast reads of the thread). */
export const STREAM_PRESENCE_MS = 60_000;
/** One read sends at most this many messages; a longer backlog is read in further rounds. */
const READ_BATCH = 200;
/** Conversations per query when checking or marking many at once. */
const CHUNK = 500;

export interface ConversationStreamsOptions {
  db: () => Kysely<Database>;
  doorbell: () => ConversationDoorbell;
  repliesLive: () => boolean;
  /** SQLite (one process, but the CLI writes from another): how often to check connected conversations for news. */
  pollMs?: number | null;
  pingMs?: number;
  presenceMs?: number;
}

interface Stream {
  conversationId: string;
  /** The last `seq` sent (or known to the browser from Last-Event-ID). */
  lastSeq: number;
  status: ConversationRow["status"];
  repliesLive: boolean;
  res: express.Response;
  reading: boolean;
  readAgain: boolean;
  closed: boolean;
  unlisten: () => void;
}

export class ConversationStreams {
  private readonly streams = new Set<Stream>();
  private timers: NodeJS.Timeout[] = [];
  private polling = false;
  /** Set by close(): new streams are ended at once, so a draining instance does not wait for them. */
  private stopped = false;
  private readonly options: Required<Omit<ConversationStreamsOptions, "pollMs">> & { pollMs: number | null };

  constructor(options: ConversationStreamsOptions) {
    this.options = {
      pollMs: null,
      pingMs: EVENT_STREAM_PING_MS,
      presenceMs: STREAM_PRESENCE_MS,
      ...options,
    };
  }

  /** Open streams on this instance. */
  get size(): number {
    return this.streams.size;
  }

  /** Open streams of one conversation (tabs of one visitor), to cap them. */
  countFor(conversationId: string): number {
    let count = 0;
    for (const stream of this.streams) if (stream.conversationId === conversationId) count++;
    return count;
  }

  /** Answers the request with an event stream of the conversation, starting after `afterSeq`. */
  open(req: express.Request, res: express.Response, conversation: ConversationRow, afterSeq: number) {
    // Gone while its conversation was looked up: its "close" has fired already, so it would never be dropped.
    if (req.socket.destroyed) return;
    res.status(200);
    // no-transform: the compression middleware leaves the stream alone (gzip would hold events in its buffer).
    res.set({
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store, no-transform",
      "X-Accel-Buffering": "no",
      Connection: "keep-alive",
    });
    res.flushHeaders();
    if (this.stopped) {
      // Shutting down: the browser reconnects after `retry`, through the balancer to an instance that stays.
      res.end(`retry: ${EVENT_STREAM_RETRY_MS}\n\n`);
      return;
    }
    this.start();
    req.socket.setNoDelay(true);
    req.socket.setKeepAlive(true);
    const stream: Stream = {
      conversationId: conversation.id,
      lastSeq: afterSeq,
      status: conversation.status,
      repliesLive: this.options.repliesLive(),
      res,
      reading: false,
      readAgain: false,
      closed: false,
      unlisten: () => {},
    };
    // Listen before the first read, so a ring during the replay is not missed (it only causes one more read).
    stream.unlisten = this.options.doorbell().listen(conversation.id, () => this.read(stream));
    this.streams.add(stream);
    res.on("close", () => this.drop(stream));
    res.write(`retry: ${EVENT_STREAM_RETRY_MS}\n\n`);
    this.sendStatus(stream);
    this.read(stream);
  }

  /** Ends every stream (shutdown: browsers reconnect elsewhere with Last-Event-ID) and stops the timers. */
  close() {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    for (const stream of [...this.streams]) {
      this.drop(stream);
      stream.res.end();
    }
  }

  /** Every stream re-reads (the shared bell reconnected: rings may have been missed meanwhile). */
  rereadAll() {
    for (const stream of this.streams) this.read(stream);
  }

  private start() {
    if (this.timers.length > 0) return;
    const every = (ms: number, fn: () => void) => {
      const timer = setInterval(fn, ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(this.options.pingMs, () => {
      for (const stream of this.streams) stream.res.write(": ping\n\n");
    });
    every(this.options.presenceMs, () => void this.markPresent());
    // The reply reader may stop or start being able to read threads: that is a status change for every page.
    every(1_000, () => {
      const live = this.options.repliesLive();
      for (const stream of this.streams)
        if (stream.repliesLive !== live) {
          stream.repliesLive = live;
          this.sendStatus(stream);
        }
    });
    if (this.options.pollMs) every(this.options.pollMs, () => void this.poll());
  }

  private drop(stream: Stream) {
    if (stream.closed) return;
    stream.closed = true;
    stream.unlisten();
    this.streams.delete(stream);
  }

  private sendStatus(stream: Stream) {
    stream.res.write(
      `event: status\ndata: ${JSON.stringify({ status: stream.status, repliesLive: stream.repliesLive, conversationId: stream.conversationId })}\n\n`,
    );
  }

  /** Sends what is new since the stream's last `seq`; rings during a read cause one more read, never two at once. */
  private read(stream: Stream) {
    if (stream.closed) return;
    if (stream.reading) {
      stream.readAgain = true;
      return;
    }
    stream.reading = true;
    void (async () => {
      try {
        do {
          stream.readAgain = false;
          const db = this.options.db();
          const messages = await conversationMessages(db, stream.conversationId, stream.lastSeq, READ_BATCH);
          if (stream.closed) return;
          for (const message of messages) {
            stream.res.write(`id: ${message.seq}\nevent: message\ndata: ${JSON.stringify(message)}\n\n`);
            stream.lastSeq = message.seq;
          }
          if (messages.length === READ_BATCH) stream.readAgain = true;
          const row = await db
            .selectFrom("support_conversations")
            .select("status")
            .where("id", "=", stream.conversationId)
            .executeTakeFirst();
          if (stream.closed) return;
          const live = this.options.repliesLive();
          if (row && (row.status !== stream.status || live !== stream.repliesLive)) {
            stream.status = row.status;
            stream.repliesLive = live;
            this.sendStatus(stream);
          }
        } while (stream.readAgain && !stream.closed);
      } catch (error) {
        // The browser reconnects with Last-Event-ID and the replay sends what this read could not.
        logger.warn({ err: { message: (error as Error).message } }, "support conversation stream: read failed");
        this.drop(stream);
        stream.res.end();
      } finally {
        stream.reading = false;
      }
    })();
  }

  /** The open conversations' ids, each once. */
  private conversationIds(): string[] {
    return [...new Set([...this.streams].map((s) => s.conversationId))];
  }

  /** The visitors with a stream open are on the page: one update per chunk of conversations. */
  private async markPresent() {
    const ids = this.conversationIds();
    const at = new Date().toISOString();
    try {
      for (let i = 0; i < ids.length; i += CHUNK)
        await this.options
          .db()
          .updateTable("support_conversations")
          .set({ visitor_active_at: at })
          .where("id", "in", ids.slice(i, i + CHUNK))
          .execute();
    } catch (error) {
      logger.warn({ err: { message: (error as Error).message } }, "support conversation streams: presence not saved");
    }
  }

  /** Without a shared bell: the newest `seq` and status of each connected conversation; a stream behind re-reads. */
  private async poll() {
    if (this.polling || this.streams.size === 0) return;
    this.polling = true;
    try {
      const ids = this.conversationIds();
      const latest = new Map<string, { seq: number; status: ConversationRow["status"] }>();
      for (let i = 0; i < ids.length; i += CHUNK) {
        const rows = await this.options
          .db()
          .selectFrom("support_conversations as c")
          .select((eb) => [
            "c.id",
            "c.status",
            eb
              .selectFrom("support_conversation_messages as m")
              .select((m) => m.fn.max("m.seq").as("seq"))
              .whereRef("m.conversation_id", "=", "c.id")
              .as("seq"),
          ])
          .where("c.id", "in", ids.slice(i, i + CHUNK))
          .execute();
        for (const row of rows) latest.set(row.id, { seq: Number(row.seq ?? 0), status: row.status });
      }
      for (const stream of this.streams) {
        const now = latest.get(stream.conversationId);
        if (now && (now.seq > stream.lastSeq || now.status !== stream.status)) this.read(stream);
      }
    } catch (error) {
      logger.warn({ err: { message: (error as Error).message } }, "support conversation streams: check failed");
    } finally {
      this.polling = false;
    }
  }
}
