import { Plural, Trans, useLingui } from "@lingui/react/macro";
import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { useId } from "react";
import { ChevronDownOutlineIcon, SendIcon, XMarkOutlineIcon } from "~/components/icons";
import { useLocale } from "~/features/i18n/use-locale";
import { formatMessageTime } from "./conversation";
import { SUPPORT_CHAT_PANEL_ID } from "./open-support-chat";
import { MAX_ANSWER_LENGTH, SUPPORT_CATEGORIES } from "./support-chat";
import { CATEGORY_NAMES, shownPlaceholder, shownText } from "./support-chat-messages";
import { ConversationItems, ConversationNotes, lastAnnouncement } from "./support-chat-conversation";
import { useSupportChat } from "./use-support-chat";

/** The support chat panel: loaded lazily by the launcher and kept mounted (hidden) after the first open. */
export default function SupportChatPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  const chat = useSupportChat({ open, onClose });
  const { state, phase, draft, refs } = chat;
  const titleId = useId();
  const counterId = useId();
  const { t, i18n } = useLingui();
  const { dir, tag } = useLocale();
  const typed = draft.length;
  const max = MAX_ANSWER_LENGTH;

  return (
    <section
      ref={refs.panelRef}
      id={SUPPORT_CHAT_PANEL_ID}
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      tabIndex={-1}
      hidden={!open}
      className="fixed end-4 bottom-20 z-50 flex h-[500px] max-h-[calc(100dvh-6rem)] w-80 flex-col overflow-hidden rounded-xl border border-border-strong bg-surface text-foreground shadow-2xl shadow-shadow/50 focus:outline-none sm:w-96"
    >
      <div className="flex items-center justify-between border-border-strong border-b bg-raised px-4 py-3">
        <h2 id={titleId} className="font-semibold text-base">
          <Trans>Support Chat</Trans>
        </h2>
        <button
          type="button"
          onClick={onClose}
          aria-label={t`Close support chat`}
          className="rounded-md p-1 text-soft hover:bg-border-strong hover:text-foreground"
        >
          <XMarkOutlineIcon className="size-5" />
        </button>
      </div>

      <div ref={refs.listRef} className="max-h-[350px] flex-1 overflow-y-auto px-4 py-3">
        <ul aria-label={t`Conversation`} className="space-y-3">
          {chat.conversation ? (
            <ConversationItems view={chat.conversation} />
          ) : (
            state.messages.map((message) => (
              <li key={message.id} className={message.isUser ? "flex flex-col items-end" : "flex flex-col items-start"}>
                <span className="sr-only">
                  {message.isUser
                    ? t({
                        message: "You:",
                        comment: "Support chat, for screen readers: the visitor's own message follows",
                      })
                    : t({ message: "Support:", comment: "Support chat, for screen readers: our message follows" })}{" "}
                </span>
                <p
                  // What the visitor typed reads in its own direction (English in an Arabic chat); our messages follow the page.
                  dir={message.isUser ? "auto" : undefined}
                  className={`max-w-[85%] whitespace-pre-wrap break-words rounded-lg px-3 py-2 text-sm ${message.isUser ? "bg-accent-strong text-foreground" : "bg-raised text-foreground"}`}
                >
                  {shownText(i18n, state, message)}
                </p>
                <time dateTime={message.timestamp} className="mt-1 text-soft text-xs">
                  {formatMessageTime(message.timestamp, tag)}
                </time>
              </li>
            ))
          )}
          {phase === "choosing" && !chat.conversation ? (
            <li>
              {/* Non-modal: the modal variant injects an inline <style> for scroll locking, which our CSP blocks. */}
              <DropdownMenu.Root modal={false} dir={dir}>
                <DropdownMenu.Trigger
                  ref={refs.categoryTriggerRef}
                  className="inline-flex items-center gap-2 rounded-md border border-border-strong bg-raised px-3 py-2 text-sm hover:border-accent-hover"
                >
                  <Trans>Select a category</Trans>
                  <ChevronDownOutlineIcon className="size-4" />
                </DropdownMenu.Trigger>
                <DropdownMenu.Portal>
                  <DropdownMenu.Content
                    align="start"
                    sideOffset={4}
                    // Escape closes only the menu, not the whole chat panel.
                    onEscapeKeyDown={(event) => event.stopPropagation()}
                    className="z-[60] min-w-48 rounded-md border border-border-strong bg-raised p-1 shadow-lg"
                  >
                    {SUPPORT_CATEGORIES.map((category) => (
                      <DropdownMenu.Item
                        key={category}
                        onSelect={() => chat.chooseCategory(category)}
                        className="cursor-pointer rounded px-3 py-2 text-foreground text-sm outline-none data-[highlighted]:bg-accent-strong"
                      >
                        {i18n._(CATEGORY_NAMES[category])}
                      </DropdownMenu.Item>
                    ))}
                  </DropdownMenu.Content>
                </DropdownMenu.Portal>
              </DropdownMenu.Root>
            </li>
          ) : null}
        </ul>
        {chat.conversation ? <ConversationNotes view={chat.conversation} link={chat.conversationLink} /> : null}
      </div>

      <div aria-live="polite" className="sr-only">
        {chat.conversation
          ? lastAnnouncement(i18n, chat.conversation)
          : chat.lastBotMessage
            ? shownText(i18n, state, chat.lastBotMessage)
            : null}
      </div>

      {phase === "complete" || chat.conversation ? (
        <div className="flex gap-2 border-border-strong border-t px-4 py-2">
          {state.submission === "failed" && !chat.conversation ? (
            <button
              ref={refs.finishRef}
              type="button"
              onClick={chat.retrySending}
              className="rounded-md bg-accent px-3 py-1.5 font-semibold text-on-accent text-sm hover:bg-accent-hover"
            >
              <Trans>Retry sending</Trans>
            </button>
          ) : null}
          <button
            ref={state.submission === "failed" && !chat.conversation ? undefined : refs.finishRef}
            type="button"
            onClick={chat.startOver}
            className="rounded-md border border-border-strong px-3 py-1.5 text-foreground text-sm hover:border-accent-hover"
          >
            <Trans>New request</Trans>
          </button>
        </div>
      ) : null}

      <form
        className="mt-auto border-border-strong border-t p-3"
        onSubmit={(event) => {
          event.preventDefault();
          chat.send();
        }}
      >
        <div className="flex items-end gap-2">
          <textarea
            ref={refs.inputRef}
            value={draft}
            onChange={(event) => chat.setDraft(event.target.value)}
            onKeyDown={chat.onInputKeyDown}
            dir="auto"
            // Once the team has replied the box is for messages; until then it stays the questionnaire's answer box.
            placeholder={chat.conversation && chat.typing ? t`Type your message...` : shownPlaceholder(i18n, state)}
            aria-label={chat.conversation && chat.typing ? t`Your message` : t`Your answer`}
            aria-describedby={chat.showCounter ? counterId : undefined}
            disabled={!chat.typing}
            maxLength={MAX_ANSWER_LENGTH}
            rows={2}
            className="min-h-10 flex-1 resize-none rounded-md border border-border-strong bg-background px-3 py-2 text-foreground text-sm placeholder:text-muted disabled:cursor-not-allowed disabled:opacity-60"
          />
          <button
            type="submit"
            disabled={!chat.canSend}
            aria-label={t`Send message`}
            className="flex size-10 items-center justify-center rounded-md bg-accent text-on-accent hover:bg-accent-hover disabled:cursor-not-allowed disabled:bg-border-strong disabled:text-soft"
          >
            <SendIcon className="size-5 rtl:-scale-x-100" />
          </button>
        </div>
        {chat.showCounter ? (
          <p id={counterId} className="mt-1 text-end text-soft text-xs">
            <Plural value={max} one={`${typed}/# character`} other={`${typed}/# characters`} />
          </p>
        ) : null}
        {state.submission === "sending" ? (
          <p role="status" className="mt-1 text-soft text-xs">
            <Trans>Sending your request…</Trans>
          </p>
        ) : null}
      </form>
    </section>
  );
}
