// The Content room (issue 44): owners and admins edit the shop's documents (support gets 403). Every form works
// without JavaScript and answers with a redirect when it worked; a refusal comes back with what was typed and the
// document, field and expectation; a stale form (the document was published or its draft saved since it was opened)
// gets 409 and both texts side by side, so nothing typed is lost. Each save, publish, restore and return to the file
// is an audit entry in its change's transaction (content-overrides.server.ts).
import { data, type RouterContextProvider, redirect } from "react-router";
import { getContent } from "~/features/content/content.server";
import { type ContentDocumentId, documentHref, documentOf, isMarkdown } from "~/features/content/content-documents";
import { announceContentPublished } from "~/features/content/content-live.server";
import {
  type ContentProblem,
  ContentConflictError,
  ContentRefusedError,
  discardDraft,
  documentHistory,
  type Editor,
  fileDefault,
  latestRevision,
  MAX_DOCUMENT_BYTES,
  publishDocument,
  readDraft,
  restoreRevision,
  returnToFile,
  saveDraft,
} from "~/features/content/content-overrides.server";
import { auditInfo, consolePath, NO_STORE, readConsoleForm, requireStaff } from "~/features/staff/door.server";
import { getDb, pageDatabaseWork } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { clientAddressContext } from "~/platform/request-context";
import { type DiffLine, diffLines, documentFile, type ListedDocument, listDocuments, readable } from "./content.server";

type Context = Readonly<RouterContextProvider>;

/** A document's text twice over (the value and the FAQ's fields), with room for the form's other fields. */
const MAX_CONTENT_FORM_BYTES = 2 * MAX_DOCUMENT_BYTES + 16 * 1024;

export const CONTENT_DONE = ["saved", "published", "restored", "file", "discarded", "unchanged"] as const;
export type ContentDone = (typeof CONTENT_DONE)[number];

export interface FaqEntry {
  id: string;
  question: string;
  answer: string;
}

export interface ContentForm {
  /** The document's text (JSON pretty-printed, or Markdown). */
  value: string;
  /** The FAQ's entries, when the text reads as a FAQ. */
  faq: FaqEntry[] | null;
  /** The revision the form is based on ("" : the file). */
  base: string;
  /** The draft's stamp when the form was opened ("" : no draft). */
  stamp: string;
}

export interface ContentConflict {
  /** What this form sent. */
  mine: string;
  /** What the document holds now: the newer draft, or the newer published text. */
  theirs: string;
  theirsBy: string;
  theirsAt: string;
  /** Newer what: a draft saved by someone else, or a published revision. */
  what: "draft" | "published";
}

export interface ContentActionData {
  problems?: ContentProblem[];
  conflict?: ContentConflict;
  form?: ContentForm;
  refused?: "read-only" | "bad-request";
}

function editingAllowed() {
  return getEnv().CONTENT_EDITING === "on";
}

export async function loadContentList(request: Request) {
  await requireStaff(request, "content");
  const { db } = getDb();
  const documents: ListedDocument[] = await pageDatabaseWork(() => listDocuments(db));
  return data({ documents, editing: editingAllowed() }, { headers: NO_STORE });
}

function documentFromParams(params: Record<string, string | undefined>): ContentDocumentId {
  const id = documentOf(params.kind ?? "", params.locale ?? "", params.key ?? "");
  if (!id) throw data({ error: "No such document." }, { status: 404, headers: NO_STORE });
  return id;
}

/** The FAQ's entries from a text, or null when it does not read as a list of {id, question, answer}. */
function faqEntries(text: string): FaqEntry[] | null {
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) return null;
    return parsed.map((item) => ({
      id: typeof item?.id === "string" ? item.id : "",
      question: typeof item?.question === "string" ? item.question : "",
      answer: typeof item?.answer === "string" ? item.answer : "",
    }));
  } catch {
    return null;
  }
}

