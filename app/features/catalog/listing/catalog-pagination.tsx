import { useLingui } from "@lingui/react/macro";
import { Link } from "react-router";

/** Page numbers shown around the current page, besides the first and the last. */
const NEIGHBOURS = 1;

/** The pages to link, in order, with `null` where a run of pages is left out. */
export function visiblePages(page: number, pageCount: number): Array<number | null> {
  const shown = new Set([1, pageCount]);
  for (let p = page - NEIGHBOURS; p <= page + NEIGHBOURS; p++) if (p >= 1 && p <= pageCount) shown.add(p);
  const pages: Array<number | null> = [];
  let previous = 0;
  for (const p of [...shown].sort((a, b) => a - b)) {
    // A gap of one page shows that page rather than an ellipsis standing for it.
    if (p - previous === 2) pages.push(p - 1);
    else if (p - previous > 2) pages.push(null);
    pages.push(p);
    previous = p;
  }
  return pages;
}

const linkClass =
  "inline-flex min-w-10 items-center justify-center rounded-lg border px-3 py-2 text-sm font-semibold transition";
const idleClass = `${linkClass} border-foreground/15 text-foreground hover:border-accent/60 hover:text-foreground`;

/**
 * Numbered page links (first, last, the pages around the current one, previous and next): plain links, so they work
 * without JavaScript; with it they keep the scroll position and ask the page (`state.focusResults`) to move focus to
 * the results.
 */
export function CatalogPagination({
  page,
  pageCount,
  hrefOf,
}: {
  page: number;
  pageCount: number;
  hrefOf(page: number): string;
}) {
  const { t, i18n } = useLingui();
  // Page numbers in the page's digits, without grouping (`Page 1000`, as before).
  const number = (p: number) => i18n.number(p, { useGrouping: false });
  if (pageCount <= 1) return null;
  const go = (target: number, label: string, rel?: string) => (
    <Link to={hrefOf(target)} rel={rel} preventScrollReset state={{ focusResults: true }} className={idleClass}>
      {label}
    </Link>
  );
  return (
    <nav aria-label={t`Pagination`} className="mt-10">
      <ul className="flex flex-wrap items-center justify-center gap-2">
        {page > 1 ? (
          <li>{go(page - 1, t({ message: "Previous", comment: "Link to the previous page of products" }), "prev")}</li>
        ) : null}
        {visiblePages(page, pageCount).map((p, i) => {
          if (p === null)
            return (
              <li key={`gap-${i}`} aria-hidden="true" className="px-1 text-muted">
                …
              </li>
            );
          const shown = number(p);
          return (
            <li key={p}>
              <Link
                to={hrefOf(p)}
                aria-current={p === page ? "page" : undefined}
                aria-label={t`Page ${shown}`}
                preventScrollReset
                state={{ focusResults: true }}
                className={p === page ? `${linkClass} border-accent bg-accent text-on-accent` : idleClass}
              >
                {shown}
              </Link>
            </li>
          );
        })}
        {page < pageCount ? (
          <li>{go(page + 1, t({ message: "Next", comment: "Link to the next page of products" }), "next")}</li>
        ) : null}
      </ul>
    </nav>
  );
}
