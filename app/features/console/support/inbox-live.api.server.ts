// The inbox's live feed, GET /api/admin/support/events: one event whenever any conversation changes on any instance
// (the conversations' doorbell), so open inbox and conversation pages read again. It carries only the conversation's
// id, to signed-in staff who may read the inbox.
import express from "express";
import { ANY_CONVERSATION, conversationDoorbell } from "~/features/support-conversation/conversation-doorbell.server";
import { EVENT_STREAM_PING_MS } from "~/features/support-conversation/support-conversation";
import { getDb } from "~/platform/db.server";
import { sessionTokenOf } from "~/features/staff/door.server";
import { mayEnter } from "~/features/staff/roles";
import { readSession } from "~/features/staff/sessions.server";

/** Rings closer together than this are sent as one event: a burst of messages costs each page one read. */
const COALESCE_MS = 250;
/** Streams one person may hold on one instance (tabs); more are refused so a loop cannot hold the server. */
const STREAMS_PER_PERSON = 8;

export function createSupportInboxApi() {
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
    const changed = new Set<string>();
    let timer: NodeJS.Timeout | undefined;
    const flush = () => {
      timer = undefined;
      for (const id of changed) res.write(`event: changed\ndata: ${id}\n\n`);
      changed.clear();
    };
    const unlisten = conversationDoorbell().listen(ANY_CONVERSATION, (conversationId) => {
      if (!conversationId) return;
      changed.add(conversationId);
      timer ??= setTimeout(flush, COALESCE_MS);
    });
    const ping = setInterval(() => res.write(": ping\n\n"), EVENT_STREAM_PING_MS);
    req.on("close", () => {
      unlisten();
      clearInterval(ping);
      if (timer) clearTimeout(timer);
      const left = (open.get(session.staff.id) ?? 1) - 1;
      if (left <= 0) open.delete(session.staff.id);
      else open.set(session.staff.id, left);
    });
  });

  return router;
}
