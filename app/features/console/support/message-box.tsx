import { Plural, Trans, useLingui } from "@lingui/react/macro";
import * as Dialog from "@radix-ui/react-dialog";
import {
  type KeyboardEvent,
  type ReactNode,
  type Ref,
  type TextareaHTMLAttributes,
  useEffect,
  useId,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
} from "react";
import { XMarkIcon } from "~/components/icons";
import { buttonStyles } from "~/components/ui/button-styles";
import { LOCALES } from "~/features/i18n/locales";
import { useHydrated } from "~/features/status/local-time";
import { consoleField } from "../shell/console-field";
import { matchSavedReplies, type SavedReplyChoice } from "../saved-replies/saved-replies";

export interface MessageBoxProps
  extends Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "name" | "role" | "value" | "children"> {
  name: string;
  label: ReactNode;
  /** A line under the label that describes the box (aria-describedby). */
  hint?: ReactNode;
  /** The textarea itself, for a page that focuses it (keyboard shortcuts). */
  ref?: Ref<HTMLTextAreaElement>;
  /** What `/` and the Saved replies button offer, in the order to offer them (savedRepliesFor on the server). */
  savedReplies: readonly SavedReplyChoice[];
  /** Where saved replies are managed, for those who may: shown when there are none yet. */
  manageHref?: string;
}

/** The `/query` the box starts with while the caret is still in it, or undefined. */
export function slashQuery(value: string, caret: number): string | undefined {
  if (!value.startsWith("/") || caret < 1) return undefined;
  const typed = value.slice(1, caret);
  return typed.includes("\n") ? undefined : typed;
}

/** A saved reply's text in place of `from`…`to` of the box, the caret after it; React's onChange hears of it. */
function insertInto(box: HTMLTextAreaElement, text: string, from: number, to: number) {
  box.focus();
  box.setSelectionRange(from, to);
  box.setRangeText(text, from, to, "end");
  box.dispatchEvent(new Event("input", { bubbles: true }));
}

function previewOf(body: string): string {
  const line = body.replace(/\s+/g, " ").trim();
  return line.length > 90 ? `${line.slice(0, 89)}…` : line;
}

function ReplyLanguage({ reply }: { reply: SavedReplyChoice }) {
  if (reply.locale === null) return null;
  const language = LOCALES[reply.locale];
  return (
    <span lang={language.tag} className="ms-2 text-soft text-xs">
      {language.name}
    </span>
  );
}

/**
 * The inbox's message box: a labelled textarea that, once the page's JavaScript runs, offers saved replies in two
 * ways: `/` at the start of the box opens a list filtered by what follows it (a combobox), and the Saved replies
 * button opens a dialog with a filter. Either inserts the reply's text where the caret was. Server-rendered, it is
 * only the textarea, so its form posts without JavaScript.
 */
