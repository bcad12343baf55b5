// The console's Saved replies page on the server (issue 35): owners and admins list, add, edit and delete the replies
// the inbox offers. Plain forms: a change answers 303 back to the list (Post/Redirect/Get), a refusal the form again
// with what was typed and which field to fix.
import { data, type RouterContextProvider, redirect } from "react-router";
import { getDb, pageDatabaseWork } from "~/platform/db.server";
import { clientAddressContext } from "~/platform/request-context";
import { auditInfo, consolePath, NO_STORE, readConsoleForm, requireStaff } from "~/features/staff/door.server";
import {
  ANY_LANGUAGE,
  SAVED_REPLY_BODY_MAX,
  SAVED_REPLY_TITLE_MAX,
  type SavedReplyField,
  savedReplyInputSchema,
} from "./saved-replies";
import { createSavedReply, deleteSavedReply, listSavedReplies, updateSavedReply } from "./saved-replies.server";

type Context = Readonly<RouterContextProvider>;

export const SAVED_REPLIES_PATH = "/admin/support/saved-replies";

/** A whole text and a title fit, even in scripts of 4 bytes a character, percent-encoded. */
const MAX_SAVED_REPLY_FORM_BYTES = 32 * 1024;

/** What the list says after a change (`?done=`), read back from the redirect. */
const DONE = ["added", "saved", "unchanged", "deleted"] as const;
export type SavedRepliesDone = (typeof DONE)[number];

/** An id as the page's links and forms carry it; anything else names no reply. */
function replyId(value: unknown): string | undefined {
  return typeof value === "string" && /^[A-Za-z0-9-]{1,64}$/.test(value) ? value : undefined;
}

export async function loadSavedRepliesPage(request: Request) {
  await requireStaff(request, "savedReplies");
  const params = new URL(request.url).searchParams;
  const { db } = getDb();
  const replies = await pageDatabaseWork(() => listSavedReplies(db));
  const asked = { edit: params.get("edit"), delete: params.get("delete") };
  const editing = replies.find((reply) => reply.id === asked.edit)?.id ?? null;
  const deleting = replies.find((reply) => reply.id === asked.delete) ?? null;
  const done = params.get("done");
  return data(
    {
      replies: replies.map(({ id, title, body, locale, updatedAt }) => ({ id, title, body, locale, updatedAt })),
      editing,
      deleting: deleting && { id: deleting.id, title: deleting.title, body: deleting.body, locale: deleting.locale },
      done: DONE.find((kind) => kind === done) ?? null,
      // A link to a reply deleted meanwhile says so instead of showing the list as if nothing was asked.
      missing: (asked.edit !== null && editing === null) || (asked.delete !== null && deleting === null),
      limits: { title: SAVED_REPLY_TITLE_MAX, body: SAVED_REPLY_BODY_MAX },
    },
    { headers: NO_STORE },
  );
}

/** What was typed into a saved reply's form, given back with a refusal so nothing is lost without JavaScript. */
export interface SavedReplyDraft {
  /** "new", or the id of the reply being edited. */
  for: "new" | string;
  title: string;
  body: string;
  locale: string;
}

export type SavedReplyProblem = "empty" | "too-long" | "broken" | "unknown";

export interface SavedRepliesActionData {
  /** "invalid": see `problems`; "not-found": the reply is gone; "bad-request": a form the page never sends. */
  refused: "invalid" | "not-found" | "bad-request";
  problems?: Partial<Record<SavedReplyField, SavedReplyProblem>>;
  draft?: SavedReplyDraft;
}

function refuse(answer: SavedRepliesActionData, status: number) {
  return data<SavedRepliesActionData>(answer, { status, headers: NO_STORE });
}

function text(body: FormData, name: string): string {
  const value = body.get(name);
  return typeof value === "string" ? value : "";
}

function backToList(request: Request, done: SavedRepliesDone) {
  return redirect(`${consolePath(request, SAVED_REPLIES_PATH)}?done=${done}`, { status: 303, headers: NO_STORE });
}

export async function savedRepliesAction(request: Request, context: Context) {
  const session = await requireStaff(request, "savedReplies");
  const body = await readConsoleForm(request, MAX_SAVED_REPLY_FORM_BYTES);
  const { db } = getDb();
  const intent = text(body, "intent");
  const actor = {
    actor: session.staff.email,
    sessionBeganWith: session.beganWith,
    ...auditInfo(request, context.get(clientAddressContext)),
  };

  if (intent === "delete") {
    const id = replyId(body.get("id"));
    const deleted = id ? await pageDatabaseWork(() => deleteSavedReply(db, id, actor)) : undefined;
    if (!deleted) return refuse({ refused: "not-found" }, 404);
    return backToList(request, "deleted");
  }
  if (intent !== "add" && intent !== "save") return refuse({ refused: "bad-request" }, 400);

  const id = intent === "save" ? replyId(body.get("id")) : undefined;
  if (intent === "save" && !id) return refuse({ refused: "not-found" }, 404);
  const draft: SavedReplyDraft = {
    for: id ?? "new",
    // Kept only as long as the form could have sent it, so a refusal never echoes a flood.
    title: text(body, "title").slice(0, SAVED_REPLY_TITLE_MAX * 2),
    body: text(body, "body").slice(0, SAVED_REPLY_BODY_MAX * 2),
    locale: text(body, "locale").slice(0, 16) || ANY_LANGUAGE,
  };
  const parsed = savedReplyInputSchema.safeParse({
    title: text(body, "title"),
    body: text(body, "body"),
    locale: text(body, "locale"),
  });
  if (!parsed.success) {
    const problems: SavedRepliesActionData["problems"] = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as SavedReplyField;
      const problem: SavedReplyProblem =
        field === "locale"
          ? "unknown"
          : issue.message === "too-long" || issue.message === "broken"
            ? issue.message
            : "empty";
      problems[field] ??= problem;
    }
    return refuse({ refused: "invalid", problems, draft }, 400);
  }
  if (!id) {
    await pageDatabaseWork(() => createSavedReply(db, parsed.data, { ...actor, staffId: session.staff.id }));
    return backToList(request, "added");
  }
  const changed = await pageDatabaseWork(() => updateSavedReply(db, id, parsed.data, actor));
  if (!changed) return refuse({ refused: "not-found", draft }, 404);
  return backToList(request, changed.changed ? "saved" : "unchanged");
}
