import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useRef } from "react";
import { Form, Link, useLocation } from "react-router";
import { buttonStyles } from "~/components/ui/button-styles";
import { LOCALE_CODES, LOCALES, type Locale } from "~/features/i18n/locales";
import { useLocale } from "~/features/i18n/use-locale";
import { ConsoleHeading } from "../shell/console-heading";
import { ConsoleNotice } from "../shell/console-notice";
import { consoleField } from "../shell/console-field";
import { useConsoleTime } from "../shell/console-clock";
import { ANY_LANGUAGE, type SavedReplyChoice, type SavedReplyField } from "./saved-replies";
import type {
  SavedRepliesActionData,
  SavedRepliesDone,
  SavedReplyDraft,
  SavedReplyProblem,
} from "./saved-replies-page.server";

interface ListedReply extends SavedReplyChoice {
  updatedAt: string;
}

interface Limits {
  title: number;
  body: number;
}

/** The first lines of a reply, on one line, for the list. */
function preview(body: string): string {
  const line = body.replace(/\s+/g, " ").trim();
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}

function LanguageName({ locale }: { locale: Locale | null }) {
  if (locale === null) return <Trans>Any language</Trans>;
  return <span lang={LOCALES[locale].tag}>{LOCALES[locale].name}</span>;
}

function DoneText({ done }: { done: SavedRepliesDone }) {
  switch (done) {
    case "added":
      return <Trans>Saved reply added. The team can insert it in the inbox now.</Trans>;
    case "saved":
      return <Trans>Saved reply changed.</Trans>;
    case "unchanged":
      return <Trans>Nothing was changed.</Trans>;
    default:
      return <Trans>Saved reply deleted.</Trans>;
  }
}

function RefusalText({ answer }: { answer: SavedRepliesActionData }) {
  switch (answer.refused) {
    case "invalid":
      return <Trans>The saved reply was not kept: fix the fields marked below.</Trans>;
    case "not-found":
      return <Trans>That saved reply no longer exists: someone may have deleted it. Reload the page.</Trans>;
    default:
      return <Trans>That form could not be read. Reload the page and try again.</Trans>;
  }
}

function ProblemText({
  field,
  problem,
  limits,
}: {
  field: SavedReplyField;
  problem: SavedReplyProblem;
  limits: Limits;
}) {
  const { title, body } = limits;
  if (field === "locale") return <Trans>Choose Any language or one of the languages in the list.</Trans>;
  if (problem === "broken") return <Trans>Remove the broken characters (pasted halves of an emoji or symbol).</Trans>;
  if (field === "title")
    return problem === "too-long" ? (
      <Trans>Shorten the title to {title} characters or fewer.</Trans>
    ) : (
      <Trans>Give the saved reply a title: it is what the team types after / to find it.</Trans>
    );
  return problem === "too-long" ? (
    <Trans>Shorten the text to {body} characters or fewer: a message can be no longer.</Trans>
  ) : (
    <Trans>Write the text the saved reply inserts.</Trans>
  );
}

