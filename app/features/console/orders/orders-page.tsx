import { Trans, useLingui } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { buttonStyles } from "~/components/ui/button-styles";
import { useLocale } from "~/features/i18n/use-locale";
import { ConsoleHeading } from "../shell/console-heading";
import { consoleField } from "../shell/console-field";
import { useConsoleTime } from "../shell/console-clock";
import type { BuyerHistory, FoundOrder, OrderSearchResult } from "./orders.server";

export function OrdersPage({ query, page, result }: { query: string; page: number; result: OrderSearchResult | null }) {
  const { t } = useLingui();
  return (
    <div>
      <ConsoleHeading title={t`Orders`}>
        <Trans>
          Look up an order by the buyer's email, the order number, the shop's invoice id or the key delivered. Each
          look-up is written in the audit log.
        </Trans>
      </ConsoleHeading>
      {/* A POST: the query (an email, a key) never lands in the URL, so never in history, logs or a Referer. */}
      <Form
        method="post"
        role="search"
        className="mb-6 flex flex-wrap items-end gap-3 rounded-lg border border-border-strong bg-surface p-4"
      >
        <label className="min-w-0 flex-1 text-sm">
          <span className="block text-soft">
            <Trans>Email, order number, invoice id or key</Trans>
          </span>
          <input
            type="search"
            name="q"
            defaultValue={query}
            maxLength={320}
            required
            autoComplete="off"
            spellCheck={false}
            className={`${consoleField} mt-1`}
          />
        </label>
        <button type="submit" className={buttonStyles.primary}>
          <Trans>Search orders</Trans>
        </button>
      </Form>
      {result === null ? null : result.orders.length === 0 && result.buyers.every((b) => b.mail.length === 0) ? (
        <p role="status" className="text-soft">
          <Trans>No order matches “{query}”.</Trans>
        </p>
      ) : (
        <>
          <section aria-labelledby="orders-found">
            <h2 id="orders-found" className="mb-3 font-semibold text-foreground text-xl">
              <Trans>Orders found</Trans>
            </h2>
            {result.orders.length === 0 ? (
              <p className="text-soft">
                <Trans>No order matches “{query}”.</Trans>
              </p>
            ) : (
              <ul className="space-y-4">
                {result.orders.map((order) => (
                  <li key={order.id}>
                    <OrderCard order={order} />
                  </li>
                ))}
              </ul>
            )}
            <nav aria-label={t`Order pages`} className="mt-4 flex gap-4">
              {page > 1 ? (
                <PageButton query={query} page={page - 1}>
                  <Trans>Newer orders</Trans>
                </PageButton>
              ) : null}
              {result.hasMore ? (
                <PageButton query={query} page={page + 1}>
                  <Trans>Older orders</Trans>
                </PageButton>
              ) : null}
            </nav>
          </section>
          {result.buyers.map((buyer) => (
            <BuyerSection key={buyer.email} buyer={buyer} />
          ))}
        </>
      )}
    </div>
  );
}

/** Another page of the same search: posted like the search itself, so the query stays out of the URL. */
function PageButton({ query, page, children }: { query: string; page: number; children: ReactNode }) {
  return (
    <Form method="post">
      <input type="hidden" name="q" value={query} />
      <input type="hidden" name="page" value={page} />
      <button type="submit" className="min-h-11 underline">
        {children}
      </button>
    </Form>
  );
}

