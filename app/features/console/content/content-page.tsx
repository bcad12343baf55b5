import { Trans, useLingui } from "@lingui/react/macro";
import { useId } from "react";
import { Form, Link } from "react-router";
import { buttonStyles } from "~/components/ui/button-styles";
import { type ContentDocumentId, type DocumentKind, documentHref } from "~/features/content/content-documents";
import { LOCALE_CODES, LOCALES, type Locale } from "~/features/i18n/locales";
import { useLocale } from "~/features/i18n/use-locale";
import { ConsoleHeading } from "../shell/console-heading";
import { ConsoleNotice } from "../shell/console-notice";
import { consoleField } from "../shell/console-field";
import { useConsoleTime } from "../shell/console-clock";
import type { ContentActionData, ContentDone, ContentForm } from "./content-page.server";
import type { DiffLine, LanguageState, ListedDocument } from "./content.server";

function DocumentName({ kind, docKey }: { kind: DocumentKind; docKey: string }) {
  const { t } = useLingui();
  const names: Record<DocumentKind, string> = {
    site: t({ message: "Site texts", comment: "Brand, tagline, hero, selling points, footer …" }),
    faq: t`FAQ`,
    docs: t`Troubleshooting docs`,
    plans: t`Reseller plans`,
    products: t`Product copy`,
    legal: t`Legal page`,
  };
  return (
    <>
      {names[kind]}
      {docKey ? ` (/${docKey})` : null}
    </>
  );
}

function LanguageStateText({ state }: { state: LanguageState }) {
  if (state === "own") return <Trans>own text</Trans>;
  if (state === "older") return <Trans>older than the English</Trans>;
  return <Trans>falls back to English</Trans>;
}

function ReadOnlyNote() {
  return (
    <ConsoleNotice failed>
      <Trans>Editing is off on this shop (CONTENT_EDITING=off): its content comes from the files in git.</Trans>
    </ConsoleNotice>
  );
}