/** Title, Text and Language, with each refusal beside its field; shared by Add and Edit. */
function SavedReplyFields({
  values,
  problems,
  limits,
  focusFirst,
}: {
  values: { title: string; body: string; locale: string };
  problems: SavedRepliesActionData["problems"];
  limits: Limits;
  /** Takes the focus when shown: the first field to fix, else the title (an Edit just opened). */
  focusFirst: boolean;
}) {
  const { t } = useLingui();
  const id = useId();
  const fields = useRef<HTMLDivElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: each new refusal moves the focus to its first field again
  useEffect(() => {
    if (!focusFirst) return;
    const first =
      fields.current?.querySelector<HTMLElement>("[aria-invalid=true]") ?? fields.current?.querySelector("input");
    first?.focus();
  }, [focusFirst, problems]);
  const field = (name: SavedReplyField) => {
    const problem = problems?.[name];
    return {
      id: `${id}-${name}`,
      "aria-invalid": problem ? true : undefined,
      "aria-describedby": problem ? `${id}-${name}-problem` : undefined,
    };
  };
  const problem = (name: SavedReplyField) => {
    const found = problems?.[name];
    return found ? (
      <p id={`${id}-${name}-problem`} className="mt-1 text-danger text-sm">
        <ProblemText field={name} problem={found} limits={limits} />
      </p>
    ) : null;
  };
  return (
    <div ref={fields} className="space-y-4">
      <div className="text-sm">
        <label htmlFor={`${id}-title`} className="block text-soft">
          <Trans>Title</Trans>
        </label>
        <input
          {...field("title")}
          name="title"
          required
          maxLength={limits.title}
          defaultValue={values.title}
          dir="auto"
          autoComplete="off"
          className={`${consoleField} mt-1`}
        />
        {problem("title")}
      </div>
      <div className="text-sm">
        <label htmlFor={`${id}-body`} className="block text-soft">
          <Trans>Text</Trans>
        </label>
        <textarea
          {...field("body")}
          name="body"
          required
          rows={5}
          maxLength={limits.body}
          defaultValue={values.body}
          dir="auto"
          className={`${consoleField} mt-1`}
        />
        {problem("body")}
      </div>
      <div className="text-sm">
        <label htmlFor={`${id}-locale`} className="block text-soft">
          <Trans>Language</Trans>
        </label>
        <select
          {...field("locale")}
          name="locale"
          defaultValue={values.locale}
          className={`${consoleField} mt-1 sm:w-64`}
        >
          <option value={ANY_LANGUAGE}>{t`Any language`}</option>
          {LOCALE_CODES.map((code) => (
            <option key={code} value={code} lang={LOCALES[code].tag}>
              {LOCALES[code].name}
            </option>
          ))}
        </select>
        {problem("locale")}
      </div>
    </div>
  );
}

function ReplyCard({
  reply,
  editing,
  draft,
  problems,
  limits,
}: {
  reply: ListedReply;
  editing: boolean;
  draft: SavedReplyDraft | undefined;
  problems: SavedRepliesActionData["problems"];
  limits: Limits;
}) {
  const { path } = useLocale();
  const time = useConsoleTime();
  const headingId = useId();
  const title = reply.title;
  const pagePath = path("/admin/support/saved-replies");
  return (
    <li className="min-w-0 rounded-lg border border-border-strong bg-surface p-4">
      <h3 id={headingId} dir="auto" className="break-words font-semibold text-foreground">
        {title}
      </h3>
      <p className="mt-1 text-soft text-sm">
        <LanguageName locale={reply.locale} /> · <Trans>Last changed {time(reply.updatedAt)}</Trans>
      </p>
      {editing ? (
        <Form method="post" action={pagePath} aria-labelledby={headingId} className="mt-4 space-y-4">
          <input type="hidden" name="id" value={reply.id} />
          <SavedReplyFields
            values={draft ?? { title: reply.title, body: reply.body, locale: reply.locale ?? ANY_LANGUAGE }}
            problems={draft ? problems : undefined}
            limits={limits}
            focusFirst
          />
          <div className="flex flex-wrap items-center gap-2">
            <button type="submit" name="intent" value="save" className={buttonStyles.primary}>
              <Trans>Save changes</Trans>
            </button>
            <Link to={pagePath} className={buttonStyles.secondary}>
              <Trans>Cancel</Trans>
            </Link>
          </div>
        </Form>
      ) : (
        <>
          <p dir="auto" className="mt-2 break-words text-foreground text-sm">
            {preview(reply.body)}
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Link to={`${pagePath}?edit=${reply.id}`} className={buttonStyles.secondary}>
              <Trans>
                Edit<span className="sr-only"> “{title}”</span>
              </Trans>
            </Link>
            <Link to={`${pagePath}?delete=${reply.id}`} className={buttonStyles.secondary}>
              <Trans>
                Delete<span className="sr-only"> “{title}”</span>
              </Trans>
            </Link>
          </div>
        </>
      )}
    </li>
  );
}

