/**
 * How a page may be stored, declared by its route: `export const handle = { cache: "content" } satisfies RouteCacheHandle`.
 * - `"content"`: copy from `content/` (catalogue, docs, legal): shared caches keep it minutes.
 * - `"live"`: fed by the database or background refreshes (status, reviews): shared caches keep it seconds.
 * - `"private"`: per-buyer or per-visit pages: never stored. A route that declares nothing is private.
 */
export type CachePolicy = "content" | "live" | "private";

export interface RouteCacheHandle {
  cache?: CachePolicy;
}