function OrderCard({ order }: { order: FoundOrder }) {
  const { t } = useLingui();
  const { tag } = useLocale();
  const time = useConsoleTime();
  const money = new Intl.NumberFormat(tag, { style: "currency", currency: "USD" }).format(order.amountCents / 100);
  const rows: Array<[string, string]> = [
    [t`Product`, order.productName],
    [t`Duration`, order.durationLabel ?? "—"],
    [t`Quantity`, String(order.quantity)],
    [t`Amount charged`, money],
    [
      t`Status`,
      order.shopStatus && order.shopStatus !== order.status ? `${order.status} (${order.shopStatus})` : order.status,
    ],
    [t`Key`, order.deliveredKey ?? "—"],
    [t`Buyer`, order.buyerEmail ?? "—"],
    [t`Shop invoice`, order.invoiceId ? `${order.provider} · ${order.invoiceId}` : order.provider],
    [t`Created`, time(order.createdAt)],
    [t`Paid`, time(order.completedAt)],
  ];
  return (
    <article aria-label={t`Order ${order.id}`} className="rounded-lg border border-border-strong bg-surface p-4">
      <h3 className="break-all font-mono text-foreground text-sm">{order.id}</h3>
      <dl className="mt-3 grid grid-cols-[minmax(0,auto)_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-soft">{label}</dt>
            <dd className="break-all text-foreground">{value}</dd>
          </div>
        ))}
      </dl>
      <h4 className="mt-4 font-semibold text-foreground text-sm">
        <Trans>Shop notifications</Trans>
      </h4>
      {order.notifications.length === 0 ? (
        <p className="text-soft text-sm">
          <Trans>None received.</Trans>
        </p>
      ) : (
        <ul className="mt-1 space-y-1 text-sm">
          {order.notifications.map((n) => (
            <li key={`${n.receivedAt}-${n.event}`}>
              {time(n.receivedAt)} · <span className="font-mono">{n.event}</span> → {n.outcome}
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

function BuyerSection({ buyer }: { buyer: BuyerHistory }) {
  const { t } = useLingui();
  const { path } = useLocale();
  const time = useConsoleTime();
  const headingId = `buyer-${buyer.email.replace(/[^a-z0-9]/gi, "-")}`;
  return (
    <section aria-labelledby={headingId} className="mt-8">
      <h2 id={headingId} className="mb-3 break-all font-semibold text-foreground text-xl">
        <Trans>Buyer {buyer.email}</Trans>
      </h2>
      <h3 className="font-semibold text-foreground">
        <Trans>Mail sent</Trans>
      </h3>
      {buyer.mail.length === 0 ? (
        <p className="text-soft text-sm">
          <Trans>No mail to this address.</Trans>
        </p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (WCAG 2.1.1)
        <section className="mt-2 overflow-x-auto" tabIndex={0} aria-label={t`Mail sent to ${buyer.email}`}>
          <table className="w-full text-start text-sm">
            <thead>
              <tr className="border-border border-b text-soft">
                <th scope="col" className="px-2 py-2 text-start">{t`Time`}</th>
                <th scope="col" className="px-2 py-2 text-start">{t`Kind`}</th>
                <th scope="col" className="px-2 py-2 text-start">{t`Subject`}</th>
                <th scope="col" className="px-2 py-2 text-start">{t`Delivery`}</th>
              </tr>
            </thead>
            <tbody>
              {buyer.mail.map((mail) => (
                <tr key={mail.id} className="border-border border-b align-top">
                  <td className="whitespace-nowrap px-2 py-2">{time(mail.createdAt)}</td>
                  <td className="px-2 py-2 font-mono">{mail.kind}</td>
                  <td className="px-2 py-2">{mail.subject ?? <Trans>(not shown: it carries a code)</Trans>}</td>
                  <td className="px-2 py-2">
                    {mail.status}
                    {mail.sentAt ? <span className="block text-soft text-xs">{time(mail.sentAt)}</span> : null}
                    {mail.lastError ? <span className="block text-soft text-xs">{mail.lastError}</span> : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      <h3 className="mt-4 font-semibold text-foreground">
        <Trans>Conversations</Trans>
      </h3>
      {buyer.conversations.length === 0 ? (
        <p className="text-soft text-sm">
          <Trans>No conversations from this address.</Trans>
        </p>
      ) : (
        <ul className="mt-1 space-y-1 text-sm">
          {buyer.conversations.map((c) => (
            <li key={c.id}>
              <Link to={path(`/admin/support/${c.id}`)} className="underline">
                {c.category}
              </Link>{" "}
              · {c.status} · {time(c.lastMessageAt)}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