export function MessageBox({
  name,
  label,
  hint,
  ref,
  savedReplies,
  manageHref,
  id: givenId,
  className,
  onKeyDown,
  onChange,
  onSelect,
  "aria-describedby": describedBy,
  ...textareaProps
}: MessageBoxProps) {
  const { t } = useLingui();
  const hydrated = useHydrated();
  const ownId = useId();
  const id = givenId ?? `${ownId}-box`;
  const listboxId = `${ownId}-listbox`;
  const hintId = `${ownId}-hint`;
  const slashHintId = `${ownId}-slash-hint`;
  const box = useRef<HTMLTextAreaElement>(null);
  useImperativeHandle(ref, () => box.current as HTMLTextAreaElement, []);
  const [query, setQuery] = useState<string | undefined>(undefined);
  const [active, setActive] = useState(0);
  // Escape closes the list until the `/` is typed again.
  const [dismissed, setDismissed] = useState(false);
  const matches = useMemo(
    () => (query === undefined ? [] : matchSavedReplies(savedReplies, query)),
    [savedReplies, query],
  );
  const open = hydrated && query !== undefined && !dismissed && matches.length > 0;
  const activeIndex = Math.min(active, Math.max(0, matches.length - 1));
  const optionId = (index: number) => `${ownId}-option-${index}`;

  useEffect(() => {
    if (!open) return;
    const option = document.getElementById(optionId(activeIndex));
    if (typeof option?.scrollIntoView === "function") option.scrollIntoView({ block: "nearest" });
  });

  function follow(target: HTMLTextAreaElement) {
    const next = slashQuery(target.value, target.selectionStart);
    if (next === undefined) setDismissed(false);
    if (next !== query) {
      setQuery(next);
      setActive(0);
    }
  }

  function choose(reply: SavedReplyChoice) {
    const target = box.current;
    if (!target) return;
    // The `/query` up to the caret gives way to the reply.
    insertInto(target, reply.body, 0, target.selectionStart);
    setQuery(undefined);
  }

  function handleKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    onKeyDown?.(event);
    if (event.defaultPrevented || !open) return;
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((activeIndex + step + matches.length) % matches.length);
    } else if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      const reply = matches[activeIndex];
      if (reply) choose(reply);
    } else if (event.key === "Escape") {
      // Only the list closes: a dialog or page around the box keeps what it would do on a second Escape.
      event.preventDefault();
      event.stopPropagation();
      setDismissed(true);
    }
  }

  const offered = hydrated && savedReplies.length > 0;
  const describedByIds =
    [hint ? hintId : undefined, describedBy, offered ? slashHintId : undefined].filter(Boolean).join(" ") || undefined;

  return (
    <div className="text-sm">
      <label htmlFor={id} className="block text-soft">
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="text-soft text-xs">
          {hint}
        </p>
      ) : null}
      <div className="relative mt-1">
        <textarea
          {...textareaProps}
          ref={box}
          id={id}
          name={name}
          className={className ?? consoleField}
          aria-describedby={describedByIds}
          // The combobox pattern as a textarea may carry it: a textarea may take no role (so no aria-expanded), but
          // a textbox may own a list and point at its active option; the live region below says when it opens.
          {...(offered
            ? {
                "aria-autocomplete": "list" as const,
                "aria-haspopup": "listbox" as const,
                "aria-controls": listboxId,
                "aria-activedescendant": open ? optionId(activeIndex) : undefined,
              }
            : {})}
          onChange={(event) => {
            onChange?.(event);
            follow(event.currentTarget);
          }}
          onSelect={(event) => {
            onSelect?.(event);
            follow(event.currentTarget);
          }}
          onKeyDown={handleKeyDown}
          onBlur={(event) => {
            textareaProps.onBlur?.(event);
            setQuery(undefined);
          }}
        />
        {offered ? (
          <div
            id={listboxId}
            role="listbox"
            aria-label={t`Saved replies`}
            hidden={!open}
            className="absolute inset-x-0 top-full z-30 mt-1 max-h-64 overflow-y-auto rounded-lg border border-border-strong bg-surface p-1 shadow-lg"
          >
            {open
              ? matches.map((reply, index) => (
                  // biome-ignore lint/a11y/useKeyWithClickEvents: the keys are the combobox's (arrows and Enter in the box)
                  <div
                    key={reply.id}
                    id={optionId(index)}
                    role="option"
                    // Never focused: the box keeps focus and points here with aria-activedescendant.
                    tabIndex={-1}
                    aria-selected={index === activeIndex}
                    // The caret stays in the box; the click chooses.
                    onMouseDown={(event) => event.preventDefault()}
                    onClick={() => choose(reply)}
                    className="cursor-pointer rounded px-3 py-2 text-foreground aria-selected:bg-accent/15"
                  >
                    <span dir="auto" className="font-semibold">
                      {reply.title}
                    </span>
                    <ReplyLanguage reply={reply} />
                    <span dir="auto" className="block truncate text-soft text-xs">
                      {previewOf(reply.body)}
                    </span>
                  </div>
                ))
              : null}
          </div>
        ) : null}
      </div>
      {offered ? (
        <p role="status" className="sr-only">
          {open ? (
            <Plural
              value={matches.length}
              one="# saved reply matches: Up and Down to choose, Enter to insert, Escape to close."
              other="# saved replies match: Up and Down to choose, Enter to insert, Escape to close."
            />
          ) : null}
        </p>
      ) : null}
      {hydrated ? (
        <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1">
          {savedReplies.length > 0 ? (
            <>
              <SavedRepliesDialog savedReplies={savedReplies} box={box} />
              <p id={slashHintId} className="text-soft text-xs">
                <Trans>Or type / at the start of the box to insert one.</Trans>
              </p>
            </>
          ) : (
            <>
              <button type="button" disabled className={buttonStyles.secondary}>
                <Trans>No saved replies yet</Trans>
              </button>
              {manageHref ? (
                <a href={manageHref} className="underline">
                  <Trans>Add saved replies</Trans>
                </a>
              ) : null}
            </>
          )}
        </div>
      ) : null}
    </div>
  );
}