/** The text a document shows when it has no revision and no draft: its file, else (a language without one) the English as the shop shows it. */
function startingText(id: ContentDocumentId): string {
  const shipped = fileDefault(id);
  if (shipped !== undefined) return shipped;
  const content = getContent(id.locale);
  if (id.kind === "legal") return content.legal[id.key as keyof typeof content.legal] ?? "";
  if (id.kind === "products") return JSON.stringify(content.products);
  return JSON.stringify((content as unknown as Record<string, unknown>)[id.kind]);
}

export async function loadContentDocument(request: Request, params: Record<string, string | undefined>) {
  await requireStaff(request, "content");
  const id = documentFromParams(params);
  const { db } = getDb();
  const [published, draft, history, documents] = await pageDatabaseWork(() =>
    Promise.all([latestRevision(db, id), readDraft(db, id), documentHistory(db, id), listDocuments(db)]),
  );
  const current = draft?.value ?? (published ? (published.value ?? fileDefault(id)) : undefined) ?? startingText(id);
  const value = readable(id, current);
  const listed = documents.find((doc) => doc.kind === id.kind && doc.key === id.key);
  // Each revision against the one before it (the oldest against the file).
  const revisions = history.map((revision, i) => {
    const before = history[i + 1];
    const beforeText = before ? (before.value ?? fileDefault(id)) : fileDefault(id);
    const diff: DiffLine[] = diffLines(readable(id, beforeText), readable(id, revision.value ?? fileDefault(id)));
    return {
      id: revision.id,
      action: revision.action,
      author: revision.author,
      createdAt: revision.created_at,
      diff,
      current: i === 0,
    };
  });
  const done = new URL(request.url).searchParams.get("done");
  return data(
    {
      document: { ...id, file: documentFile(id), markdown: isMarkdown(id) },
      editing: editingAllowed(),
      form: {
        value,
        faq: id.kind === "faq" ? faqEntries(current) : null,
        base: published ? String(published.id) : "",
        stamp: draft ? String(draft.stamp) : "",
      } satisfies ContentForm,
      draft: draft ? { updatedBy: draft.updatedBy, updatedAt: draft.updatedAt } : null,
      published: published
        ? { id: published.id, author: published.author, createdAt: published.created_at, action: published.action }
        : null,
      revisions,
      languages: listed?.languages ?? null,
      done: (CONTENT_DONE as readonly string[]).includes(done ?? "") ? (done as ContentDone) : null,
    },
    { headers: NO_STORE },
  );
}

function text(body: FormData, name: string): string {
  const value = body.get(name);
  return typeof value === "string" ? value : "";
}

/** "" is the file (null); a revision id otherwise; undefined for anything else. */
function revisionRef(raw: string): number | null | undefined {
  if (raw === "") return null;
  return /^\d{1,9}$/.test(raw) ? Number(raw) : undefined;
}

/** The FAQ's entries as the form sent them, with the one structural change its button asked for. */
function faqFromForm(body: FormData, id: ContentDocumentId, op: string): FaqEntry[] {
  const count = Math.min(Number(text(body, "entries")) || 0, 500);
  const entries: FaqEntry[] = [];
  for (let i = 0; i < count; i++)
    entries.push({
      id: text(body, `id-${i}`).trim(),
      question: text(body, `question-${i}`),
      answer: text(body, `answer-${i}`),
    });
  // Adding, removing and reordering are the English list's: a translation follows its order and ids.
  if (id.locale !== "en") return entries;
  const [what, at] = op.split(":");
  const i = Number(at);
  if (what === "add") entries.push({ id: "", question: "", answer: "" });
  else if (what === "remove" && entries[i]) entries.splice(i, 1);
  else if (what === "up" && i > 0 && entries[i]) entries.splice(i - 1, 0, ...entries.splice(i, 1));
  else if (what === "down" && entries[i + 1]) entries.splice(i + 1, 0, ...entries.splice(i, 1));
  return entries;
}

function refuse(payload: ContentActionData, status: number) {
  return data<ContentActionData>(payload, { status, headers: NO_STORE });
}

