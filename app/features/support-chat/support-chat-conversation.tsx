import { Trans } from "@lingui/react/macro";
import type { ConversationView } from "~/features/support-conversation/support-conversation";
import { useLocale } from "~/features/i18n/use-locale";
import { ConversationMessageItems } from "~/features/support-conversation/conversation-messages";
import { formatMessageTime } from "./conversation";

export { lastAnnouncement } from "~/features/support-conversation/conversation-messages";

/** The conversation in the panel: every message with its hh:mm time, as the questionnaire shows its own. */
export function ConversationItems({ view }: { view: ConversationView }) {
  const { tag } = useLocale();
  return (
    <ConversationMessageItems
      view={view}
      time={(message) => <time dateTime={message.createdAt}>{formatMessageTime(message.createdAt, tag)}</time>}
    />
  );
}

/**
 * Below the messages: whether the team answers here (only while replies can reach the page), the private link that
 * opens the conversation on any browser, and that a resolved conversation is closed.
 */
export function ConversationNotes({ view, link }: { view: ConversationView; link: string | null }) {
  return (
    <div className="mt-3 space-y-2 text-soft text-xs">
      {view.status === "resolved" ? (
        <p role="status">
          <Trans>This conversation is resolved. Start a new request if you need more help.</Trans>
        </p>
      ) : view.repliesLive ? (
        <p>
          <Trans>Our team will answer here. You can reply once they have.</Trans>
        </p>
      ) : null}
      {link ? (
        <p>
          <Trans>Your private link to this conversation (keep it to yourself):</Trans>{" "}
          <a href={link} className="break-all text-link underline">
            {link}
          </a>
        </p>
      ) : null}
    </div>
  );
}
