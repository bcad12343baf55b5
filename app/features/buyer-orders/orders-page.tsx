import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useRef, useState } from "react";
import { Form, Link, useLocation } from "react-router";
import { buttonStyles } from "~/components/ui/button-styles";
import { PageHeader } from "~/components/ui/page-header";
import { useLocale } from "~/features/i18n/use-locale";
import type { BuyerConversation } from "~/features/support-conversation/support-conversation";
import type { BuyerOrder, OrderRelease, BuyerOrderStatus, DeliveredItem } from "./buyer-orders";
import type { SignInNotice } from "./sign-in";

export type OrdersView =
  | { state: "signed-out"; notice: SignInNotice | null }
  | { state: "code-sent"; mail: "on-its-way" | "not-sent"; notice: SignInNotice | null }
  | {
      state: "signed-in";
      email: string;
      orders: BuyerOrder[];
      unavailable: boolean;
      conversations: BuyerConversation[];
      notice: SignInNotice | null;
    };

const fieldClass =
  "w-full rounded-lg border border-border-strong bg-surface px-3 py-2.5 text-foreground outline-focus placeholder:text-muted";

function NoticeText({ notice }: { notice: SignInNotice }) {
  switch (notice.kind) {
    case "code-sent":
      return <Trans>If there are orders for this address, a code is on its way. It works for 10 minutes.</Trans>;
    case "bad-email":
      return <Trans>Enter an email address, like name@example.com.</Trans>;
    case "bad-code":
      return <Trans>Enter the 6-digit code from the email.</Trans>;
    case "bad-request":
      return <Trans>That request could not be read. Please try again.</Trans>;
    case "wrong-code":
      return (
        <Plural
          value={notice.triesLeft}
          one="That code is not right. # try left."
          other="That code is not right. # tries left."
        />
      );
    case "code-expired":
      return <Trans>That code has expired. Send a new one.</Trans>;
    case "link-expired":
      return <Trans>That sign-in link has expired or was used already. Send a new code.</Trans>;
    case "too-many":
      return <Trans>Too many codes were asked for. Please wait a few minutes and try again.</Trans>;
    case "forbidden-origin":
      return <Trans>This form must be sent from this site. Reload the page and try again.</Trans>;
    case "signed-out":
      return <Trans>You are signed out.</Trans>;
  }
}

const PROBLEMS = new Set<SignInNotice["kind"]>([
  "bad-email",
  "bad-code",
  "bad-request",
  "wrong-code",
  "code-expired",
  "link-expired",
  "too-many",
  "forbidden-origin",
]);

function Notice({ notice }: { notice: SignInNotice | null }) {
  // Always in the page, so screen readers announce what appears in it.
  const problem = notice !== null && PROBLEMS.has(notice.kind);
  return (
    <div role={problem ? "alert" : "status"} className={problem ? "text-danger-soft" : "text-success-soft"}>
      {notice ? (
        <p className="mb-4">
          <NoticeText notice={notice} />
        </p>
      ) : null}
    </div>
  );
}

function EmailForm() {
  const { t } = useLingui();
  return (
    <Form method="post" className="flex flex-col gap-3">
      <input type="hidden" name="intent" value="send-code" />
      <label htmlFor="orders-email" className="font-semibold text-foreground">
        <Trans>Email address</Trans>
      </label>
      <p id="orders-email-hint" className="text-sm text-soft">
        <Trans>The address you bought with. We send a code to it; no account, no password.</Trans>
      </p>
      <input
        id="orders-email"
        name="email"
        type="email"
        autoComplete="email"
        required
        maxLength={254}
        dir="auto"
        aria-describedby="orders-email-hint"
        placeholder={t`name@example.com`}
        className={fieldClass}
      />
      <button type="submit" className={buttonStyles.primary}>
        <Trans>Send code</Trans>
      </button>
    </Form>
  );
}

/** The file a "Sign in to download" link came for (`?next=`): the code's form goes on to it (the server checks it). */
function NextField() {
  const next = new URLSearchParams(useLocation().search).get("next");
  return next ? <input type="hidden" name="next" value={next} /> : null;
}

