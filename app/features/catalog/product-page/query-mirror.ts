import { useLocation, useNavigate } from "react-router";

/**
 * The queries this tab asked for whose navigation may still be on its way, ending with the newest: the URL shows a
 * change only once its navigation is done.
 */
let asked: { seen: Set<string>; newest: string; at: number } | null = null;

/** Long after any navigation lands: what was asked for then says nothing about the URL now. */
const PENDING_AT_MOST_MS = 10_000;

/**
 * Mirrors the page's choices into its query (replacing the history entry, keeping the scroll), each on top of every
 * choice before it. Built on the URL alone, a quantity typed right after a duration was picked (or both replayed once
 * the page hydrates) would start from the query before the duration's navigation landed, and undo it.
 */
export function useQueryMirror() {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  return (changes: Record<string, string>) => {
    const here = `${pathname}${search}`;
    // Landed on the newest, or too long ago: nothing is on its way.
    if (asked && (here === asked.newest || Date.now() - asked.at > PENDING_AT_MOST_MS)) asked = null;
    // The URL is one this tab passed on the way to the newest: build on the newest. Anything else (back, a link)
    // is where the visitor is now.
    const pending = asked?.seen.has(here) ? asked : null;
    const url = new URL(pending?.newest ?? here, "http://query.invalid");
    for (const [name, value] of Object.entries(changes)) url.searchParams.set(name, value);
    const next = `${url.pathname}?${url.searchParams}`;
    asked = { seen: new Set([...(pending?.seen ?? [here]), next]), newest: next, at: Date.now() };
    navigate({ pathname: url.pathname, search: `?${url.searchParams}` }, { replace: true, preventScrollReset: true });
  };
}