export function ContentListPage({ documents, editing }: { documents: ListedDocument[]; editing: boolean }) {
  const { t } = useLingui();
  const { path } = useLocale();
  return (
    <div className="min-w-0">
      <ConsoleHeading title={t`Content`}>
        <Trans>
          The shop's texts. The files in content/ stay the defaults; what you publish here is shown on top of them.
        </Trans>
      </ConsoleHeading>
      {editing ? null : <ReadOnlyNote />}
      <ul className="space-y-4">
        {documents.map((doc) => (
          <li key={`${doc.kind}/${doc.key}`} className="rounded-lg border border-border-strong bg-surface p-4">
            <h2 className="font-semibold text-foreground">
              <DocumentName kind={doc.kind} docKey={doc.key} />
            </h2>
            <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm">
              {LOCALE_CODES.map((locale) => (
                <li key={locale}>
                  <Link
                    className="text-accent-text underline"
                    to={path(documentHref({ kind: doc.kind, key: doc.key, locale }))}
                    lang={LOCALES[locale].tag}
                  >
                    {LOCALES[locale].name}
                  </Link>{" "}
                  <span className="text-soft">
                    (<LanguageStateText state={doc.languages[locale]} />
                    {doc.drafts.includes(locale) ? (
                      <>
                        , <Trans>draft</Trans>
                      </>
                    ) : null}
                    )
                  </span>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </div>
  );
}

interface DocumentPageProps {
  document: ContentDocumentId & { file: string; markdown: boolean };
  editing: boolean;
  form: ContentForm;
  draft: { updatedBy: string; updatedAt: string } | null;
  published: { id: number; author: string; createdAt: string; action: string } | null;
  revisions: Array<{
    id: number;
    action: string;
    author: string;
    createdAt: string;
    diff: DiffLine[];
    current: boolean;
  }>;
  languages: Record<Locale, LanguageState> | null;
  done: ContentDone | null;
  answer: ContentActionData | null;
}

function DoneText({ done }: { done: ContentDone }) {
  switch (done) {
    case "saved":
      return <Trans>Draft saved. The shop shows it once you publish.</Trans>;
    case "published":
      return <Trans>Published: every page of the shop shows it now.</Trans>;
    case "restored":
      return <Trans>Restored as a new revision, and published.</Trans>;
    case "file":
      return <Trans>Back to the file's text: the shop shows the file again.</Trans>;
    case "discarded":
      return <Trans>Draft thrown away.</Trans>;
    default:
      return <Trans>Nothing changed.</Trans>;
  }
}

function Diff({ lines, revision }: { lines: DiffLine[]; revision: number }) {
  const { t } = useLingui();
  const label = t`Changes in revision #${revision}`;
  return (
    // Scrolls when long: reachable by keyboard, and named for screen readers (as the audit log's table).
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (WCAG 2.1.1)
    <section className="mt-2 max-h-64 overflow-auto rounded bg-foreground/5 p-2" tabIndex={0} aria-label={label}>
      <pre className="whitespace-pre-wrap break-words text-xs">
        {lines.map((line, i) => (
          <span
            key={i}
            className={line.kind === "added" ? "text-success" : line.kind === "removed" ? "text-danger" : "text-soft"}
          >
            {line.kind === "added" ? "+ " : line.kind === "removed" ? "− " : "  "}
            {line.text}
            {"\n"}
          </span>
        ))}
      </pre>
    </section>
  );
}

function FormState({ form }: { form: ContentForm }) {
  return (
    <>
      <input type="hidden" name="base" value={form.base} />
      <input type="hidden" name="stamp" value={form.stamp} />
    </>
  );
}

function FaqFields({ form, english, editing }: { form: ContentForm; english: boolean; editing: boolean }) {
  const { t } = useLingui();
  const entries = form.faq ?? [];
  return (
    <fieldset className="space-y-4" disabled={!editing}>
      <legend className="font-semibold text-foreground">
        <Trans>Questions</Trans>
      </legend>
      <input type="hidden" name="entries" value={entries.length} />
      <ol className="space-y-4">
        {entries.map((entry, i) => (
          <li key={`${entry.id}-${i}`} className="space-y-2 rounded-lg border border-border-strong p-3">
            {english ? (
              <label className="block text-sm">
                <Trans>Anchor (lowercase letters, digits and dashes)</Trans>
                <input name={`id-${i}`} defaultValue={entry.id} className={consoleField} />
              </label>
            ) : (
              <input type="hidden" name={`id-${i}`} value={entry.id} />
            )}
            <label className="block text-sm">
              <Trans>Question</Trans>
              <input name={`question-${i}`} defaultValue={entry.question} dir="auto" className={consoleField} />
            </label>
            <label className="block text-sm">
              <Trans>Answer</Trans>
              <textarea name={`answer-${i}`} defaultValue={entry.answer} rows={4} dir="auto" className={consoleField} />
            </label>
            {english ? (
              <div className="flex flex-wrap gap-2">
                <button type="submit" name="intent" value={`up:${i}`} className={buttonStyles.secondary}>
                  {t`Move question ${i + 1} up`}
                </button>
                <button type="submit" name="intent" value={`down:${i}`} className={buttonStyles.secondary}>
                  {t`Move question ${i + 1} down`}
                </button>
                <button type="submit" name="intent" value={`remove:${i}`} className={buttonStyles.secondary}>
                  {t`Remove question ${i + 1}`}
                </button>
              </div>
            ) : null}
          </li>
        ))}
      </ol>
      {english ? (
        <button type="submit" name="intent" value="add" className={buttonStyles.secondary}>
          <Trans>Add a question</Trans>
        </button>
      ) : (
        <p className="text-soft text-sm">
          <Trans>Questions are added, removed and ordered in English; each language follows.</Trans>
        </p>
      )}
    </fieldset>
  );
}

export function ContentDocumentPage(props: DocumentPageProps) {
  const { t } = useLingui();
  const { path } = useLocale();
  const time = useConsoleTime();
  const formId = useId();
  const { document, editing, answer } = props;
  const form = answer?.form ?? props.form;
  const pagePath = path(documentHref(document));
  const english = document.locale === "en";
  return (
    <div className="min-w-0">
      <p className="mb-2 text-sm">
        <Link className="text-accent-text underline" to={path("/admin/content")}>
          <Trans>All documents</Trans>
        </Link>
      </p>
      <ConsoleHeading title={`${t`Content`}: ${LOCALES[document.locale].name}`}>
        <DocumentName kind={document.kind} docKey={document.key} /> · <code>{document.file}</code>
      </ConsoleHeading>
      {editing ? null : <ReadOnlyNote />}
      {props.done && !answer ? (
        <ConsoleNotice failed={false}>
          <DoneText done={props.done} />
        </ConsoleNotice>
      ) : null}
      {answer?.refused === "read-only" ? <ReadOnlyNote /> : null}
      {answer?.problems ? (
        <div role="alert" className="mb-6 text-danger text-sm">
          <p className="font-semibold">
            <Trans>Not published: the shop would not start with this. Nothing changed on the shop.</Trans>
          </p>
          <ul className="mt-2 list-disc ps-5">
            {answer.problems.map((problem) => (
              <li key={`${problem.document}:${problem.field}:${problem.expected}`}>
                <code>{problem.document}</code>
                {problem.field ? (
                  <>
                    {" "}
                    · <code>{problem.field}</code>
                  </>
                ) : null}
                : {problem.expected}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {answer?.conflict ? (
        <section
          aria-labelledby={`${formId}-conflict`}
          role="alert"
          className="mb-6 rounded-lg border border-danger p-4"
        >
          <h2 id={`${formId}-conflict`} className="font-semibold text-danger">
            {answer.conflict.what === "draft" ? (
              <Trans>
                {answer.conflict.theirsBy} saved a newer draft ({time(answer.conflict.theirsAt)}). Choose which text to
                keep.
              </Trans>
            ) : (
              <Trans>
                {answer.conflict.theirsBy || t`The file`} published a newer text (
                {time(answer.conflict.theirsAt || null)}). Choose which text to keep.
              </Trans>
            )}
          </h2>
          <div className="mt-3 grid gap-4 md:grid-cols-2">
            <div className="min-w-0">
              <h3 className="font-semibold text-foreground">
                <Trans>Your text</Trans>
              </h3>
              <pre className="mt-1 max-h-80 overflow-auto whitespace-pre-wrap break-words rounded bg-foreground/5 p-2 text-xs">
                {answer.conflict.mine}
              </pre>
              <p className="mt-1 text-soft text-sm">
                <Trans>Your text is in the form below: save or publish it to keep it.</Trans>
              </p>
            </div>
            <div className="min-w-0">
              <h3 className="font-semibold text-foreground">
                <Trans>Their text</Trans>
              </h3>
              <pre className="mt-1 max-h-80 overflow-auto whitespace-pre-wrap break-words rounded bg-foreground/5 p-2 text-xs">
                {answer.conflict.theirs}
              </pre>
              <Link className={`${buttonStyles.secondary} mt-2`} to={pagePath}>
                <Trans>Take their text</Trans>
              </Link>
            </div>
          </div>
        </section>
      ) : null}
      {props.languages ? (
        <p className="mb-4 text-sm">
          {LOCALE_CODES.map((locale, i) => (
            <span key={locale}>
              {i > 0 ? " · " : null}
              <Link
                className="text-accent-text underline"
                to={path(documentHref({ ...document, locale }))}
                lang={LOCALES[locale].tag}
              >
                {LOCALES[locale].name}
              </Link>{" "}
              <span className="text-soft">
                (<LanguageStateText state={props.languages?.[locale] ?? "english"} />)
              </span>
            </span>
          ))}
        </p>
      ) : null}
      <p className="mb-4 text-soft text-sm">
        {props.published ? (
          <Trans>
            Published by {props.published.author}, {time(props.published.createdAt)}.
          </Trans>
        ) : (
          <Trans>The shop shows the file's text.</Trans>
        )}{" "}
        {props.draft ? (
          <Trans>
            Draft last touched by {props.draft.updatedBy}, {time(props.draft.updatedAt)}.
          </Trans>
        ) : null}
      </p>
      {props.draft ? (
        <p className="mb-4">
          <a
            className={buttonStyles.secondary}
            href={`/admin/content-preview?doc=${document.kind}${document.key ? `/${document.key}` : ""}/${document.locale}`}
            target="_blank"
            rel="noopener"
          >
            <Trans>Preview the draft on the real page</Trans>
          </a>
        </p>
      ) : null}
      <Form method="post" action={pagePath} className="space-y-4" aria-label={t`Edit the document`}>
        <FormState form={form} />
        {form.faq ? (
          <FaqFields form={form} english={english} editing={editing} />
        ) : (
          <label className="block text-sm">
            {document.markdown ? <Trans>Text (Markdown)</Trans> : <Trans>Text (JSON, as in the file)</Trans>}
            <textarea
              name="value"
              defaultValue={form.value}
              rows={24}
              dir="auto"
              spellCheck={document.markdown}
              readOnly={!editing}
              className={`${consoleField} font-mono text-xs`}
            />
          </label>
        )}
        {editing ? (
          <div className="flex flex-wrap gap-2">
            <button type="submit" name="intent" value="save" className={buttonStyles.secondary}>
              <Trans>Save draft</Trans>
            </button>
            <button type="submit" name="intent" value="publish" className={buttonStyles.primary}>
              <Trans>Publish</Trans>
            </button>
            {props.draft ? (
              <button type="submit" name="intent" value="discard" className={buttonStyles.secondary}>
                <Trans>Throw the draft away</Trans>
              </button>
            ) : null}
            {props.published?.action !== "file" && props.published ? (
              <button type="submit" name="intent" value="file" className={buttonStyles.secondary}>
                <Trans>Back to the file's text</Trans>
              </button>
            ) : null}
          </div>
        ) : null}
      </Form>
      <section aria-labelledby={`${formId}-history`} className="mt-10">
        <h2 id={`${formId}-history`} className="font-semibold text-foreground text-xl">
          <Trans>History</Trans>
        </h2>
        {props.revisions.length === 0 ? (
          <p className="mt-2 text-soft text-sm">
            <Trans>Nothing published yet: the shop shows the file's text.</Trans>
          </p>
        ) : (
          <ol className="mt-2 space-y-4">
            {props.revisions.map((revision) => (
              <li key={revision.id} className="rounded-lg border border-border-strong p-3">
                <p className="text-sm">
                  <strong>#{revision.id}</strong> · {revision.author} · {time(revision.createdAt)} ·{" "}
                  {revision.action === "restore" ? (
                    <Trans>restored</Trans>
                  ) : revision.action === "file" ? (
                    <Trans>back to the file's text</Trans>
                  ) : (
                    <Trans>published</Trans>
                  )}
                  {revision.current ? (
                    <>
                      {" "}
                      · <Trans>shown now</Trans>
                    </>
                  ) : null}
                </p>
                <Diff lines={revision.diff} revision={revision.id} />
                {editing && !revision.current ? (
                  <Form method="post" action={pagePath} className="mt-2">
                    <input type="hidden" name="base" value={props.form.base} />
                    <input type="hidden" name="stamp" value={props.form.stamp} />
                    <button
                      type="submit"
                      name="intent"
                      value={`restore:${revision.id}`}
                      className={buttonStyles.secondary}
                    >
                      <Trans>Restore revision #{revision.id}</Trans>
                    </button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
