import { useEffect } from "react";

/**
 * Fetches a lazily loaded module once the browser is idle (at most 10 s after mount), so it is ready when needed
 * without competing with the page's first paint. A failed fetch is ignored: the caller loads it again on use.
 */
export function usePrefetchOnIdle(load: () => Promise<unknown>, enabled = true) {
  useEffect(() => {
    if (!enabled) return;
    const prefetch = () => void load().catch(() => {});
    if (typeof window.requestIdleCallback === "function") {
      const id = window.requestIdleCallback(prefetch, { timeout: 10_000 });
      return () => window.cancelIdleCallback(id);
    }
    const timer = window.setTimeout(prefetch, 3000);
    return () => window.clearTimeout(timer);
  }, [load, enabled]);
}