function done(request: Request, id: ContentDocumentId, what: ContentDone) {
  return redirect(`${consolePath(request, documentHref(id))}?done=${what}`, { status: 303, headers: NO_STORE });
}

export async function contentDocumentAction(
  request: Request,
  context: Context,
  params: Record<string, string | undefined>,
) {
  const session = await requireStaff(request, "content");
  const id = documentFromParams(params);
  const body = await readConsoleForm(request, MAX_CONTENT_FORM_BYTES);
  const { db } = getDb();
  const intent = text(body, "intent");
  const editor: Editor = {
    actor: session.staff.email,
    sessionBeganWith: session.beganWith,
    ...auditInfo(request, context.get(clientAddressContext)),
  };
  const base = revisionRef(text(body, "base"));
  const stampRef = revisionRef(text(body, "stamp"));
  const structural = /^(add|remove:\d+|up:\d+|down:\d+)$/.test(intent);
  const isFaqForm = id.kind === "faq" && body.has("entries");
  const value = isFaqForm
    ? `${JSON.stringify(faqFromForm(body, id, structural ? intent : ""), null, 2)}\n`
    : text(body, "value").replace(/\r\n/g, "\n");
  const form: ContentForm = {
    value,
    faq: isFaqForm ? faqEntries(value) : null,
    base: text(body, "base"),
    stamp: text(body, "stamp"),
  };
  if (!editingAllowed()) return refuse({ refused: "read-only", form }, 403);
  if (base === undefined || stampRef === undefined) return refuse({ refused: "bad-request", form }, 400);

  try {
    if (intent === "save" || structural) {
      await pageDatabaseWork(() => saveDraft(db, id, { value, base, stamp: stampRef }, editor));
      return done(request, id, "saved");
    }
    if (intent === "publish") {
      // What is published is what the form shows; a draft saved by someone else since is a conflict, not overwritten.
      const draft = await readDraft(db, id);
      if ((draft?.stamp ?? null) !== stampRef) throw new ContentConflictError(await latestRevision(db, id), draft);
      await pageDatabaseWork(() => publishDocument(db, id, { value, base }, editor));
      await announceContentPublished(db);
      return done(request, id, "published");
    }
    if (intent === "discard") {
      if (stampRef !== null) await discardDraft(db, id, stampRef);
      return done(request, id, "discarded");
    }
    if (intent === "file") {
      await pageDatabaseWork(() => returnToFile(db, id, { base }, editor));
      await announceContentPublished(db);
      return done(request, id, "file");
    }
    const restore = /^restore:(\d{1,9})$/.exec(intent);
    if (restore) {
      await pageDatabaseWork(() => restoreRevision(db, id, { revision: Number(restore[1]), base }, editor));
      await announceContentPublished(db);
      return done(request, id, "restored");
    }
    return refuse({ refused: "bad-request", form }, 400);
  } catch (error) {
    if (error instanceof ContentRefusedError) return refuse({ problems: error.problems, form }, 400);
    if (error instanceof ContentConflictError) {
      const draftNewer = error.draft !== null && error.draft.stamp !== stampRef;
      const theirs = draftNewer
        ? { text: error.draft?.value ?? "", by: error.draft?.updatedBy ?? "", at: error.draft?.updatedAt ?? "" }
        : {
            text: error.published ? (error.published.value ?? fileDefault(id) ?? "") : (fileDefault(id) ?? ""),
            by: error.published?.author ?? "",
            at: error.published?.created_at ?? "",
          };
      // The form to send again is based on what the document holds now: choosing "keep mine" is a decision.
      const current = await latestRevision(db, id);
      const currentDraft = await readDraft(db, id);
      return refuse(
        {
          conflict: {
            mine: value,
            theirs: readable(id, theirs.text),
            theirsBy: theirs.by,
            theirsAt: theirs.at,
            what: draftNewer ? "draft" : "published",
          },
          form: {
            ...form,
            base: current ? String(current.id) : "",
            stamp: currentDraft ? String(currentDraft.stamp) : "",
          },
        },
        409,
      );
    }
    throw error;
  }
}
