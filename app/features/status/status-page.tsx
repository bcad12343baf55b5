import { Trans, useLingui } from "@lingui/react/macro";
import { useState } from "react";
import { RefreshIcon } from "~/components/icons";
import { buttonStyles } from "~/components/ui/button-styles";
import { type AnyLocale, DEFAULT_LOCALE } from "~/features/i18n/locales";
import { useLocale } from "~/features/i18n/use-locale";
import { toast } from "~/features/layout/toasts";
import { openSupportChat } from "~/features/support-chat/open-support-chat";
import { ActiveIncidents, RecentIncidents } from "./incident-parts";
import { useHydrated } from "./local-time";
import type { DisplayStatus, StatusSnapshot } from "./status";
import { formatPercent } from "./status-format";
import { STATUS_LEGEND, STATUS_NAMES } from "./status-messages";
import { UptimeBars } from "./uptime-bars";

const REFRESH_TOAST_MS = 3_000;

const STATUS_STYLES: Record<DisplayStatus, { badge: string; dot: string }> = {
  operational: { badge: "bg-success/15 text-success-soft ring-success/40", dot: "bg-success" },
  maintenance: { badge: "bg-warning/15 text-warning-soft ring-warning/40", dot: "bg-warning" },
  outage: { badge: "bg-danger/15 text-danger-soft ring-danger/40", dot: "bg-danger" },
  unknown: { badge: "bg-muted/20 text-foreground ring-muted/40", dot: "bg-muted" },
};

export function StatusBadge({ status }: { status: DisplayStatus }) {
  const { i18n } = useLingui();
  return (
    <span
      className={`inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-semibold capitalize ring-1 ${STATUS_STYLES[status].badge}`}
    >
      <span aria-hidden="true" className={`size-2 rounded-full ${STATUS_STYLES[status].dot}`} />
      {i18n._(STATUS_NAMES[status])}
    </span>
  );
}

/** The API's URL for a page in `locale`: the summary's figures are the shop's content, written in each language. */
function statusApiUrl(locale: AnyLocale): string {
  return locale === DEFAULT_LOCALE ? "/api/status" : `/api/status?locale=${locale}`;
}

