import { describe, expect, it } from "vitest";
import { documentCacheControl, isSharedCacheable, routeCachePolicyOf } from "./cache-headers.server";
import { parseEnv } from "~/platform/env.server";
import { baseSecurityHeaders, contentSecurityPolicy, frameOptions, routeSecurityOf } from "./security-headers.server";

const directives = (csp: string) =>
  new Map(csp.split("; ").map((d) => [d.split(" ")[0], d.split(" ").slice(1).join(" ")]));

describe("Content-Security-Policy", () => {
  const demo = parseEnv({});
  const sellauthEnv = {
    CHECKOUT_PROVIDER: "sellauth",
    SHOP_CHECKOUT_ORIGIN: "https://checkout.example.com/pay/",
    PUBLIC_URL: "https://shop.example.com",
  };
  const sellauth = parseEnv(sellauthEnv);

  it("allows scripts only by nonce (strict-dynamic), never 'unsafe-inline' or 'unsafe-eval'", () => {
    const csp = directives(contentSecurityPolicy(demo, ["'nonce-abc'"]));
    expect(csp.get("script-src")).toBe("'nonce-abc' 'strict-dynamic'");
    expect(contentSecurityPolicy(demo, ["'nonce-abc'"])).not.toMatch(/unsafe-(inline|eval)/);
  });

  it("locks down objects, base, framing by others, connections and form targets", () => {
    const csp = directives(contentSecurityPolicy(demo, ["'nonce-abc'"]));
    expect(csp.get("object-src")).toBe("'none'");
    expect(csp.get("base-uri")).toBe("'none'");
    expect(csp.get("frame-ancestors")).toBe("'none'");
    expect(csp.get("connect-src")).toBe("'self'");
    expect(csp.get("form-action")).toBe("'self'");
  });

  it("frames only the demo checkout ('self') and the video in demo mode", () => {
    expect(directives(contentSecurityPolicy(demo, [])).get("frame-src")).toBe(
      "'self' https://www.youtube-nocookie.com",
    );
  });

  it("adds the configured hosted-checkout origin (origin only) to frame-src with sellauth", () => {
    expect(directives(contentSecurityPolicy(sellauth, [])).get("frame-src")).toBe(
      "'self' https://www.youtube-nocookie.com https://checkout.example.com",
    );
  });

  it("frames exactly each configured checkout origin when SHOP_CHECKOUT_ORIGIN lists several", () => {
    const two = parseEnv({
      CHECKOUT_PROVIDER: "sellauth",
      SHOP_CHECKOUT_ORIGIN: "https://shop.example.com/checkout, https://pay.example.net",
    });
    expect(directives(contentSecurityPolicy(two, [])).get("frame-src")).toBe(
      "'self' https://www.youtube-nocookie.com https://shop.example.com https://pay.example.net",
    );
    expect(() =>
      parseEnv({ CHECKOUT_PROVIDER: "sellauth", SHOP_CHECKOUT_ORIGIN: "https://shop.example.com, not a url" }),
    ).toThrow(/SHOP_CHECKOUT_ORIGIN/);
  });

  it("loads images only from our own files and inline data in demo mode, never from any https: host", () => {
    expect(directives(contentSecurityPolicy(demo, [])).get("img-src")).toBe("'self' data:");
  });

  it("names exactly the connected shop's image origins in img-src, each once", () => {
    const origins = ["https://imagedelivery.net", "https://static.mysellauth.com", "https://imagedelivery.net"];
    expect(directives(contentSecurityPolicy(sellauth, [], {}, origins)).get("img-src")).toBe(
      "'self' data: https://imagedelivery.net https://static.mysellauth.com",
    );
  });

  it("allows https: images only while a vouch page, whose avatars may sit on any host, is the review source", () => {
    const vouch = parseEnv({ REVIEWS_SOURCE_URL: "https://vouches.example.com/shop" });
    expect(directives(contentSecurityPolicy(vouch, [])).get("img-src")).toBe("'self' data: https:");
    const shopReviews = parseEnv({ ...sellauthEnv, REVIEWS_SOURCE: "shop", SHOP_API_KEY: "key" });
    expect(directives(contentSecurityPolicy(shopReviews, [])).get("img-src")).toBe("'self' data:");
  });

  it("lets a route opt in to being framed by our own pages, and nothing wider", () => {
    const route = routeSecurityOf([undefined, { security: { frameAncestors: "self" } }]);
    expect(directives(contentSecurityPolicy(demo, [], route)).get("frame-ancestors")).toBe("'self'");
    expect(frameOptions(route)).toBe("SAMEORIGIN");
    expect(frameOptions(routeSecurityOf([{ other: true }]))).toBe("DENY");
  });
});

