import { Trans, useLingui } from "@lingui/react/macro";
import { useRef } from "react";
import { Form, Link, NavLink } from "react-router";
import { buttonStyles } from "~/components/ui/button-styles";
import { useLocale } from "~/features/i18n/use-locale";
import { ConsoleHeading } from "../shell/console-heading";
import { consoleField } from "../shell/console-field";
import { useInboxLive } from "./inbox-live";
import { ShortcutsHelp, useInboxShortcuts } from "./inbox-shortcuts";
import { categoryLine, languageName, listQuery, useCategoryName, useWaitedFor } from "./inbox-labels";
import type { InboxListing, InboxScope, InboxState } from "./support.server";

export interface InboxPageProps {
  filter: { state: InboxState; scope: InboxScope; query: string };
  listing: InboxListing;
  waiting: { all: number; mine: number; unassigned: number };
  /** Too many searches this minute (issue 42): nothing was searched. */
  searchRefused?: { retryAfterSeconds: number } | null;
  now: string;
}

export function SupportInboxPage({ filter, listing, waiting, searchRefused, now }: InboxPageProps) {
  const { t } = useLingui();
  const { path } = useLocale();
  const categoryName = useCategoryName();
  const waitedFor = useWaitedFor();
  const list = useRef<HTMLOListElement>(null);
  useInboxLive();

  // j and k move through the rows; Enter opens the one in focus (it is a link).
  const move = (step: 1 | -1) => {
    const links = [...(list.current?.querySelectorAll<HTMLAnchorElement>("a[data-row]") ?? [])];
    if (links.length === 0) return;
    const at = links.indexOf(document.activeElement as HTMLAnchorElement);
    const next = at === -1 ? (step === 1 ? 0 : links.length - 1) : Math.min(links.length - 1, Math.max(0, at + step));
    links[next]?.focus();
  };
  const { helpOpen, setHelpOpen } = useInboxShortcuts({ j: () => move(1), k: () => move(-1) });

  const states: Array<{ state: InboxState; label: string }> = [
    { state: "waiting-for-us", label: t`Waiting for us` },
    { state: "waiting-for-visitor", label: t`Waiting for visitor` },
    { state: "resolved", label: t`Resolved` },
  ];
  const scopes: Array<{ scope: InboxScope; label: string; count?: number }> = [
    { scope: "mine", label: t`Mine`, count: filter.state === "waiting-for-us" ? waiting.mine : undefined },
    {
      scope: "unassigned",
      label: t`Unassigned`,
      count: filter.state === "waiting-for-us" ? waiting.unassigned : undefined,
    },
    { scope: "all", label: t`All`, count: filter.state === "waiting-for-us" ? waiting.all : undefined },
  ];
  const here = (change: Partial<InboxPageProps["filter"]>, page?: number) =>
    `${path("/admin/support")}?${listQuery({ ...filter, ...change }, page)}`;
  const conversationQuery = listQuery(filter);

  return (
    <div>
      <ConsoleHeading title={t`Support inbox`}>
        <Trans>
          Requests and messages from the support chat, as they arrive. Replies reach the visitor and the request's
          Discord thread.
        </Trans>
      </ConsoleHeading>

      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <nav aria-label={t`Lists`}>
          <ul className="flex flex-wrap gap-1">
            {states.map((item) => (
              <li key={item.state}>
                <NavLink
                  to={here({ state: item.state })}
                  aria-current={item.state === filter.state ? "page" : undefined}
                  className="block rounded-lg border border-border-strong px-3 py-2 text-sm aria-[current=page]:bg-accent/15 aria-[current=page]:font-semibold"
                >
                  {item.label}
                  {item.state === "waiting-for-us" ? ` (${waiting.all})` : null}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <ShortcutsHelp open={helpOpen} onOpenChange={setHelpOpen} />
      </div>

      <div className="mb-4 flex flex-wrap items-end justify-between gap-3">
        <nav aria-label={t`Whose`}>
          <ul className="flex flex-wrap gap-1">
            {scopes.map((item) => (
              <li key={item.scope}>
                <NavLink
                  to={here({ scope: item.scope })}
                  aria-current={item.scope === filter.scope ? "page" : undefined}
                  className="block rounded-lg px-3 py-2 text-soft text-sm hover:text-foreground aria-[current=page]:bg-foreground/10 aria-[current=page]:text-foreground"
                >
                  {item.label}
                  {item.count === undefined ? null : ` (${item.count})`}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <Form
          method="get"
          role="search"
          className="flex min-w-0 flex-1 flex-wrap items-end justify-end gap-2 max-sm:basis-full sm:flex-none"
        >
          <input type="hidden" name="state" value={filter.state} />
          <input type="hidden" name="scope" value={filter.scope} />
          <label className="min-w-0 flex-1 text-sm sm:w-72 sm:flex-none">
            <span className="block text-soft">
              <Trans>Search by text or email</Trans>
            </span>
            <input
              type="search"
              name="q"
              defaultValue={filter.query}
              maxLength={200}
              autoComplete="off"
              className={`${consoleField} mt-1`}
            />
          </label>
          <button type="submit" className={buttonStyles.secondary}>
            <Trans>Search</Trans>
          </button>
        </Form>
      </div>

      {searchRefused ? (
        <p role="alert" className="rounded-lg border border-border-strong bg-surface p-6 text-danger">
          <Trans>
            Too many searches in a minute. Wait {searchRefused.retryAfterSeconds} seconds, then search again.
          </Trans>
        </p>
      ) : listing.rows.length === 0 ? (
        <p role="status" className="rounded-lg border border-border-strong bg-surface p-6 text-soft">
          {filter.query ? (
            <Trans>No conversation in this list matches “{filter.query}”.</Trans>
          ) : filter.state === "waiting-for-us" ? (
            <Trans>Nothing waits for the team. New requests appear here as they arrive.</Trans>
          ) : filter.state === "waiting-for-visitor" ? (
            <Trans>No conversation waits for a visitor's answer.</Trans>
          ) : (
            <Trans>No conversation has been resolved yet.</Trans>
          )}
        </p>
      ) : (
        <ol
          ref={list}
          aria-label={t`Conversations`}
          className="divide-y divide-border rounded-lg border border-border-strong bg-surface"
        >
          {listing.rows.map((row) => (
            <li key={row.id}>
              <Link
                data-row
                to={`${path(`/admin/support/${row.id}`)}?${conversationQuery}`}
                className="block px-4 py-3 hover:bg-foreground/5 focus-visible:bg-foreground/5"
              >
                <span className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                  <span className="font-semibold text-foreground">
                    {categoryLine(categoryName(row.category), row.product)}
                  </span>
                  <span className="text-soft text-sm">
                    {filter.state === "resolved" ? (
                      <Trans>Resolved {waitedFor(row.since, now)} ago</Trans>
                    ) : (
                      <Trans>Waiting {waitedFor(row.since, now)}</Trans>
                    )}
                  </span>
                </span>
                <span className="mt-1 line-clamp-2 block break-words text-foreground/90 text-sm">{row.lastWords}</span>
                <span className="mt-1 block text-soft text-xs">
                  {languageName(row.locale)}
                  {row.visitorEmail ? ` · ${row.visitorEmail}` : null}
                  {" · "}
                  {row.assignee ? <Trans>Assigned to {row.assignee}</Trans> : <Trans>Unassigned</Trans>}
                </span>
              </Link>
            </li>
          ))}
        </ol>
      )}

      {listing.pages > 1 ? (
        <nav aria-label={t`Pages`} className="mt-4 flex flex-wrap items-center gap-4 text-sm">
          {listing.page > 1 ? (
            <Link to={here({}, listing.page - 1)} className="underline">
              <Trans>Previous page</Trans>
            </Link>
          ) : null}
          <span className="text-soft">
            <Trans>
              Page {listing.page} of {listing.pages}
            </Trans>
          </span>
          {listing.page < listing.pages ? (
            <Link to={here({}, listing.page + 1)} className="underline">
              <Trans>Next page</Trans>
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