async function fetchStatus(locale: AnyLocale): Promise<StatusSnapshot> {
  // Bypass the browser's 30 s cache: the button means "ask the server now".
  const response = await fetch(statusApiUrl(locale), { cache: "no-store", headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`status ${response.status}`);
  return (await response.json()) as StatusSnapshot;
}

function SummaryCard({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-2xl border border-foreground/10 bg-surface/60 p-5">
      <dt className="text-sm text-soft">{label}</dt>
      <dd className="mt-1 text-2xl font-bold text-foreground">{value}</dd>
    </div>
  );
}

export function StatusPage({ initial, loadedAt }: { initial: StatusSnapshot; loadedAt: string }) {
  const [snapshot, setSnapshot] = useState(initial);
  const [lastRefreshed, setLastRefreshed] = useState(loadedAt);
  const [refreshing, setRefreshing] = useState(false);
  const hydrated = useHydrated();
  const { t, i18n } = useLingui();
  const { locale, tag } = useLocale();
  const percent = (uptime: string) => formatPercent(uptime, tag);
  const uptimeText = (uptime: string) =>
    t({ message: `${uptime} uptime`, comment: "A product's uptime over the last 90 days, e.g. 99.90% uptime" });
  const time = new Date(lastRefreshed).toLocaleTimeString(tag, hydrated ? {} : { timeZone: "UTC" });
  const refreshedAt = hydrated
    ? time
    : t({ message: `${time} UTC`, comment: "A time in UTC, shown until the page knows the visitor's time zone" });

  async function refresh() {
    setRefreshing(true);
    try {
      setSnapshot(await fetchStatus(locale));
      setLastRefreshed(new Date().toISOString());
      toast.success(t`Successfully refreshed!`, { duration: REFRESH_TOAST_MS });
    } catch {
      toast.error(t`Could not refresh the status. Please try again.`);
    } finally {
      setRefreshing(false);
    }
  }

  const { summary } = snapshot;
  return (
    <>
      <div className="flex flex-col items-center justify-center gap-3 sm:flex-row">
        <button type="button" onClick={refresh} disabled={refreshing} className={buttonStyles.primary}>
          <RefreshIcon className={`size-4 ${refreshing ? "animate-spin" : ""}`} />
          {refreshing ? t`Refreshing...` : t`Refresh Status`}
        </button>
        <button type="button" onClick={() => openSupportChat()} className={buttonStyles.secondary}>
          <Trans>Contact Support</Trans>
        </button>
      </div>
      <p className="mt-3 text-center text-sm text-soft" aria-live="polite">
        <Trans>
          Last Refreshed: <time dateTime={lastRefreshed}>{refreshedAt}</time>
        </Trans>
      </p>

      <section aria-labelledby="status-summary" className="mt-10">
        <h2 id="status-summary" className="sr-only">
          <Trans>Summary</Trans>
        </h2>
        <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
          <SummaryCard label={t`Products`} value={i18n.number(summary.products)} />
          <SummaryCard
            label={t`Average Uptime`}
            value={summary.averageUptime === null ? t`No data` : percent(summary.averageUptime)}
          />
          <SummaryCard label={t`Active Users`} value={summary.activeUsers} />
          <SummaryCard label={t`License Servers`} value={summary.licenseServers} />
        </dl>
      </section>

      <ActiveIncidents incidents={snapshot.incidents} />

      <section aria-labelledby="status-services" className="mt-10">
        <h2 id="status-services" className="text-xl font-semibold text-foreground">
          <Trans>Services</Trans>
        </h2>
        <div className="mt-4 overflow-x-auto rounded-2xl border border-foreground/10 bg-surface/60">
          <table className="w-full text-start text-sm">
            <thead className="border-b border-foreground/10 text-soft">
              <tr>
                <th scope="col" className="px-3 py-3 font-medium sm:px-5">
                  <Trans>Product</Trans>
                </th>
                <th scope="col" className="px-3 py-3 font-medium sm:px-5">
                  <Trans comment="Column heading: each product's current status">Status</Trans>
                </th>
                <th scope="col" className="px-3 py-3 text-end font-medium sm:px-5">
                  <Trans>Uptime (90 days)</Trans>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-foreground/10">
              {snapshot.entries.map((entry) => (
                <tr key={entry.name}>
                  <th scope="row" className="px-3 py-4 font-medium text-foreground sm:px-5">
                    {entry.name}
                  </th>
                  <td className="px-3 py-4 sm:px-5">
                    <StatusBadge status={entry.status} />
                  </td>
                  <td className="px-3 py-4 text-end tabular-nums sm:px-5 text-foreground">
                    {entry.uptime === null ? t`No data` : percent(entry.uptime)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {snapshot.entries.length === 0 ? (
            <p className="px-5 py-6 text-center text-soft">
              <Trans>No services are listed yet.</Trans>
            </p>
          ) : null}
        </div>
      </section>

      <section aria-labelledby="status-history" className="mt-10">
        <h2 id="status-history" className="text-xl font-semibold text-foreground">
          <Trans>Uptime, last 90 days</Trans>
        </h2>
        <p className="mt-1 text-sm text-soft">
          <Trans>Each bar is a day (UTC) in its worst status; grey is no data.</Trans>
        </p>
        <ul className="mt-4 space-y-6">
          {snapshot.entries.map((entry) => (
            <li key={entry.name} className="rounded-2xl border border-foreground/10 bg-surface/60 p-4 sm:p-5">
              <p className="flex items-baseline justify-between gap-3 text-sm">
                <span className="font-medium text-foreground">{entry.name}</span>
                <span className="tabular-nums text-soft">
                  {entry.uptime === null ? t`No data yet` : uptimeText(percent(entry.uptime))}
                </span>
              </p>
              <UptimeBars entry={entry} historyStart={snapshot.historyStart} incidentTitles={snapshot.incidentTitles} />
              <p aria-hidden="true" className="mt-1 flex justify-between text-xs text-muted">
                <span className="max-sm:hidden">
                  <Trans>90 days ago</Trans>
                </span>
                <span className="sm:hidden">
                  <Trans>30 days ago</Trans>
                </span>
                <span>
                  <Trans>Today</Trans>
                </span>
              </p>
            </li>
          ))}
        </ul>
      </section>

      <RecentIncidents incidents={snapshot.recentIncidents} />

      <section aria-labelledby="status-legend" className="mt-8">
        <h2 id="status-legend" className="text-sm font-semibold text-foreground">
          <Trans>Legend</Trans>
        </h2>
        <ul className="mt-3 flex flex-wrap gap-x-6 gap-y-2 text-sm text-soft">
          {STATUS_LEGEND.map((item) => (
            <li key={item.status} className="flex items-center gap-2">
              <span aria-hidden="true" className={`size-3 rounded-full ${STATUS_STYLES[item.status].dot}`} />
              <span className="font-medium text-foreground">{i18n._(item.label)}</span>
              <span>{i18n._(item.description)}</span>
            </li>
          ))}
        </ul>
        <p className="mt-4 text-sm text-soft">
          <a
            href="/status/feed.xml"
            className="underline decoration-foreground/30 underline-offset-4 hover:decoration-foreground"
          >
            <Trans>Subscribe to incidents (Atom feed)</Trans>
          </a>
        </p>
      </section>
    </>
  );
}