describe("base security headers", () => {
  it("send nosniff, strict-origin-when-cross-origin referrers and same-origin COOP", () => {
    const headers = baseSecurityHeaders(parseEnv({}));
    expect(headers["X-Content-Type-Options"]).toBe("nosniff");
    expect(headers["Referrer-Policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["Cross-Origin-Opener-Policy"]).toBe("same-origin");
  });

  it("allow payment for our own pages only in demo mode, and for the checkout frame with sellauth", () => {
    expect(baseSecurityHeaders(parseEnv({}))["Permissions-Policy"]).toMatch(/^payment=\(self\),/);
    const sellauth = parseEnv({ CHECKOUT_PROVIDER: "sellauth", SHOP_CHECKOUT_ORIGIN: "https://checkout.example.com" });
    expect(baseSecurityHeaders(sellauth)["Permissions-Policy"]).toMatch(
      /^payment=\(self "https:\/\/checkout\.example\.com"\),/,
    );
  });

  it("send HSTS only when the public URL is https", () => {
    expect(baseSecurityHeaders(parseEnv({}))["Strict-Transport-Security"]).toBeUndefined();
    expect(baseSecurityHeaders(parseEnv({ PUBLIC_URL: "https://shop.example.com" }))["Strict-Transport-Security"]).toBe(
      "max-age=63072000; includeSubDomains; preload",
    );
  });
});

describe("document Cache-Control", () => {
  it("lets CDNs keep content pages with stale-while-revalidate", () => {
    expect(documentCacheControl(routeCachePolicyOf([undefined, { cache: "content" }]), 200)).toBe(
      "public, max-age=0, s-maxage=300, stale-while-revalidate=86400",
    );
    expect(documentCacheControl(routeCachePolicyOf([undefined, { cache: "live" }]), 200)).toMatch(
      /^public, max-age=0, s-maxage=30,/,
    );
  });

  it("never stores private pages, routes that declare nothing, or error pages", () => {
    expect(documentCacheControl(routeCachePolicyOf([undefined, { cache: "private" }]), 200)).toBe("no-store");
    expect(documentCacheControl(routeCachePolicyOf([undefined, { security: { frameAncestors: "self" } }]), 200)).toBe(
      "no-store",
    );
    expect(documentCacheControl(routeCachePolicyOf([]), 200)).toBe("no-store");
    expect(documentCacheControl(routeCachePolicyOf([{ cache: "content" }, { cache: "bogus" }]), 200)).toBe(
      "public, max-age=0, s-maxage=300, stale-while-revalidate=86400",
    );
    expect(documentCacheControl("content", 404)).toBe("no-store");
  });

  it("lets the deepest route that declares a policy decide", () => {
    expect(routeCachePolicyOf([{ cache: "content" }, { cache: "private" }])).toBe("private");
    expect(routeCachePolicyOf([{ cache: "live" }, undefined])).toBe("live");
  });

  it("treats only public responses without no-store/private/no-cache as shareable", () => {
    expect(isSharedCacheable("public, max-age=0, s-maxage=300")).toBe(true);
    expect(isSharedCacheable("no-store")).toBe(false);
    expect(isSharedCacheable("public, no-cache")).toBe(false);
    expect(isSharedCacheable(null)).toBe(false);
  });
});