function CodeForm({ mail, focus }: { mail: "on-its-way" | "not-sent"; focus: boolean }) {
  const field = useRef<HTMLInputElement>(null);
  // The form that sent the code is gone: keyboard and screen reader users land on the field that needs them next.
  useEffect(() => {
    if (focus) field.current?.focus();
  }, [focus]);
  return (
    <div className="flex flex-col gap-6">
      {mail === "not-sent" ? (
        <div className="flex flex-col gap-3 rounded-lg border border-warning/40 bg-warning/10 p-4">
          <p role="alert" className="text-warning-soft">
            <Trans>The email with your code could not be sent in time, so do not wait for it. Send a new code.</Trans>
          </p>
          <Form method="post">
            <input type="hidden" name="intent" value="resend" />
            <button type="submit" className={buttonStyles.primary}>
              <Trans>Send a new code</Trans>
            </button>
          </Form>
        </div>
      ) : null}
      <Form method="post" className="flex flex-col gap-3">
        <input type="hidden" name="intent" value="check-code" />
        <NextField />
        <label htmlFor="orders-code" className="font-semibold text-foreground">
          <Trans>Code from the email</Trans>
        </label>
        <input
          ref={field}
          id="orders-code"
          name="code"
          type="text"
          autoComplete="one-time-code"
          inputMode="numeric"
          pattern="[0-9]{6}"
          maxLength={6}
          required
          className={`${fieldClass} font-mono tracking-widest`}
        />
        <button type="submit" className={buttonStyles.primary}>
          <Trans>Sign in</Trans>
        </button>
      </Form>
      <Form method="post">
        <input type="hidden" name="intent" value="start-over" />
        <button type="submit" className={buttonStyles.secondary}>
          <Trans>Use another address or send again</Trans>
        </button>
      </Form>
    </div>
  );
}

const STATUS_WORDS: Record<Exclude<BuyerOrderStatus["kind"], "unknown">, MessageDescriptor> = {
  paid: msg({ message: "Paid", comment: "An order's status" }),
  waiting: msg({ message: "Waiting for confirmations", comment: "An order's status: a crypto payment" }),
  "partly-delivered": msg({ message: "Partly delivered", comment: "An order's status" }),
  refunded: msg({ message: "Refunded", comment: "An order's status" }),
  cancelled: msg({ message: "Cancelled", comment: "An order's status" }),
  expired: msg({ message: "Expired", comment: "An order's status" }),
  pending: msg({ message: "Waiting for payment", comment: "An order's status" }),
};

function StatusText({ status }: { status: BuyerOrderStatus }) {
  const { i18n } = useLingui();
  if (status.kind === "unknown") return <span lang="en">{status.shopSpelling}</span>;
  return <>{i18n._(STATUS_WORDS[status.kind])}</>;
}

function CopyButton({ value, label }: { value: string; label: string }) {
  const [hydrated, setHydrated] = useState(false);
  const [copied, setCopied] = useState(false);
  useEffect(() => setHydrated(true), []);
  // Drawn from the start but unseen until it can copy, so its arrival moves nothing on the page (CLS 0).
  return (
    <button
      type="button"
      aria-label={label}
      className={`${buttonStyles.secondary} ${hydrated ? "" : "invisible"}`}
      onClick={() => {
        void navigator.clipboard?.writeText(value).then(() => setCopied(true));
      }}
    >
      {copied ? <Trans>Copied</Trans> : <Trans>Copy</Trans>}
    </button>
  );
}

function DeliveredList({ items }: { items: DeliveredItem[] }) {
  const { t } = useLingui();
  return (
    <ul className="mt-3 flex flex-col gap-2">
      {items.map((item, index) => (
        <li key={`${item.kind}-${index}`} className="flex flex-wrap items-center gap-3">
          {item.kind === "link" ? (
            <a href={item.value} className="break-all text-link underline" rel="noreferrer">
              {item.label ?? t`Download`}
            </a>
          ) : (
            <code className="break-all rounded bg-raised px-2 py-1 font-mono text-foreground">{item.value}</code>
          )}
          <CopyButton value={item.value} label={item.kind === "key" ? t`Copy key` : t`Copy`} />
        </li>
      ))}
    </ul>
  );
}

