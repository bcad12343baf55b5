// The inbox's live feed, GET /api/admin/support/events: one event whenever any conversation changes on any instance
// (the conversations' doorbell), so open inbox and conversation pages read again. It carries only the conversation's
// id, to signed-in staff who may read the inbox, and only while they still may: the session is checked again in the
// database before every event and every SESSION_RECHECK_MS, so Sign out everywhere, a removal, a role change or the
// idle end (on any instance) closes the stream (issue 42).
import express from "express";
import { ANY_CONVERSATION, conversationDoorbell } from "~/features/support-conversation/conversation-doorbell.server";
import { EVENT_STREAM_PING_MS } from "~/features/support-conversation/support-conversation";
import { getDb } from "~/platform/db.server";
import { sessionTokenOf } from "~/features/staff/door.server";
import { mayEnter } from "~/features/staff/roles";
import { readSession, recheckSession } from "~/features/staff/sessions.server";
import { logger } from "~/platform/logger.server";

/** Rings closer together than this are sent as one event: a burst of messages costs each page one read. */
const COALESCE_MS = 250;
/** Streams one person may hold on one instance (tabs); more are refused so a loop cannot hold the server. */
const STREAMS_PER_PERSON = 8;
/** How often an open stream asks whether its session still stands, even when nothing happens (at most 30 s). */
export const SESSION_RECHECK_MS = 20_000;

export function createSupportInboxApi(options: { recheckMs?: number } = {}) {
  const recheckMs = options.recheckMs ?? SESSION_RECHECK_MS;
  const router = express.Router();
  const open = new Map<string, number>();

  router.get("/admin/support/events", async (req, res) => {
    const url = `${req.protocol}://${req.get("host") ?? "localhost"}${req.originalUrl}`;
    const token = sessionTokenOf(url, req.get("cookie"));
    const session = token ? await readSession(getDb().db, token) : undefined;
    if (session?.beganWith !== "passkey") {
      res.status(401).json({ error: "Sign in first." });
      return;
    }
    if (!mayEnter(session.staff.role, "support")) {
      res.status(403).json({ error: "Forbidden" });
      return;
    }
    const held = open.get(session.staff.id) ?? 0;
    if (held >= STREAMS_PER_PERSON) {
      res.status(429).set("Retry-After", "30").json({ error: "Too many open inbox pages." });
      return;
    }
    if (req.socket.destroyed) return;
    open.set(session.staff.id, held + 1);
    res.status(200).set({
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store, no-transform",
      // nginx passes each event on at once instead of buffering the stream.
      "X-Accel-Buffering": "no",
    });
    res.flushHeaders();
    res.write("retry: 3000\n\n");
    const staffId = session.staff.id;
    const changed = new Set<string>();
    let timer: NodeJS.Timeout | undefined;
    let ended = false;
    /** Whether the session still stands and may read the inbox; a database that cannot say ends the stream too. */
    const mayStillRead = async () => {
      try {
        const current = await recheckSession(getDb().db, session.idHash);
        return current?.beganWith === "passkey" && mayEnter(current.staff.role, "support");
      } catch (err) {
        logger.warn({ err }, "inbox stream: its session could not be checked again; the stream is closed");
        return false;
      }
    };
    /** Ends the stream when its session no longer stands; whether it has ended. */
    const endUnlessAllowed = async () => {
      if (!ended && !(await mayStillRead()) && !ended) {
        res.end();
        stop();
      }
      return ended;
    };
    const flush = async () => {
      timer = undefined;
      if (await endUnlessAllowed()) return;
      for (const id of changed) res.write(`event: changed\ndata: ${id}\n\n`);
      changed.clear();
    };
    const unlisten = conversationDoorbell().listen(ANY_CONVERSATION, (conversationId) => {
      if (!conversationId) return;
      changed.add(conversationId);
      timer ??= setTimeout(() => void flush(), COALESCE_MS);
    });
    const ping = setInterval(() => res.write(": ping\n\n"), EVENT_STREAM_PING_MS);
    const recheck = setInterval(() => void endUnlessAllowed(), recheckMs);
    function stop() {
      if (ended) return;
      ended = true;
      unlisten();
      clearInterval(ping);
      clearInterval(recheck);
      if (timer) clearTimeout(timer);
      const left = (open.get(staffId) ?? 1) - 1;
      if (left <= 0) open.delete(staffId);
      else open.set(staffId, left);
    }
    req.on("close", stop);
  });

  return router;
}
