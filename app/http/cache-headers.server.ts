import type { CachePolicy, RouteCacheHandle } from "~/lib/route-cache";

/** Cache-Control for HTML documents, by the policy a route declares in `handle.cache`. */
export const CACHE_CONTROL: Record<CachePolicy, string> = {
  /** Catalogue, docs and legal copy: CDNs keep it 5 minutes and may serve it stale for a day while refetching. */
  content: "public, max-age=0, s-maxage=300, stale-while-revalidate=86400",
  /** Pages fed by the database or background refreshes (status, reviews): shorter shared freshness. */
  live: "public, max-age=0, s-maxage=30, stale-while-revalidate=300",
  /** APIs, orders, the success page and the demo checkout: never stored anywhere. */
  private: "no-store",
};

/** How long the server reuses one render of a shareable page (docs/decisions/009): operators' changes show within 1 s. */
export const RENDER_TTL_MS: Record<Exclude<CachePolicy, "private">, number> = { content: 5_000, live: 1_000 };

/** Merges the `handle.cache` of every matched route (deepest wins); a route that declares nothing stays private. */
export function routeCachePolicyOf(handles: unknown[]): CachePolicy {
  let policy: CachePolicy = "private";
  for (const handle of handles) {
    const declared = (handle as RouteCacheHandle | undefined)?.cache;
    if (declared === "content" || declared === "live" || declared === "private") policy = declared;
  }
  return policy;
}

/** Cache-Control for a rendered document: only successful renders of shareable routes may be stored. */
export function documentCacheControl(policy: CachePolicy, status: number): string {
  return status === 200 ? CACHE_CONTROL[policy] : CACHE_CONTROL.private;
}

/** True when a response may be kept in a shared cache (and so in our own rendered-HTML cache). */
export function isSharedCacheable(cacheControl: string | null): boolean {
  if (!cacheControl) return false;
  const directives = cacheControl.toLowerCase();
  return directives.includes("public") && !/no-store|private|no-cache/.test(directives);
}
