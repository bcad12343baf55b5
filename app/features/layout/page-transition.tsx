import { type MouseEvent, useEffect, useRef } from "react";
import { Link, type LinkProps, useLocation, useNavigate, useNavigation } from "react-router";

/** How long the page shows faded out before the router loads the next one. */
const NAVIGATE_DELAY_MS = 100;

export function prefersReducedMotion(): boolean {
  return typeof window !== "undefined" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * Whether going to `pathname` leaves the page the address bar shows. False for Back and Forward: the browser has moved
 * the address bar before the router hears of them, and they restore a page rather than fade one out.
 */
function leavesShownPage(pathname: string): boolean {
  return pathname !== window.location.pathname;
}

/**
 * The root's client middleware: a navigation to another page waits ~100 ms before its loaders run, so the page fades
 * out (see `useLeavingPage`) before the router pushes the new address and renders it. Navigations within a page (a
 * filter, a #hash) are not held.
 */
export function waitBeforeLeavingPage(request: Request): Promise<void> | undefined {
  if (!leavesShownPage(new URL(request.url).pathname)) return;
  return new Promise((resolve) => {
    // A newer navigation aborts this one; the router then drops it, so stop waiting.
    const done = () => {
      window.clearTimeout(timer);
      resolve();
    };
    const timer = window.setTimeout(done, NAVIGATE_DELAY_MS);
    request.signal.addEventListener("abort", done, { once: true });
  });
}

/** True from a click on a link to another page until the router renders that page: the page-transition flag. */
export function useLeavingPage(): boolean {
  const navigation = useNavigation();
  return navigation.state !== "idle" && leavesShownPage(navigation.location.pathname);
}

/** A click that follows a link here: not one that opens a new tab or window, or downloads. */
function isPlainClick(event: Pick<globalThis.MouseEvent, "button" | "metaKey" | "ctrlKey" | "shiftKey" | "altKey">) {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/**
 * A Link of the site's chrome, which may point at the page already shown: following that one does nothing (no
 * reload, no fade, no scroll to the top). Modified clicks (a new tab) go through.
 */
export function PageLink({ to, onClick, ...props }: LinkProps & { to: string }) {
  const location = useLocation();
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (!isPlainClick(event)) return;
    const target = new URL(to, window.location.href);
    if (target.pathname === location.pathname && target.search === location.search) event.preventDefault();
  };
  return <Link to={to} onClick={handleClick} {...props} />;
}

const targetOf = (hash: string) =>
  hash.length > 1 ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;

function focusTarget(target: HTMLElement) {
  if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
  target.focus({ preventScroll: true });
}

/**
 * `#hash` links are plain `<a href="#…">` (they work before hydration, in HTML from content too) that the router
 * follows: it gives each its own history entry, so Back returns to where the page was, and <ScrollRestoration> scrolls
 * to the target, gliding by the stylesheet's scroll-behavior. Left to the browser, every such entry would share one
 * scroll key and the second link followed would land where the first left the page. Focus follows the target.
 */
export function useSmoothHashLinks() {
  const navigate = useNavigate();
  const { hash, key } = useLocation();
  useEffect(() => {
    // A #hash link followed before the page was ready: the browser already jumped there; focus follows now.
    const early = window.__kestrelBoot?.hashLink ? targetOf(window.__kestrelBoot.hashLink) : null;
    if (window.__kestrelBoot) window.__kestrelBoot.hashLink = null;
    if (
      early &&
      (document.activeElement === null ||
        document.activeElement === document.body ||
        document.activeElement.matches("a[href^='#']"))
    )
      focusTarget(early);
  }, []);
  useEffect(() => {
    const onClick = (event: globalThis.MouseEvent) => {
      if (event.defaultPrevented || !isPlainClick(event)) return;
      const anchor = (event.target as Element | null)?.closest?.("a[href^='#']");
      const to = anchor?.getAttribute("href") ?? "";
      if (!targetOf(to)) return;
      event.preventDefault();
      const { pathname, search } = window.location;
      // flushSync: the scroll starts within the click (a jump, with reduced motion, is done when the click returns).
      navigate({ pathname, search, hash: to }, { replace: to === window.location.hash, flushSync: true });
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, [navigate]);
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` too, so following the same #hash again focuses again.
  useEffect(() => {
    // The address the page was served at is not a link followed here; the browser has scrolled to it already.
    if (first.current) {
      first.current = false;
      return;
    }
    const target = targetOf(hash);
    if (target) focusTarget(target);
  }, [hash, key]);
}
