import {
  createContext,
  type MouseEvent,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { Link, type LinkProps, useLocation, useNavigate } from "react-router";

export const NAVIGATE_DELAY_MS = 100;
export const TRANSITION_CLEAR_MS = 300;

interface PageTransition {
  isTransitioning: boolean;
  transitionTo(to: string): void;
}

const PageTransitionContext = createContext<PageTransition>({ isTransitioning: false, transitionTo: () => {} });

export function prefersReducedMotion(): boolean {
  return typeof window !== "undefined" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Delays navigation ~100 ms behind a fade-out and clears the flag ~300 ms after; same-path targets do nothing. */
export function PageTransitionProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const location = useLocation();
  const [isTransitioning, setTransitioning] = useState(false);
  const timers = useRef<number[]>([]);

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const t of pending) window.clearTimeout(t);
    };
  }, []);

  const transitionTo = useCallback(
    (to: string) => {
      const target = new URL(to, window.location.href);
      if (target.pathname === location.pathname && target.search === location.search) return;
      setTransitioning(true);
      timers.current.push(
        window.setTimeout(() => {
          navigate(target.pathname + target.search + target.hash);
          timers.current.push(window.setTimeout(() => setTransitioning(false), TRANSITION_CLEAR_MS));
        }, NAVIGATE_DELAY_MS),
      );
    },
    [location.pathname, location.search, navigate],
  );

  const value = useMemo(() => ({ isTransitioning, transitionTo }), [isTransitioning, transitionTo]);
  return <PageTransitionContext.Provider value={value}>{children}</PageTransitionContext.Provider>;
}

export function usePageTransition() {
  return useContext(PageTransitionContext);
}

/** A Link that goes through the page transition (plain navigation for modified clicks and no-JS). */
export function TransitionLink({ to, onClick, ...props }: LinkProps & { to: string }) {
  const { transitionTo } = usePageTransition();
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    )
      return;
    event.preventDefault();
    transitionTo(to);
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
    const early = window.__kestrelBoot?.hashLink ? targetOf(window.__kestrelBoot.hashLink) : null;
    if (window.__kestrelBoot) window.__kestrelBoot.hashLink = null;
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