/** The shop did not answer with what this order delivered: say so, and offer a real retry (a form: no JS needed). */
function DeliveredUnreadable({ orderId }: { orderId: string }) {
  const { pathname } = useLocation();
  const noticeId = `order-${orderId}-key-unreadable`;
  return (
    <div className="mt-3 flex flex-wrap items-center gap-3 rounded-lg border border-warning/40 bg-warning/10 px-4 py-3">
      <p id={noticeId} className="text-warning-soft">
        <Trans comment="Orders page: the shop did not answer with the key a paid order delivered">
          The key for this order could not be loaded.
        </Trans>
      </p>
      <Form method="post">
        <input type="hidden" name="intent" value="retry-delivered" />
        <input type="hidden" name="back" value={pathname} />
        <button type="submit" aria-describedby={noticeId} className={buttonStyles.secondary}>
          <Trans comment="Orders page: read an order's key from the shop again">Try again</Trans>
        </button>
      </Form>
    </div>
  );
}

/** The release(s) an order downloads, each file with its checksum and a button that says what it does. */
function OrderReleases({ releases }: { releases: OrderRelease[] }) {
  return (
    <ul className="mt-3 space-y-3 text-sm">
      {releases.map((release) => {
        const { productName, version } = release;
        return (
          <li key={release.id} className="space-y-2">
            <p className="font-semibold text-foreground">
              <Trans comment="An order's release: product and version">
                {productName} {version}
              </Trans>
            </p>
            {release.files.map((file) => (
              <div key={file.name} className="min-w-0 space-y-1">
                <p className="break-all text-soft">
                  {file.name} · SHA-256{" "}
                  <code lang="zxx" className="break-all font-mono text-xs">
                    {file.sha256}
                  </code>
                </p>
                <a href={file.action.href} className={buttonStyles.primary}>
                  {file.action.kind === "download" ? (
                    <Trans comment="Button on a release">Download</Trans>
                  ) : (
                    <Trans comment="Button on a release that came out after the buyer's licence ended">
                      Renew to get {version}
                    </Trans>
                  )}
                </a>
              </div>
            ))}
          </li>
        );
      })}
    </ul>
  );
}

function OrderCard({ order }: { order: BuyerOrder }) {
  const { i18n } = useLingui();
  const { path } = useLocale();
  const amount = i18n.number(Number(order.amount), { style: "currency", currency: order.currency });
  const date = i18n.date(new Date(order.createdAt), { dateStyle: "medium", timeZone: "UTC" });
  const id = order.id;
  return (
    <li className="rounded-2xl border border-border bg-surface p-5">
      <h2 className="font-semibold text-foreground">
        <Link to={path(`/orders/${encodeURIComponent(id)}`)} className="break-all text-link underline">
          <Trans>Order {id}</Trans>
        </Link>
      </h2>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-soft">
          <Trans>Date</Trans>
        </dt>
        <dd className="text-foreground">
          <time dateTime={order.createdAt}>{date}</time>
        </dd>
        <dt className="text-soft">
          <Trans>Product</Trans>
        </dt>
        <dd className="text-foreground">
          {order.items.map((item) => {
            const { productName, durationLabel, quantity } = item;
            return (
              <span key={`${productName}-${durationLabel}`} className="block">
                {durationLabel ? `${productName} · ${durationLabel}` : productName}{" "}
                <span className="text-soft">
                  <Trans>× {quantity}</Trans>
                </span>
              </span>
            );
          })}
        </dd>
        <dt className="text-soft">
          <Trans>Amount</Trans>
        </dt>
        <dd className="text-foreground">{amount}</dd>
        <dt className="text-soft">
          <Trans comment="Label of an order's status">Status</Trans>
        </dt>
        <dd className="font-semibold text-foreground">
          <StatusText status={order.status} />
        </dd>
      </dl>
      {order.status.kind !== "refunded" && order.delivered.length > 0 ? (
        <DeliveredList items={order.delivered} />
      ) : null}
      {order.status.kind === "paid" && order.deliveredUnreadable ? <DeliveredUnreadable orderId={id} /> : null}
      {order.status.kind === "paid" && order.releases ? <OrderReleases releases={order.releases} /> : null}
      {order.invoiceUrl ? (
        <a href={order.invoiceUrl} className="mt-3 inline-block text-link underline" rel="noreferrer">
          <Trans>Invoice at the shop</Trans>
        </a>
      ) : null}
    </li>
  );
}

