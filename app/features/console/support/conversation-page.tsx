import { Trans, useLingui } from "@lingui/react/macro";
import { useRef, useState } from "react";
import { Form, Link, useNavigate, useNavigation } from "react-router";
import { buttonStyles } from "~/components/ui/button-styles";
import { useLocale } from "~/features/i18n/use-locale";
import { MessageText } from "~/features/support-conversation/message-text";
import { MAX_MESSAGE_LENGTH } from "~/features/support-conversation/support-conversation";
import { ConsoleNotice } from "../shell/console-notice";
import { consoleField } from "../shell/console-field";
import { useConsoleTime } from "../shell/console-clock";
import { useInboxLive } from "./inbox-live";
import type { SavedReplyChoice } from "../saved-replies/saved-replies";
import { MessageBox } from "./message-box";
import { ShortcutsHelp, useInboxShortcuts } from "./inbox-shortcuts";
import type { ConversationActionData, DoneNotice } from "./conversation-page.server";
import { categoryLine, languageName, listQuery, MESSAGE_BOX_ID, useCategoryName, useWaitedFor } from "./inbox-labels";
import type { ConsoleConversation, InboxScope, InboxState, TimelineEntry } from "./support.server";

export interface ConversationPageProps {
  conversation: ConsoleConversation;
  around: { previous: string | null; next: string | null };
  list: { state: InboxState; scope: InboxScope; query: string };
  viewerId: string;
  savedReplies: SavedReplyChoice[];
  manageSavedReplies: boolean;
  done: DoneNotice | null;
  now: string;
  action: ConversationActionData | undefined;
}

function DoneText({ done }: { done: DoneNotice }) {
  switch (done) {
    case "replied":
      return <Trans>Reply sent.</Trans>;
    case "noted":
      return <Trans>Note added. The visitor does not see it.</Trans>;
    case "assigned":
      return <Trans>Assigned to you.</Trans>;
    case "unassigned":
      return <Trans>No longer assigned.</Trans>;
    case "resolved":
      return <Trans>Resolved.</Trans>;
    default:
      return <Trans>Reopened.</Trans>;
  }
}

function ProblemText({ problem }: { problem: ConversationActionData["problem"] }) {
  switch (problem) {
    case "empty":
      return <Trans>Write a message first.</Trans>;
    case "too-long":
      return <Trans>A message is at most {MAX_MESSAGE_LENGTH} characters.</Trans>;
    case "broken":
      return <Trans>The message contains broken characters. Please type it again.</Trans>;
    case "resolved":
      return <Trans>This conversation is resolved. Reopen it to reply; notes can still be added.</Trans>;
    default:
      return <Trans>That did not work. Please try again.</Trans>;
  }
}

function Author({ entry }: { entry: TimelineEntry }) {
  if (entry.kind === "note") {
    const name = entry.authorName;
    return entry.source === "discord" ? (
      <Trans>Internal note by {name} in Discord</Trans>
    ) : (
      <Trans>Internal note by {name} in the console</Trans>
    );
  }
  if (entry.author === "visitor") return <Trans>Visitor</Trans>;
  if (entry.author === "system") return <Trans>Shop</Trans>;
  const name = entry.authorName ?? "";
  switch (entry.source) {
    case "console":
      return <Trans>{name} in the console</Trans>;
    case "discord":
      return <Trans>{name} in Discord</Trans>;
    default:
      return <Trans>{name} from the command line</Trans>;
  }
}

