import { type MouseEvent, useEffect, useRef } from "react";
import { Link, type LinkProps, useLocation, useNavigation } from "react-router";

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

/** Scrolls to top when the path changes (smoothly unless the user prefers reduced motion). */
export function useScrollToTopOnPathChange() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    window.scrollTo({ top: 0, behavior: prefersReducedMotion() ? "auto" : "smooth" });
  }, [pathname]);
}

/** `#anchor` links scroll smoothly to their target and update the hash without a reload. */
export function useSmoothHashLinks() {
  useEffect(() => {
    const targetOf = (hash: string) =>
      hash.length > 1 ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    const focusTarget = (target: HTMLElement) => {
      if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
      target.focus({ preventScroll: true });
    };
    // A #hash link followed before the page was ready: the browser already jumped there; focus follows now.
    const early = window.__earlyHashLink ? targetOf(window.__earlyHashLink) : null;
    window.__earlyHashLink = null;
    if (
      early &&
      (document.activeElement === null ||
        document.activeElement === document.body ||
        document.activeElement.matches("a[href^='#']"))
    )
      focusTarget(early);
    const onClick = (event: globalThis.MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      const anchor = (event.target as Element | null)?.closest?.("a[href^='#']");
      if (!anchor) return;
      const hash = anchor.getAttribute("href") ?? "";
      const target = targetOf(hash);
      if (!target) return;
      event.preventDefault();
      target.scrollIntoView({ behavior: prefersReducedMotion() ? "auto" : "smooth", block: "start" });
      window.history.pushState(window.history.state, "", hash);
      focusTarget(target);
    };
    document.addEventListener("click", onClick);
    return () => document.removeEventListener("click", onClick);
  }, []);
}