function ConversationCard({ conversation }: { conversation: BuyerConversation }) {
  const { i18n } = useLingui();
  const { categoryName: name, status } = conversation;
  const dateTime = (iso: string) =>
    i18n.date(new Date(iso), { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
  return (
    <li className="rounded-2xl border border-border bg-surface p-5">
      <h3 className="font-semibold text-foreground">{name}</h3>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-soft">
          <Trans comment="When a support conversation was started">Started</Trans>
        </dt>
        <dd className="text-foreground">
          <time dateTime={conversation.createdAt}>{dateTime(conversation.createdAt)}</time>
        </dd>
        <dt className="text-soft">
          <Trans comment="When the newest message of a support conversation was written">Last message</Trans>
        </dt>
        <dd className="text-foreground">
          <time dateTime={conversation.lastMessageAt}>{dateTime(conversation.lastMessageAt)}</time>
        </dd>
        <dt className="text-soft">
          <Trans comment="Label of a support conversation's status">Status</Trans>
        </dt>
        <dd className="font-semibold text-foreground">
          {status === "open" ? (
            <Trans comment="A support conversation's status">Open</Trans>
          ) : (
            <Trans comment="A support conversation's status">Resolved</Trans>
          )}
        </dd>
      </dl>
      {/* A full page load: the conversation page is read with its new cookie, with or without JavaScript. */}
      <Form method="post" reloadDocument className="mt-3">
        <input type="hidden" name="intent" value="open-conversation" />
        <input type="hidden" name="conversation" value={conversation.id} />
        <button type="submit" className={buttonStyles.secondary}>
          <Trans>Open conversation: {name}</Trans>
        </button>
      </Form>
    </li>
  );
}

function ConversationList({ conversations }: { conversations: BuyerConversation[] }) {
  if (conversations.length === 0) return null;
  return (
    <section aria-labelledby="orders-conversations" className="flex flex-col gap-4">
      <h2 id="orders-conversations" className="text-lg font-semibold text-foreground">
        <Trans>Your support conversations</Trans>
      </h2>
      <ul className="flex flex-col gap-4">
        {conversations.map((conversation) => (
          <ConversationCard key={conversation.id} conversation={conversation} />
        ))}
      </ul>
    </section>
  );
}

function SignedIn({
  email,
  orders,
  unavailable,
  conversations,
}: {
  email: string;
  orders: BuyerOrder[];
  unavailable: boolean;
  conversations: BuyerConversation[];
}) {
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-soft">
          <Trans>
            Signed in as <span className="break-all font-semibold text-foreground">{email}</span>
          </Trans>
        </p>
        <Form method="post">
          <input type="hidden" name="intent" value="sign-out" />
          <button type="submit" className={buttonStyles.secondary}>
            <Trans>Sign out</Trans>
          </button>
        </Form>
      </div>
      {unavailable ? (
        <p role="alert" className="rounded-lg border border-warning/40 bg-warning/10 px-4 py-3 text-warning-soft">
          <Trans comment="Orders page: the shop's order records cannot be read at the moment">
            Your orders cannot be read from the shop right now. Please try again in a few minutes.
          </Trans>
        </p>
      ) : orders.length === 0 ? (
        <p className="text-soft">
          <Trans>There are no orders for this address.</Trans>
        </p>
      ) : (
        <ul className="flex flex-col gap-4">
          {orders.map((order) => (
            <OrderCard key={order.id} order={order} />
          ))}
        </ul>
      )}
      <ConversationList conversations={conversations} />
    </div>
  );
}

const CODE_NOTICES = new Set<SignInNotice["kind"]>(["code-sent", "wrong-code", "bad-code"]);

/** The /orders page: the address form, the code form, or the proven address's orders. */
export function OrdersPage({ view, notice }: { view: OrdersView; notice: SignInNotice | null }) {
  const { t } = useLingui();
  const shown = notice ?? view.notice;
  const signedIn = view.state === "signed-in" && notice?.kind !== "signed-out";
  const codeForm = !signedIn && (shown ? CODE_NOTICES.has(shown.kind) : view.state === "code-sent");
  return (
    <div className="mx-auto max-w-2xl px-4 py-10">
      <PageHeader title={t`Your orders`} />
      <Notice notice={shown} />
      {signedIn && view.state === "signed-in" ? (
        <SignedIn
          email={view.email}
          orders={view.orders}
          unavailable={view.unavailable}
          conversations={view.conversations}
        />
      ) : codeForm ? (
        <CodeForm
          mail={view.state === "code-sent" && notice?.kind !== "code-sent" ? view.mail : "on-its-way"}
          focus={notice?.kind === "code-sent"}
        />
      ) : (
        <EmailForm />
      )}
    </div>
  );
}
