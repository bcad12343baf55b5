import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { Link } from "react-router";
import { useLocale } from "~/features/i18n/use-locale";
import { ConsoleHeading } from "../shell/console-heading";
import type { Dashboard, DashboardPeriod } from "./dashboard.server";
import { useConsoleTime } from "../shell/console-clock";

function Figure({ label, value, before }: { label: string; value: React.ReactNode; before?: React.ReactNode }) {
  return (
    <div className="rounded-lg border border-border-strong bg-surface p-4">
      <dt className="text-sm text-soft">{label}</dt>
      <dd className="mt-1 font-bold text-2xl text-foreground">{value}</dd>
      {before !== undefined ? <dd className="mt-1 text-soft text-xs">{before}</dd> : null}
    </div>
  );
}

function useDuration() {
  const { t } = useLingui();
  return (ms: number) => {
    const minutes = Math.round(ms / 60_000);
    if (minutes < 60) return t`${minutes} min`;
    const hours = Math.floor(minutes / 60);
    if (hours < 48) return t`${hours} h ${minutes % 60} min`;
    return t`${Math.floor(hours / 24)} days`;
  };
}

export function DashboardPage({ dashboard, remind }: { dashboard: Dashboard; remind: boolean }) {
  const { t } = useLingui();
  const { tag, path } = useLocale();
  const time = useConsoleTime();
  const duration = useDuration();
  const money = (cents: number, currency: string) =>
    new Intl.NumberFormat(tag, { style: "currency", currency }).format(cents / 100);
  const count = (n: number) => new Intl.NumberFormat(tag).format(n);
  const { current, previous } = dashboard;
  const periods: Array<{ id: DashboardPeriod; label: string }> = [
    { id: "24h", label: t`24 hours` },
    { id: "7d", label: t`7 days` },
    { id: "30d", label: t`30 days` },
  ];
  const revenue = (figures: typeof current) =>
    figures.revenue.length === 0
      ? t`No paid orders`
      : figures.revenue.map((r) => money(r.cents, r.currency)).join(" · ");
  const max = Math.max(1, ...dashboard.days.map((d) => Math.max(d.orders, d.requests)));
  return (
    <div>
      <ConsoleHeading title={t`Dashboard`}>
        <Trans>The shop's own numbers, each beside the period before.</Trans>
      </ConsoleHeading>
      {remind ? (
        <p role="note" className="mb-6 rounded-lg border border-warning/40 bg-warning/10 p-4 text-foreground text-sm">
          <Trans>
            You have one passkey. Add a second one on another device, so losing this one never locks you out.
          </Trans>{" "}
          <Link to={path("/admin/account")} className="underline">
            <Trans>Add a passkey</Trans>
          </Link>
        </p>
      ) : null}
      <nav aria-label={t`Period`} className="mb-6 flex gap-2">
        {periods.map((p) => (
          <Link
            key={p.id}
            to={`?period=${p.id}`}
            aria-current={p.id === dashboard.period ? "page" : undefined}
            className="rounded-lg border border-border-strong px-3 py-2 text-sm aria-[current=page]:bg-accent/15 aria-[current=page]:font-semibold"
          >
            {p.label}
          </Link>
        ))}
      </nav>
      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <Figure
          label={t`Paid orders`}
          value={count(current.paidOrders)}
          before={t`Period before: ${count(previous.paidOrders)}`}
        />
        <Figure label={t`Revenue`} value={revenue(current)} before={t`Period before: ${revenue(previous)}`} />
        <Figure
          label={t`Support requests received`}
          value={count(current.supportRequests)}
          before={t`Period before: ${count(previous.supportRequests)}`}
        />
        <Figure
          label={t`Waiting for the team`}
          value={
            <Link to={path("/admin/support")} className="underline decoration-2 underline-offset-4">
              {count(dashboard.waiting.count)}
            </Link>
          }
          before={
            dashboard.waiting.oldestSince
              ? t`Oldest waiting since ${time(dashboard.waiting.oldestSince)}`
              : t`Nobody is waiting`
          }
        />
        <Figure
          label={t`Median time to the first team reply`}
          value={
            current.medianFirstReplyMs === null
              ? t`No replies yet in this period`
              : duration(current.medianFirstReplyMs)
          }
          before={
            previous.medianFirstReplyMs === null
              ? t`Period before: no replies`
              : t`Period before: ${duration(previous.medianFirstReplyMs)}`
          }
        />
        <Figure
          label={t`Deliveries failing`}
          value={count(dashboard.failingDeliveries.supportRequests + dashboard.failingDeliveries.mail)}
          before={t`Support requests: ${count(dashboard.failingDeliveries.supportRequests)} · mail: ${count(dashboard.failingDeliveries.mail)}`}
        />
        <Figure
          label={t`Status now`}
          value={
            dashboard.status.affected.length === 0 ? (
              t`All operational`
            ) : (
              <Plural value={dashboard.status.affected.length} one="# product affected" other="# products affected" />
            )
          }
          before={
            dashboard.status.openIncident
              ? t`Open incident: ${dashboard.status.openIncident.title}`
              : t`No open incident`
          }
        />
        <Figure
          label={t`Catalogue last synced`}
          value={
            dashboard.catalogueSyncedAt === null
              ? t`Not connected to a shop`
              : dashboard.catalogueSyncedAt === "never"
                ? t`Not synced yet`
                : time(dashboard.catalogueSyncedAt)
          }
        />
      </dl>
      <section aria-labelledby="per-day-heading" className="mt-10">
        <h2 id="per-day-heading" className="font-semibold text-foreground text-xl">
          <Trans>Orders and requests per day</Trans>
        </h2>
        {/* Drawn in SVG attributes, not inline styles: the CSP allows no style attributes. */}
        <svg
          aria-hidden="true"
          viewBox={`0 0 ${dashboard.days.length * 10} 100`}
          preserveAspectRatio="none"
          className="mt-4 h-40 w-full"
        >
          {dashboard.days.map((d, i) => (
            <g key={d.day}>
              <rect
                x={i * 10 + 1}
                y={100 - (d.orders / max) * 100}
                width={4}
                height={(d.orders / max) * 100}
                className="fill-accent"
              />
              <rect
                x={i * 10 + 5}
                y={100 - (d.requests / max) * 100}
                width={4}
                height={(d.requests / max) * 100}
                className="fill-warning"
              />
            </g>
          ))}
        </svg>
        <p aria-hidden="true" className="mt-2 flex gap-4 text-soft text-xs">
          <span>
            <span className="me-1 inline-block size-2 bg-accent" />
            <Trans>Paid orders</Trans>
          </span>
          <span>
            <span className="me-1 inline-block size-2 bg-warning" />
            <Trans>Support requests</Trans>
          </span>
        </p>
        <table className="mt-4 w-full max-w-md text-sm">
          <caption className="text-start text-soft">
            <Trans>The chart's numbers</Trans>
          </caption>
          <thead>
            <tr>
              <th scope="col" className="text-start">{t`Day`}</th>
              <th scope="col" className="text-end">{t`Paid orders`}</th>
              <th scope="col" className="text-end">{t`Support requests`}</th>
            </tr>
          </thead>
          <tbody>
            {dashboard.days.map((d) => (
              <tr key={d.day}>
                <th scope="row" className="text-start font-normal">
                  {d.day}
                </th>
                <td className="text-end">{count(d.orders)}</td>
                <td className="text-end">{count(d.requests)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