/** The Saved replies button and its dialog: a filter and the replies; choosing one inserts it where the caret was. */
function SavedRepliesDialog({
  savedReplies,
  box,
}: {
  savedReplies: readonly SavedReplyChoice[];
  box: React.RefObject<HTMLTextAreaElement | null>;
}) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState("");
  const caret = useRef<{ from: number; to: number }>({ from: 0, to: 0 });
  const chosen = useRef<SavedReplyChoice | undefined>(undefined);
  const matches = useMemo(() => matchSavedReplies(savedReplies, filter), [savedReplies, filter]);
  const filterId = useId();
  const filterBox = useRef<HTMLInputElement>(null);

  function choose(reply: SavedReplyChoice) {
    chosen.current = reply;
    setOpen(false);
  }

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        if (next) {
          const target = box.current;
          caret.current = { from: target?.selectionStart ?? 0, to: target?.selectionEnd ?? 0 };
          chosen.current = undefined;
          setFilter("");
        }
        setOpen(next);
      }}
    >
      <Dialog.Trigger className={buttonStyles.secondary}>
        <Trans>Saved replies</Trans>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-background/80 backdrop-blur-sm" />
        <Dialog.Content
          aria-describedby={undefined}
          onOpenAutoFocus={(event) => {
            // Straight to the filter: typing narrows the list at once.
            event.preventDefault();
            filterBox.current?.focus();
          }}
          onCloseAutoFocus={(event) => {
            // Back to the box, with the reply (if one was chosen) where the caret was.
            event.preventDefault();
            const target = box.current;
            if (!target) return;
            const reply = chosen.current;
            chosen.current = undefined;
            if (reply) insertInto(target, reply.body, caret.current.from, caret.current.to);
            else {
              target.focus();
              target.setSelectionRange(caret.current.from, caret.current.to);
            }
          }}
          className="fixed top-1/2 left-1/2 z-50 flex max-h-[min(36rem,calc(100dvh-2rem))] w-[min(32rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-2xl border border-foreground/10 bg-background shadow-2xl shadow-shadow/60 focus:outline-none"
        >
          <div className="flex items-center justify-between gap-4 border-foreground/10 border-b px-4 py-3">
            <Dialog.Title className="font-semibold text-base text-foreground">
              <Trans>Saved replies</Trans>
            </Dialog.Title>
            <Dialog.Close
              aria-label={t`Close saved replies`}
              className="rounded-md p-1.5 text-soft hover:bg-foreground/10 hover:text-foreground focus-visible:outline-2 focus-visible:outline-focus"
            >
              <XMarkIcon className="size-5" />
            </Dialog.Close>
          </div>
          <div className="border-foreground/10 border-b px-4 py-3 text-sm">
            <label htmlFor={filterId} className="block text-soft">
              <Trans>Filter by title</Trans>
            </label>
            <input
              ref={filterBox}
              id={filterId}
              type="search"
              value={filter}
              onChange={(event) => setFilter(event.currentTarget.value)}
              onKeyDown={(event) => {
                // Enter takes the first match, as the list under the box would.
                if (event.key !== "Enter") return;
                event.preventDefault();
                const first = matches[0];
                if (first) choose(first);
              }}
              autoComplete="off"
              className={`${consoleField} mt-1`}
            />
          </div>
          {matches.length === 0 ? (
            <p role="status" className="px-4 py-3 text-soft text-sm">
              <Trans>No saved reply has a title like that.</Trans>
            </p>
          ) : (
            <ul aria-label={t`Saved replies`} className="min-h-0 flex-1 space-y-1 overflow-y-auto p-2">
              {matches.map((reply) => (
                <li key={reply.id}>
                  <button
                    type="button"
                    onClick={() => choose(reply)}
                    className="block w-full rounded-lg px-3 py-2 text-start text-sm hover:bg-foreground/5 focus-visible:outline-2 focus-visible:outline-focus"
                  >
                    <span dir="auto" className="font-semibold text-foreground">
                      {reply.title}
                    </span>
                    <ReplyLanguage reply={reply} />
                    <span dir="auto" className="block text-soft text-xs">
                      {previewOf(reply.body)}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
