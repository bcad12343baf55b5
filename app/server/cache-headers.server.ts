/**
 * Cache-Control for HTML documents, per route id (one place for the whole site; a route's own `headers` export wins).
 * Unknown routes default to no-store, so a new page with per-buyer data is never cached by accident.
 */
export const CACHE_CONTROL = {
  /** Catalogue, docs and legal copy: CDNs keep it 5 minutes and may serve it stale for a day while refetching. */
  content: "public, max-age=0, s-maxage=300, stale-while-revalidate=86400",
  /** Pages fed by the database or background refreshes (status, reviews): shorter shared freshness. */
  live: "public, max-age=0, s-maxage=30, stale-while-revalidate=300",
  /** APIs, orders, the success page and the demo checkout: never stored anywhere. */
  private: "no-store",
} as const;

const ROUTE_CACHE_CONTROL: Record<string, string> = {
  "routes/home": CACHE_CONTROL.content,
  "routes/products": CACHE_CONTROL.content,
  "routes/product": CACHE_CONTROL.content,
  "routes/faq": CACHE_CONTROL.content,
  "routes/docs": CACHE_CONTROL.content,
  "routes/downloads": CACHE_CONTROL.content,
  "routes/reseller": CACHE_CONTROL.content,
  "legal-terms": CACHE_CONTROL.content,
  "legal-privacy": CACHE_CONTROL.content,
  "legal-refund": CACHE_CONTROL.content,
  "legal-dmca": CACHE_CONTROL.content,
  "routes/status": CACHE_CONTROL.live,
  "routes/reviews": CACHE_CONTROL.live,
};

/** Cache-Control for a rendered document: only successful renders of listed routes are shareable. */
export function documentCacheControl(routeId: string | undefined, status: number): string {
  if (status !== 200 || routeId === undefined) return CACHE_CONTROL.private;
  return ROUTE_CACHE_CONTROL[routeId] ?? CACHE_CONTROL.private;
}

/** True when a response may be kept in a shared cache (and so in our own rendered-HTML cache). */
export function isSharedCacheable(cacheControl: string | null): boolean {
  if (!cacheControl) return false;
  const directives = cacheControl.toLowerCase();
  return directives.includes("public") && !/no-store|private|no-cache/.test(directives);
}

/** How long the server reuses one render of a shareable page: live pages 1 s, content 5 s (docs/decisions/009). */
export function serverRenderTtlMs(cacheControl: string): number {
  const sMaxAge = Number(/s-maxage=(\d+)/.exec(cacheControl)?.[1] ?? 0);
  return sMaxAge >= 300 ? 5_000 : 1_000;
}
