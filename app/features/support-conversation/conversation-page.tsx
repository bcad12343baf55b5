import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useId, useRef } from "react";
import { Form, Link, useNavigation } from "react-router";
import { buttonStyles } from "~/components/ui/button-styles";
import { PageHeader } from "~/components/ui/page-header";
import { useLocale } from "~/features/i18n/use-locale";
import { LocalTime } from "~/features/status/local-time";
import { openSupportChat } from "~/features/support-chat/open-support-chat";
import { ConversationMessageItems, lastAnnouncement } from "./conversation-messages";
import { type ConversationView, MAX_MESSAGE_LENGTH } from "./support-conversation";
import { useConversationFeed } from "./use-conversation-feed";

/** What the answer form's last post ran into. */
export type ConversationPageNotice =
  | "forbidden-origin"
  | "bad-request"
  | "bad-message"
  | "no-conversation"
  | "resolved"
  | "too-many";

function NoticeText({ notice }: { notice: ConversationPageNotice }) {
  switch (notice) {
    case "forbidden-origin":
      return <Trans>This form must be sent from this site. Reload the page and try again.</Trans>;
    case "bad-request":
      return <Trans>That request could not be read. Please try again.</Trans>;
    case "bad-message":
      return <Trans>Write a message of at most {MAX_MESSAGE_LENGTH} characters.</Trans>;
    case "no-conversation":
      return <Trans>This browser has no support conversation any more. Open the support chat to start one.</Trans>;
    case "resolved":
      return <Trans>This conversation is resolved, so it takes no more messages. Start a new request instead.</Trans>;
    case "too-many":
      return <Trans>Too many messages. Please wait a minute and try again.</Trans>;
  }
}

/** The support chat opens from the page with JavaScript; without it, the chat button is named instead. */
function NewRequestHint() {
  return (
    <p className="text-soft">
      <Trans>
        To start a new request, open the support chat with the chat button at the bottom of the page.{" "}
        <button type="button" onClick={openSupportChat} className="text-link underline">
          Open the support chat
        </button>
      </Trans>
    </p>
  );
}

function NoConversation() {
  const { t } = useLingui();
  const { path } = useLocale();
  return (
    <div className="mx-auto max-w-2xl px-4 py-10">
      <PageHeader title={t`No conversation here`} />
      <div className="flex flex-col gap-4">
        <p className="text-foreground">
          <Trans>
            This browser has no support conversation, or the link to it is not valid. Open the support chat to start
            one: it stays here, in this browser, and we answer in it.
          </Trans>
        </p>
        <NewRequestHint />
        <p>
          <Link to={path("/faq")} className="text-link underline">
            <Trans>Read the frequently asked questions</Trans>
          </Link>
        </p>
      </div>
    </div>
  );
}

function AnswerForm({ notice, draft }: { notice: ConversationPageNotice | null; draft: string | null }) {
  const { t } = useLingui();
  const fieldId = useId();
  const navigation = useNavigation();
  const sending = navigation.state === "submitting";
  const formRef = useRef<HTMLFormElement>(null);
  const wasBusy = useRef(false);
  // A message taken redirects (no notice): the box empties. A refused one keeps what was typed.
  useEffect(() => {
    if (navigation.state !== "idle") {
      wasBusy.current = true;
      return;
    }
    if (wasBusy.current && notice === null) formRef.current?.reset();
    wasBusy.current = false;
  }, [navigation.state, notice]);
  return (
    <Form ref={formRef} method="post" className="flex flex-col gap-3">
      <label htmlFor={fieldId} className="font-semibold text-foreground">
        <Trans>Your message</Trans>
      </label>
      <textarea
        id={fieldId}
        name="text"
        defaultValue={draft ?? undefined}
        required
        rows={4}
        dir="auto"
        maxLength={MAX_MESSAGE_LENGTH}
        placeholder={t`Type your message...`}
        className="w-full rounded-lg border border-border-strong bg-surface px-3 py-2.5 text-foreground outline-focus placeholder:text-muted"
      />
      <div role={notice ? "alert" : "status"} className="text-danger-soft">
        {notice ? (
          <p>
            <NoticeText notice={notice} />
          </p>
        ) : null}
      </div>
      <button type="submit" disabled={sending} className={`${buttonStyles.primary} self-start`}>
        <Trans>Send</Trans>
      </button>
    </Form>
  );
}

/** /support/conversation: the whole conversation, live with JavaScript, and a plain form to answer without it. */
export function ConversationPage({
  view: loadedView,
  proveAddress = false,
  notice,
  draft,
}: {
  view: ConversationView | null;
  /** The address the visitor gave is not proven yet: say how to prove it. */
  proveAddress?: boolean;
  notice: ConversationPageNotice | null;
  /** What the visitor wrote when the form refused it. */
  draft: string | null;
}) {
  const { t, i18n } = useLingui();
  const { path } = useLocale();
  const { view } = useConversationFeed(loadedView, true);
  if (!view) return <NoConversation />;
  const teamReplied = view.messages.some((m) => m.author === "team");
  return (
    <div className="mx-auto max-w-2xl px-4 py-10">
      <PageHeader
        title={t`Your support conversation`}
        description={t`Only this browser, and whoever has its private link, can read it.`}
      />
      {proveAddress ? (
        <p className="mb-6 text-soft">
          <Trans>
            Bought with the address you gave? Our team sees your orders beside this conversation once you{" "}
            <Link to={path("/orders")} className="text-link underline">
              sign in to your orders
            </Link>{" "}
            with it in this browser.
          </Trans>
        </p>
      ) : null}
      <ul aria-label={t`Conversation`} className="mb-8 flex flex-col gap-4">
        <ConversationMessageItems view={view} time={(message) => <LocalTime iso={message.createdAt} />} />
      </ul>
      <div aria-live="polite" className="sr-only">
        {lastAnnouncement(i18n, view)}
      </div>
      {view.status === "resolved" ? (
        <div className="flex flex-col gap-3 rounded-lg border border-border-strong bg-raised p-4">
          <p role="status" className="font-semibold text-foreground">
            <Trans>This conversation is resolved.</Trans>
          </p>
          <NewRequestHint />
        </div>
      ) : teamReplied ? (
        <AnswerForm notice={notice} draft={draft} />
      ) : (
        <div className="flex flex-col gap-3">
          <p className="text-soft">
            {view.repliesLive ? (
              <Trans>Our team will answer here. You can reply once they have.</Trans>
            ) : (
              <Trans>Our team has your request and will get back to you.</Trans>
            )}
          </p>
          {notice ? (
            <p role="alert" className="text-danger-soft">
              <NoticeText notice={notice} />
            </p>
          ) : null}
        </div>
      )}
    </div>
  );
}
