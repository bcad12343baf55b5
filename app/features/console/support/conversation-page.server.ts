// One conversation of the inbox on the server: the page (with its neighbours in the list it was opened from) and its
// forms: each change an audit entry with before and after, answered with a redirect so a reload never sends a reply
// twice.
import { data, redirect, type RouterContextProvider } from "react-router";
import { auditInfo, consolePath, NO_STORE, readConsoleForm, requireStaff } from "~/features/staff/door.server";
import { mayEnter } from "~/features/staff/roles";
import { findConversation } from "~/features/support-conversation/conversation-store.server";
import { MAX_MESSAGE_LENGTH } from "~/features/support-conversation/support-conversation";
import { getDb, pageDatabaseWork } from "~/platform/db.server";
import { clientAddressContext } from "~/platform/request-context";
import { catalogueNames } from "../orders/catalogue-names.server";
import { MESSAGE_BOX_ID } from "./inbox-labels";
import { savedRepliesFor } from "../saved-replies/saved-replies.server";
import {
  assignConversation,
  consoleConversationOf,
  inboxFilterOf,
  neighbours,
  noteFromConsole,
  reopenFromConsole,
  replyFromConsole,
  resolveFromConsole,
  waitingCounts,
} from "./support.server";

type Context = Readonly<RouterContextProvider>;

export const INBOX_PATH = "/admin/support";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** A 900-character message in any script, and the form's other fields. */
const MAX_CONVERSATION_FORM_BYTES = 16 * 1024;

function notFound() {
  return data({ error: "No such conversation." }, { status: 404, headers: NO_STORE });
}

export async function loadConversationPage(request: Request, context: Context, id: string | undefined) {
  const session = await requireStaff(request, "support");
  // Who is looking, for the audit entry of the buyer's orders shown beside a proven address.
  const viewer = {
    actor: session.staff.email,
    sessionBeganWith: session.beganWith,
    ...auditInfo(request, context.get(clientAddressContext)),
  };
  if (!id || !UUID.test(id)) throw notFound();
  const url = new URL(request.url);
  const { db } = getDb();
  const loaded = await pageDatabaseWork(async () => {
    const conversation = await findConversation(db, id);
    if (!conversation) return undefined;
    const filter = inboxFilterOf(url, session.staff.id);
    const [view, around, waiting] = await Promise.all([
      consoleConversationOf(db, conversation, catalogueNames, viewer),
      neighbours(db, filter, conversation),
      waitingCounts(db, session.staff.id),
    ]);
    return { view, around, waiting, filter };
  });
  if (!loaded) throw notFound();
  const savedReplies = await savedRepliesFor(loaded.view.locale);
  const done = url.searchParams.get("done");
  return data(
    {
      conversation: loaded.view,
      around: loaded.around,
      waiting: loaded.waiting,
      list: { state: loaded.filter.state, scope: loaded.filter.scope, query: loaded.filter.query ?? "" },
      viewerId: session.staff.id,
      savedReplies,
      manageSavedReplies: mayEnter(session.staff.role, "savedReplies"),
      now: new Date().toISOString(),
      done: done && DONE_NOTICES.includes(done as DoneNotice) ? (done as DoneNotice) : null,
    },
    { headers: NO_STORE },
  );
}

export const DONE_NOTICES = ["replied", "noted", "assigned", "unassigned", "resolved", "reopened"] as const;
export type DoneNotice = (typeof DONE_NOTICES)[number];

export type ConversationProblem = "empty" | "too-long" | "broken" | "resolved" | "unknown-intent";

export interface ConversationActionData {
  problem: ConversationProblem;
  /** What was typed, given back so nothing is lost. */
  draft: string;
}

function problem(kind: ConversationProblem, draft: string, status = 400) {
  return data<ConversationActionData>({ problem: kind, draft }, { status, headers: NO_STORE });
}

function text(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

export async function conversationAction(request: Request, context: Context, id: string | undefined) {
  const session = await requireStaff(request, "support");
  if (!id || !UUID.test(id)) throw notFound();
  const form = await readConsoleForm(request, MAX_CONVERSATION_FORM_BYTES);
  const intent = text(form, "intent");
  const { db } = getDb();
  const agent = { id: session.staff.id, email: session.staff.email };
  const audit = {
    actor: session.staff.email,
    target: id,
    sessionBeganWith: session.beganWith,
    ...auditInfo(request, context.get(clientAddressContext)),
  };
  const url = new URL(request.url);
  // After a reply or a note the page opens at the message box (#message), so it stays in view on a phone too.
  const back = (done: DoneNotice) => {
    const params = new URLSearchParams();
    for (const key of ["state", "scope", "q"]) {
      const value = url.searchParams.get(key);
      if (value) params.set(key, value);
    }
    params.set("done", done);
    const at = done === "replied" || done === "noted" ? `#${MESSAGE_BOX_ID}` : "";
    return redirect(`${consolePath(request, `${INBOX_PATH}/${id}`)}?${params}${at}`, {
      status: 303,
      headers: NO_STORE,
    });
  };

  return pageDatabaseWork(async () => {
    const conversation = await findConversation(db, id);
    if (!conversation) throw notFound();

    if (intent === "reply" || intent === "note") {
      const draft = text(form, "message");
      const message = draft.trim();
      if (message.length === 0) return problem("empty", draft);
      if (message.length > MAX_MESSAGE_LENGTH) return problem("too-long", draft);
      if (!message.isWellFormed()) return problem("broken", draft);
      if (intent === "reply") {
        // A resolved conversation takes no replies from either side until it is reopened.
        if (conversation.status !== "open") return problem("resolved", draft, 409);
        await replyFromConsole(db, agent, id, message, audit);
        return back("replied");
      }
      await noteFromConsole(db, agent, id, message, audit);
      return back("noted");
    }

    if (intent === "assign-to-me" || intent === "unassign") {
      const to = intent === "assign-to-me" ? session.staff.id : null;
      await assignConversation(db, id, to, audit);
      return back(to ? "assigned" : "unassigned");
    }

    if (intent === "resolve") {
      await resolveFromConsole(db, id, audit);
      return back("resolved");
    }

    if (intent === "reopen") {
      await reopenFromConsole(db, id, audit);
      return back("reopened");
    }

    return problem("unknown-intent", "");
  });
}