function DeleteConfirmation({ reply }: { reply: SavedReplyChoice }) {
  const { path } = useLocale();
  const pagePath = path("/admin/support/saved-replies");
  const title = reply.title;
  const heading = useRef<HTMLHeadingElement>(null);
  // Opened from a Delete link, the question is where the focus goes.
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="delete-heading" className="rounded-lg border border-danger/40 bg-surface p-4">
      <h2
        id="delete-heading"
        ref={heading}
        tabIndex={-1}
        className="font-semibold text-foreground text-xl outline-none"
      >
        <Trans>Delete this saved reply?</Trans>
      </h2>
      <p dir="auto" className="mt-3 break-words font-semibold text-foreground">
        {title}
      </p>
      <p className="mt-1 text-soft text-sm">
        <LanguageName locale={reply.locale} />
      </p>
      <p dir="auto" className="mt-2 whitespace-pre-line break-words text-foreground text-sm">
        {reply.body}
      </p>
      <p className="mt-4 text-soft text-sm">
        <Trans>The team can no longer insert it. Messages already sent with it do not change.</Trans>
      </p>
      <Form method="post" action={pagePath} className="mt-4 flex flex-wrap items-center gap-2">
        <input type="hidden" name="id" value={reply.id} />
        <button type="submit" name="intent" value="delete" className={buttonStyles.primary}>
          <Trans>Delete saved reply</Trans>
        </button>
        <Link to={pagePath} className={buttonStyles.secondary}>
          <Trans>Keep it</Trans>
        </Link>
      </Form>
    </section>
  );
}

export function SavedRepliesPage({
  replies,
  editing,
  deleting,
  done,
  missing,
  limits,
  answer,
}: {
  replies: ListedReply[];
  editing: string | null;
  deleting: SavedReplyChoice | null;
  done: SavedRepliesDone | null;
  missing: boolean;
  limits: Limits;
  answer: SavedRepliesActionData | null;
}) {
  const { t } = useLingui();
  const { path } = useLocale();
  const location = useLocation();
  const draft = answer?.draft;
  // A refused edit of a reply deleted meanwhile lands in Add, so what was typed is not lost.
  const addDraft = draft && (draft.for === "new" || !replies.some((r) => r.id === draft.for)) ? draft : undefined;
  const editingId = draft && draft.for !== "new" && !addDraft ? draft.for : editing;
  return (
    <div className="max-w-3xl">
      <ConsoleHeading title={t`Saved replies`}>
        <Trans>
          Answers the team inserts in the support inbox: type / at the start of the message box, or choose Saved replies
          beside it. Each is for one language or for any.
        </Trans>
      </ConsoleHeading>
      {answer ? (
        <ConsoleNotice failed>
          <RefusalText answer={answer} />
        </ConsoleNotice>
      ) : missing ? (
        <ConsoleNotice failed>
          <Trans>That saved reply no longer exists: someone may have deleted it.</Trans>
        </ConsoleNotice>
      ) : done ? (
        <ConsoleNotice failed={false}>
          <DoneText done={done} />
        </ConsoleNotice>
      ) : null}
      {deleting ? (
        <DeleteConfirmation reply={deleting} />
      ) : (
        <>
          <section aria-labelledby="saved-replies-heading">
            <h2 id="saved-replies-heading" className="font-semibold text-foreground text-xl">
              <Trans>Your saved replies</Trans>
            </h2>
            {replies.length === 0 ? (
              <p className="mt-2 text-soft">
                <Trans>
                  No saved replies yet. Add the answers the team writes most often below, and they are one / away in the
                  inbox.
                </Trans>
              </p>
            ) : (
              <ul className="mt-4 space-y-3">
                {replies.map((reply) => (
                  <ReplyCard
                    key={reply.id}
                    reply={reply}
                    editing={reply.id === editingId}
                    draft={draft?.for === reply.id ? draft : undefined}
                    problems={answer?.problems}
                    limits={limits}
                  />
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="add-saved-reply-heading" className="mt-10">
            <h2 id="add-saved-reply-heading" className="font-semibold text-foreground text-xl">
              <Trans>Add saved reply</Trans>
            </h2>
            <Form
              method="post"
              action={path("/admin/support/saved-replies")}
              aria-labelledby="add-saved-reply-heading"
              className="mt-4 space-y-4 rounded-lg border border-border-strong bg-surface p-4"
              // A new form after each visit, so an added reply's text does not stay in the boxes.
              key={location.key}
            >
              <SavedReplyFields
                values={addDraft ?? { title: "", body: "", locale: ANY_LANGUAGE }}
                problems={addDraft ? answer?.problems : undefined}
                limits={limits}
                focusFirst={addDraft !== undefined}
              />
              <button type="submit" name="intent" value="add" className={buttonStyles.primary}>
                <Trans>Add saved reply</Trans>
              </button>
            </Form>
          </section>
        </>
      )}
    </div>
  );
}