export function SupportConversationPage({
  conversation,
  around,
  list,
  viewerId,
  savedReplies,
  manageSavedReplies,
  done,
  now,
  action,
}: ConversationPageProps) {
  const { t } = useLingui();
  const { path, tag } = useLocale();
  const money = new Intl.NumberFormat(tag, { style: "currency", currency: "USD" });
  const time = useConsoleTime();
  const waitedFor = useWaitedFor();
  const categoryName = useCategoryName();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const box = useRef<HTMLTextAreaElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const resolveForm = useRef<HTMLFormElement>(null);
  const [mode, setMode] = useState<"reply" | "note">("reply");
  useInboxLive(conversation.id);

  const query = listQuery(list);
  const open = (id: string | null) => {
    if (id) navigate(`${path(`/admin/support/${id}`)}?${query}`);
  };
  const write = (as: "reply" | "note") => {
    setMode(as);
    box.current?.focus();
  };
  const { helpOpen, setHelpOpen } = useInboxShortcuts({
    j: () => open(around.next),
    k: () => open(around.previous),
    r: () => write("reply"),
    n: () => write("note"),
    e: () => {
      const resolve = resolveForm.current?.querySelector<HTMLButtonElement>('button[value="resolve"]');
      // The button is the submitter, so its intent goes with the form.
      if (resolve) resolveForm.current?.requestSubmit(resolve);
    },
  });
  const sending = navigation.state === "submitting" && navigation.formAction?.includes(conversation.id);
  const product = conversation.answers[0]?.answer ?? "";
  const assignedToMe = conversation.assignee?.id === viewerId;

  // Below the console's breakpoint the title and its line come first, before the way back and the neighbours, so a
  // phone shows it at the top of the first screen; the focus order (the links, then the buttons) is the same.
  return (
    <div className="max-console:flex max-console:flex-col">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3 max-console:mt-3 max-console:mb-0">
        <Link to={`${path("/admin/support")}?${query}`} className="underline">
          <Trans>Back to the inbox</Trans>
        </Link>
        <div className="flex flex-wrap items-center gap-2">
          {around.previous ? (
            <Link
              to={`${path(`/admin/support/${around.previous}`)}?${query}`}
              className="rounded-lg px-3 py-2 text-sm underline"
            >
              <Trans>Previous conversation</Trans>
            </Link>
          ) : null}
          {around.next ? (
            <Link
              to={`${path(`/admin/support/${around.next}`)}?${query}`}
              className="rounded-lg px-3 py-2 text-sm underline"
            >
              <Trans>Next conversation</Trans>
            </Link>
          ) : null}
          <ShortcutsHelp open={helpOpen} onOpenChange={setHelpOpen} />
        </div>
      </div>

      <h1 className="break-words font-bold text-2xl text-foreground max-console:-order-1">
        {categoryLine(categoryName(conversation.category), product)}
      </h1>
      <p className="mt-1 text-soft max-console:-order-1">
        {conversation.status === "resolved" ? (
          <Trans>Resolved {time(conversation.resolvedAt)}</Trans>
        ) : conversation.waitingOn === "us" ? (
          <Trans>Waiting for us for {waitedFor(conversation.since, now)}</Trans>
        ) : (
          <Trans>Waiting for the visitor for {waitedFor(conversation.since, now)}</Trans>
        )}
        {" · "}
        {languageName(conversation.locale)}
        {" · "}
        {conversation.assignee ? (
          assignedToMe ? (
            <Trans>Assigned to you</Trans>
          ) : (
            <Trans>Assigned to {conversation.assignee.email}</Trans>
          )
        ) : (
          <Trans>Unassigned</Trans>
        )}
      </p>

      <div className="mt-4 flex flex-wrap gap-2">
        {/* Below the console's breakpoint the box is under the whole history: this jumps there (a plain link without
            JavaScript). */}
        <a
          href={`#${MESSAGE_BOX_ID}`}
          onClick={(event) => {
            event.preventDefault();
            box.current?.scrollIntoView({ block: "center" });
            setMode("reply");
            box.current?.focus({ preventScroll: true });
          }}
          className={`${buttonStyles.primary} console:hidden`}
        >
          <Trans comment="Jumps to the conversation's message box on a narrow screen">Reply</Trans>
        </a>
        <Form method="post">
          <button
            type="submit"
            name="intent"
            value={assignedToMe ? "unassign" : "assign-to-me"}
            className={buttonStyles.secondary}
          >
            {assignedToMe ? <Trans>Unassign</Trans> : <Trans>Assign to me</Trans>}
          </button>
        </Form>
        {conversation.assignee && !assignedToMe ? (
          <Form method="post">
            <button type="submit" name="intent" value="unassign" className={buttonStyles.secondary}>
              <Trans>Unassign</Trans>
            </button>
          </Form>
        ) : null}
        <Form method="post" ref={resolveForm}>
          <button
            type="submit"
            name="intent"
            value={conversation.status === "open" ? "resolve" : "reopen"}
            className={buttonStyles.secondary}
          >
            {conversation.status === "open" ? <Trans>Resolve</Trans> : <Trans>Reopen</Trans>}
          </button>
        </Form>
      </div>

      <div className="mt-4">
        {done && !action ? (
          <ConsoleNotice failed={false}>
            <DoneText done={done} />
          </ConsoleNotice>
        ) : null}
        {action ? (
          <ConsoleNotice failed>
            <ProblemText problem={action.problem} />
          </ConsoleNotice>
        ) : null}
        {conversation.unsentToThread.length > 0 ? (
          <p className="mb-4 rounded-lg border border-border-strong bg-surface p-3 text-sm text-soft">
            {conversation.unsentToThread.some((p) => p.status === "failed") ? (
              <Trans>
                Something from the console could not be posted in the Discord thread. The visitor has it; see
                Deliveries.
              </Trans>
            ) : (
              <Trans>
                {conversation.unsentToThread.length} change(s) wait for the Discord thread. They are posted as soon as
                Discord answers.
              </Trans>
            )}
          </p>
        ) : null}
      </div>

      <div className="mt-2 grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0">
          <section aria-labelledby="conversation-messages">
            <h2 id="conversation-messages" className="mb-3 font-semibold text-foreground text-xl">
              <Trans>Conversation</Trans>
            </h2>
            {conversation.timeline.length === 0 ? (
              <p className="text-soft">
                <Trans>No message since the request yet.</Trans>
              </p>
            ) : (
              <ol className="space-y-3">
                {conversation.timeline.map((entry) => (
                  <li
                    key={entry.id}
                    className={`rounded-lg border p-3 ${
                      entry.kind === "note"
                        ? "border-warning/60 border-dashed bg-warning/10"
                        : entry.kind === "message" && entry.author === "visitor"
                          ? "border-border-strong bg-surface"
                          : "border-accent/40 bg-accent/5"
                    }`}
                  >
                    <p className="flex flex-wrap justify-between gap-x-3 text-soft text-xs">
                      <span className="font-semibold text-foreground">
                        <Author entry={entry} />
                      </span>
                      <time dateTime={entry.createdAt}>{time(entry.createdAt)}</time>
                    </p>
                    <div className="mt-1 whitespace-pre-wrap break-words text-foreground text-sm">
                      <MessageText body={entry.body} />
                    </div>
                  </li>
                ))}
              </ol>
            )}
          </section>

          <Form method="post" ref={form} className="mt-6" aria-label={t`Write to the conversation`}>
            <MessageBox
              ref={box}
              id={MESSAGE_BOX_ID}
              name="message"
              label={<Trans>Message</Trans>}
              hint={
                mode === "note" ? (
                  <Trans>Writing an internal note: only the team sees it. Ctrl+Enter adds it.</Trans>
                ) : (
                  <Trans>A reply reaches the visitor's chat and the Discord thread. Ctrl+Enter sends it.</Trans>
                )
              }
              rows={5}
              maxLength={MAX_MESSAGE_LENGTH}
              defaultValue={action?.draft ?? ""}
              key={done ?? "draft"}
              onKeyDown={(event) => {
                if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
                  event.preventDefault();
                  form.current?.requestSubmit(
                    form.current.querySelector<HTMLButtonElement>(`button[value="${mode}"]`) ?? undefined,
                  );
                }
              }}
              savedReplies={savedReplies}
              manageHref={manageSavedReplies ? path("/admin/support/saved-replies") : undefined}
              className={`${consoleField} mt-2`}
            />
            <div className="mt-3 flex flex-wrap gap-2">
              <button type="submit" name="intent" value="reply" disabled={sending} className={buttonStyles.primary}>
                <Trans>Send reply</Trans>
              </button>
              <button type="submit" name="intent" value="note" disabled={sending} className={buttonStyles.secondary}>
                <Trans>Add note</Trans>
              </button>
            </div>
          </Form>
        </div>

        <aside className="min-w-0 space-y-6">
          <section aria-labelledby="request-answers" className="rounded-lg border border-border-strong bg-surface p-4">
            <h2 id="request-answers" className="mb-2 font-semibold text-foreground">
              <Trans>The request</Trans>
            </h2>
            <p className="mb-3 text-soft text-xs">
              <Trans>Sent {time(conversation.createdAt)}</Trans>
            </p>
            <dl className="space-y-2 text-sm">
              {conversation.answers.map((item) => (
                <div key={item.question}>
                  <dt className="text-soft">{item.question}</dt>
                  <dd className="whitespace-pre-wrap break-words text-foreground">{item.answer}</dd>
                </div>
              ))}
            </dl>
          </section>

          <section aria-labelledby="buyer-orders" className="rounded-lg border border-border-strong bg-surface p-4">
            <h2 id="buyer-orders" className="mb-2 font-semibold text-foreground">
              <Trans>The buyer's orders</Trans>
            </h2>
            {conversation.visitorEmail === null ? (
              <p className="text-soft text-sm">
                <Trans>The visitor gave no email address, so no order can be matched.</Trans>
              </p>
            ) : !conversation.visitorEmailProven ? (
              <>
                <p className="font-semibold text-foreground text-sm">
                  <Trans>Address not verified</Trans>
                </p>
                <p className="text-soft text-sm">
                  <Trans>
                    The visitor was not signed in at /orders with this address when they wrote, so its orders and keys
                    are not shown: anyone can type any address.
                  </Trans>
                </p>
              </>
            ) : conversation.orders.length === 0 ? (
              <p className="text-soft text-sm">
                <Trans>No order was placed with {conversation.visitorEmail}.</Trans>
              </p>
            ) : (
              <ul className="space-y-3 text-sm">
                {conversation.orders.map((order) => (
                  <li key={order.id} className="border-border border-t pt-2 first:border-t-0 first:pt-0">
                    <p className="font-semibold text-foreground">
                      {order.productName}
                      {order.durationLabel ? ` · ${order.durationLabel}` : null}
                      {order.quantity > 1 ? ` × ${order.quantity}` : null}
                    </p>
                    <p className="text-soft">
                      {money.format(order.amountCents / 100)} · {order.status} · {time(order.createdAt)}
                    </p>
                    <p className="break-all font-mono text-xs">{order.id}</p>
                    {order.deliveredKey ? (
                      <p className="break-all">
                        <Trans>Key:</Trans> <span className="font-mono">{order.deliveredKey}</span>
                      </p>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
          </section>
        </aside>
      </div>
    </div>
  );
}
