import { Trans, useLingui } from "@lingui/react/macro";
import { Form, Link, useLocation } from "react-router";
import { buttonStyles } from "~/components/ui/button-styles";
import { useLocale } from "~/features/i18n/use-locale";
import type { AuditEntry, AuditFilters } from "~/features/audit/audit-log.server";
import { ConsoleHeading } from "../shell/console-heading";
import { consoleField } from "../shell/console-field";
import { useConsoleTime } from "../shell/console-clock";

export function AuditPage({
  filters,
  page,
  entries,
  hasMore,
  actors,
  actions,
}: {
  filters: AuditFilters;
  page: number;
  entries: AuditEntry[];
  hasMore: boolean;
  actors: string[];
  actions: readonly string[];
}) {
  const { t } = useLingui();
  const { path } = useLocale();
  const { search } = useLocation();
  const time = useConsoleTime();
  const query = new URLSearchParams(search);
  const pageLink = (n: number) => {
    const next = new URLSearchParams(query);
    next.set("page", String(n));
    return `?${next.toString()}`;
  };
  query.delete("page");
  const csv = `${path("/admin/audit.csv")}${query.size > 0 ? `?${query.toString()}` : ""}`;
  return (
    <div>
      <ConsoleHeading title={t`Audit log`}>
        <Trans>
          Every sign-in, change and look-up in the console and by the CLI, newest first. Nothing here can be edited or
          deleted.
        </Trans>
      </ConsoleHeading>
      <Form
        method="get"
        className="mb-6 flex flex-wrap items-end gap-3 rounded-lg border border-border-strong bg-surface p-4"
      >
        <div className="text-sm">
          <label htmlFor="audit-actor" className="block text-soft">
            <Trans>Person</Trans>
          </label>
          <select id="audit-actor" name="actor" defaultValue={filters.actor ?? ""} className={`${consoleField} mt-1`}>
            <option value="">{t`Everyone`}</option>
            {actors.map((actor) => (
              <option key={actor} value={actor}>
                {actor}
              </option>
            ))}
          </select>
        </div>
        <div className="text-sm">
          <label htmlFor="audit-action" className="block text-soft">
            <Trans>Action</Trans>
          </label>
          <select
            id="audit-action"
            name="action"
            defaultValue={filters.action ?? ""}
            className={`${consoleField} mt-1`}
          >
            <option value="">{t`Any action`}</option>
            {actions.map((action) => (
              <option key={action} value={action}>
                {action}
              </option>
            ))}
          </select>
        </div>
        <label className="text-sm">
          <span className="block text-soft">
            <Trans>From</Trans>
          </span>
          <input type="date" name="from" defaultValue={filters.from ?? ""} className={`${consoleField} mt-1`} />
        </label>
        <label className="text-sm">
          <span className="block text-soft">
            <Trans>To</Trans>
          </span>
          <input type="date" name="to" defaultValue={filters.to ?? ""} className={`${consoleField} mt-1`} />
        </label>
        <button type="submit" className={buttonStyles.primary}>
          <Trans>Filter</Trans>
        </button>
        <a href={csv} download className={buttonStyles.secondary}>
          <Trans>Export CSV</Trans>
        </a>
      </Form>
      {entries.length === 0 ? (
        <p className="text-soft">
          <Trans>No entries match these filters.</Trans>
        </p>
      ) : (
        // Focusable, so a keyboard can scroll a wide table on a phone.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (WCAG 2.1.1)
        <section className="overflow-x-auto" tabIndex={0} aria-label={t`Audit entries`}>
          <table className="w-full text-start text-sm">
            <caption className="sr-only">
              <Trans>Audit entries, page {page}</Trans>
            </caption>
            <thead>
              <tr className="border-border border-b text-start text-soft">
                <th scope="col" className="px-2 py-2 text-start">{t`Time`}</th>
                <th scope="col" className="px-2 py-2 text-start">{t`Who`}</th>
                <th scope="col" className="px-2 py-2 text-start">{t`Action`}</th>
                <th scope="col" className="px-2 py-2 text-start">{t`Target`}</th>
                <th scope="col" className="px-2 py-2 text-start">{t`Details`}</th>
                <th scope="col" className="px-2 py-2 text-start">{t`From`}</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id} className="border-border border-b align-top">
                  <td className="whitespace-nowrap px-2 py-2">{time(entry.at)}</td>
                  <td className="px-2 py-2">
                    {entry.actor}
                    {entry.sessionBeganWith ? (
                      <span className="block text-soft text-xs">{entry.sessionBeganWith}</span>
                    ) : null}
                  </td>
                  <td className="px-2 py-2 font-mono">{entry.action}</td>
                  <td className="px-2 py-2">{entry.target ?? "—"}</td>
                  <td className="max-w-xs break-words px-2 py-2 font-mono text-xs">{entry.detail ?? "—"}</td>
                  <td className="px-2 py-2 text-xs">
                    {entry.clientAddress ?? "—"}
                    {entry.userAgent ? (
                      <span className="block max-w-48 truncate text-soft" title={entry.userAgent}>
                        {entry.userAgent}
                      </span>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      <nav aria-label={t`Audit log pages`} className="mt-6 flex gap-4">
        {page > 1 ? (
          <Link to={pageLink(page - 1)} className="underline">
            <Trans>Newer entries</Trans>
          </Link>
        ) : null}
        {hasMore ? (
          <Link to={pageLink(page + 1)} className="underline">
            <Trans>Older entries</Trans>
          </Link>
        ) : null}
      </nav>
    </div>
  );
}
