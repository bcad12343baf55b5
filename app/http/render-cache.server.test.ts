import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { renderCacheLookups } from "~/platform/metrics.server";
import { CACHE_CONTROL } from "./cache-headers.server";
import { brotliChunks } from "./brotli-template.server";
import { gzipChunks } from "./gzip-template.server";
import { createRenderCache, headersWithNonce, type PageRender } from "./render-cache.server";

function page(html: string, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(html, {
    status: init.status ?? 200,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": CACHE_CONTROL.content, ...init.headers },
  });
}

/** A render that counts its calls and finishes only when released, so concurrent misses can overlap. */
function heldRender(html: (nonce: string) => string, nonce = "n0nce") {
  let calls = 0;
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const render = async (): Promise<PageRender> => {
    calls++;
    await released;
    return {
      response: page(html(nonce), { headers: { "Content-Security-Policy": `script-src 'nonce-${nonce}'` } }),
      nonce,
    };
  };
  return { render, release, calls: () => calls };
}

const lookups = async (result: string) =>
  (await renderCacheLookups.get()).values.find((v) => v.labels.result === result)?.value ?? 0;

describe("render cache", () => {
  it("stores a page without its nonce and gives it back with another one", async () => {
    const cache = createRenderCache();
    const first = await cache.fetch("/faq", 5_000, async () => ({
      response: page('<script nonce="abc">x</script>', {
        headers: { "Content-Security-Policy": "script-src 'nonce-abc'" },
      }),
      nonce: "abc",
    }));
    expect("page" in first).toBe(true);
    const stored = cache.get("/faq");
    if (!stored) throw new Error("the page was not stored");
    expect(stored.body.parts.map(String)).toEqual(['<script nonce="', '">x</script>']);
    expect(headersWithNonce(stored, "xyz")).toContainEqual(["content-security-policy", "script-src 'nonce-xyz'"]);
    expect(zlib.gunzipSync(Buffer.concat(gzipChunks(stored.body, Buffer.from("xyz")))).toString()).toBe(
      '<script nonce="xyz">x</script>',
    );
    expect(stored.etag).toMatch(/^W\/".+"$/);
  });

  it("shares one render between concurrent misses of a URL", async () => {
    const cache = createRenderCache();
    const held = heldRender((nonce) => `<p nonce="${nonce}">shared</p>`);
    const missesBefore = await lookups("miss");
    const sharedBefore = await lookups("shared");
    const waiting = Array.from({ length: 5 }, () => cache.fetch("/products", 5_000, held.render));
    held.release();
    const results = await Promise.all(waiting);
    expect(held.calls()).toBe(1);
    const etags = results.map((result) => ("page" in result ? result.page.etag : "not stored"));
    expect(new Set(etags).size).toBe(1);
    expect(etags[0]).not.toBe("not stored");
    expect((await lookups("miss")) - missesBefore).toBe(1);
    expect((await lookups("shared")) - sharedBefore).toBe(4);
  });

  it("evicts the least recently used URL when full", async () => {
    const cache = createRenderCache({ maxEntries: 2 });
    const store = (url: string) =>
      cache.fetch(url, 5_000, async () => ({ response: page(`<p>${url}</p>`), nonce: "n" }));
    await store("/a");
    await store("/b");
    expect(cache.get("/a")).toBeDefined(); // /a is now the most recently used
    await store("/c");
    expect(cache.size).toBe(2);
    expect(cache.get("/b")).toBeUndefined();
    expect(cache.get("/a")).toBeDefined();
    expect(cache.get("/c")).toBeDefined();
  });

  it("keeps URLs with a query string in their own budget, so a flood of searches never evicts the plain pages", async () => {
    const cache = createRenderCache({ maxEntries: 3, maxQueryEntries: 2 });
    const store = (url: string) =>
      cache.fetch(url, 5_000, async () => ({ response: page(`<p>${url}</p>`), nonce: "n" }));
    for (const url of ["/", "/products", "/product/1"]) await store(url);
    for (let i = 0; i < 50; i++) await store(`/products?q=flood${i}`);
    expect(cache.size).toBe(5);
    for (const url of ["/", "/products", "/product/1", "/products?q=flood49", "/products?q=flood48"])
      expect(cache.get(url)).toBeDefined();
    expect(cache.get("/products?q=flood47")).toBeUndefined();
  });

  it("keeps a page shown in another currency with the plain pages, where a flood of searches cannot evict it", async () => {
    const cache = createRenderCache({ maxEntries: 3, maxQueryEntries: 2 });
    const store = (url: string) =>
      cache.fetch(url, 5_000, async () => ({ response: page(`<p>${url}</p>`), nonce: "n" }));
    for (const url of ["/de/product/1?currency=EUR", "/product/1?currency=GBP"]) await store(url);
    for (let i = 0; i < 50; i++) await store(`/products?q=flood${i}&currency=EUR`);
    expect(cache.get("/de/product/1?currency=EUR")).toBeDefined();
    expect(cache.get("/product/1?currency=GBP")).toBeDefined();
    expect(cache.get("/products?q=flood47&currency=EUR")).toBeUndefined();
  });

  it("allows a page's inline code by hash, keeps the nonce on its last element, and adds brotli once asked again", async () => {
    const html = (nonce: string) =>
      `<style nonce="${nonce}">p{color:red}</style><script nonce="${nonce}">boot()</script><p>${"shared ".repeat(50)}</p><script nonce="${nonce}">close()</script>`;
    const cache = createRenderCache();
    const render = async (): Promise<PageRender> => ({
      response: page(html("abc"), {
        headers: { "Content-Security-Policy": "script-src 'nonce-abc' 'strict-dynamic'; style-src 'self' 'nonce-abc'" },
      }),
      nonce: "abc",
    });
    const first = await cache.fetch("/faq", 5_000, render);
    if (!("page" in first)) throw new Error("the page was not stored");
    const stored = first.page;
    expect(stored.body.parts.map(String)).toEqual([
      `<style>p{color:red}</style><script>boot()</script><p>${"shared ".repeat(50)}</p><script nonce="`,
      '">close()</script>',
    ]);
    const csp = headersWithNonce(stored, "xyz").find(([name]) => name === "content-security-policy")?.[1];
    expect(csp).toMatch(
      /^script-src 'nonce-xyz' 'sha256-[^']+' 'strict-dynamic'; style-src 'self' 'nonce-xyz' 'sha256-[^']+'$/,
    );
    // Brotli from the first response (quality 10 for a path kept 5 s); asked again, 11 is made in the background.
    const quick = stored.brotliHead;
    expect(quick).toBeInstanceOf(Buffer);
    expect(stored.betterBrotli).toBe(11);
    cache.get("/faq");
    await expect.poll(() => stored.betterBrotli).toBeUndefined();
    expect(stored.brotliHead).not.toBe(quick);
    const brotli = Buffer.concat(
      brotliChunks(stored.brotliHead as Buffer, Buffer.from("xyz"), stored.body.parts[1] as Buffer),
    );
    expect(zlib.brotliDecompressSync(brotli).toString()).toBe(html("xyz").replace(/ nonce="xyz"(?=.*nonce)/g, ""));
    // A re-render of the unchanged page (its entry expired) takes the better bytes at once; a page kept for a second
    // starts at 8 and gets 10.
    const short = createRenderCache();
    const firstShort = await short.fetch("/faq", 200, render);
    if (!("page" in firstShort)) throw new Error("the page was not stored");
    expect(firstShort.page.betterBrotli).toBe(10);
    short.get("/faq");
    await expect.poll(() => firstShort.page.betterBrotli).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 250));
    const rerendered = await short.fetch("/faq", 200, render);
    if (!("page" in rerendered)) throw new Error("the page was not stored");
    expect(rerendered.page).not.toBe(firstShort.page);
    expect(rerendered.page.brotliHead).toBe(firstShort.page.brotliHead);
    expect(rerendered.page.betterBrotli).toBeUndefined();
  });

  it("counts a stored page as a hit", async () => {
    const cache = createRenderCache();
    await cache.fetch("/docs", 5_000, async () => ({ response: page("<p>docs</p>"), nonce: "n" }));
    const hitsBefore = await lookups("hit");
    const again = await cache.fetch("/docs", 5_000, async () => {
      throw new Error("a stored page must not be rendered again");
    });
    expect("page" in again).toBe(true);
    expect((await lookups("hit")) - hitsBefore).toBe(1);
  });

  it.each([
    ["a 404", page("<p>missing</p>", { status: 404 })],
    [
      "a redirect",
      new Response(null, { status: 302, headers: { Location: "/", "Cache-Control": CACHE_CONTROL.content } }),
    ],
    ["a page that sets a cookie", page("<p>hi</p>", { headers: { "Set-Cookie": "a=b" } })],
    ["a private page", page("<p>order</p>", { headers: { "Cache-Control": "no-store" } })],
    [
      "a response that is not HTML",
      new Response("{}", { headers: { "Content-Type": "application/json", "Cache-Control": CACHE_CONTROL.content } }),
    ],
  ])("never stores %s: the request that rendered it gets it, the others render their own", async (_name, response) => {
    const cache = createRenderCache();
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const render = async () => {
      await released;
      return { response, nonce: "n" };
    };
    const leader = cache.fetch("/x", 5_000, render);
    const follower = cache.fetch("/x", 5_000, render);
    release();
    expect(await leader).toEqual({ uncacheable: response });
    expect(await follower).toEqual({ rendered: false });
    expect(cache.get("/x")).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
