import type { I18n } from "@lingui/core";
import { useLingui } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { shownConversationText } from "./conversation-text";
import { MessageText } from "./message-text";
import type { ConversationMessage, ConversationView } from "./support-conversation";

/**
 * The conversation's messages as list items (the panel and the page each wrap them in their own list): who wrote
 * it, the text, and its time as `time` renders it (the panel hh:mm, the page a date too).
 */
export function ConversationMessageItems({
  view,
  time,
}: {
  view: ConversationView;
  time: (message: ConversationMessage) => ReactNode;
}) {
  const { t, i18n } = useLingui();
  return view.messages.map((message) => {
    const mine = message.author === "visitor";
    const team = message.author === "team";
    const name = message.authorName ?? t`Support team`;
    return (
      <li key={message.seq} className={mine ? "flex flex-col items-end" : "flex flex-col items-start"}>
        {team ? (
          <span className="mb-1 font-semibold text-soft text-xs" dir="auto">
            {name}
            <span className="sr-only">: </span>
          </span>
        ) : (
          <span className="sr-only">
            {mine
              ? t({ message: "You:", comment: "Support chat, for screen readers: the visitor's own message follows" })
              : t({ message: "Support:", comment: "Support chat, for screen readers: our message follows" })}{" "}
          </span>
        )}
        <p
          // What people wrote reads in its own direction; our own lines follow the page.
          dir={message.author === "system" ? undefined : "auto"}
          className={`max-w-[85%] whitespace-pre-wrap break-words rounded-lg px-3 py-2 text-sm ${mine ? "bg-accent-strong text-foreground" : "bg-raised text-foreground"}`}
        >
          {message.author === "system" ? (
            shownConversationText(i18n, message, view.category)
          ) : (
            <MessageText body={shownConversationText(i18n, message, view.category)} />
          )}
        </p>
        <span className="mt-1 text-soft text-xs">{time(message)}</span>
      </li>
    );
  });
}

/** What the live region repeats: the newest message from us or the team, with the replier's name. */
export function lastAnnouncement(i18n: I18n, view: ConversationView): string | null {
  const last = view.messages.findLast((m) => m.author !== "visitor");
  if (!last) return null;
  const text = shownConversationText(i18n, last, view.category);
  return last.author === "team" && last.authorName ? `${last.authorName}: ${text}` : text;
}
