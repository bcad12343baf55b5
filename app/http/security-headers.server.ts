import crypto from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import { type Env, reviewsSource } from "~/platform/env.server";

export function createNonce(): string {
  return crypto.randomBytes(16).toString("base64");
}

/**
 * Per-route relaxations, declared in a route module's `handle` export:
 * `export const handle = { security: { frameAncestors: "self" } } satisfies RouteSecurityHandle;`
 * Only the demo checkout page needs one (it is shown inside our own checkout modal).
 */
export interface RouteSecurity {
  /** Who may put this page in a frame; the default is nobody. */
  frameAncestors?: "none" | "self";
}
export interface RouteSecurityHandle {
  security?: RouteSecurity;
}

/** Merges the `handle.security` of every matched route (deepest wins). */
export function routeSecurityOf(handles: unknown[]): RouteSecurity {
  const merged: RouteSecurity = {};
  for (const handle of handles) {
    const security = (handle as RouteSecurityHandle | undefined)?.security;
    if (security?.frameAncestors) merged.frameAncestors = security.frameAncestors;
  }
  return merged;
}

/** Origins outside our own that the checkout iframe may load: exactly the configured SHOP_CHECKOUT_ORIGIN list (sellauth only). */
export function checkoutFrameOrigins(env: Env): string[] {
  if (env.CHECKOUT_PROVIDER !== "sellauth" || !env.SHOP_CHECKOUT_ORIGIN) return [];
  return [...new Set(env.SHOP_CHECKOUT_ORIGIN.split(",").map((item) => new URL(item.trim()).origin))];
}

const sha256 = (text: string) => `'sha256-${crypto.createHash("sha256").update(text).digest("base64")}'`;
let styleHashes: string[] | undefined;

/**
 * The toast library (sonner) injects its stylesheet as an inline <style> at runtime: first empty, then filled. Both
 * states are allowed by hash, computed from the installed package so an upgrade cannot silently break the toasts.
 */
export function inlineStyleHashes(): string[] {
  if (styleHashes) return styleHashes;
  styleHashes = [sha256("")];
  try {
    const source = fs.readFileSync(createRequire(import.meta.url).resolve("sonner"), "utf8");
    const literal = /__insertCSS\(("(?:[^"\\]|\\.)*")\)/.exec(source)?.[1];
    if (literal) styleHashes.push(sha256(JSON.parse(literal) as string));
  } catch {
    // Without sonner installed there is nothing to allow.
  }
  return styleHashes;
}

/**
 * Where images may come from: our own files and inline SVG, the given origins (the connected shop's product images),
 * and with vouch-page reviews any https: host, since a vouch page names its avatars' hosts only when it is read.
 */
function imageSources(env: Env, origins: readonly string[]): string[] {
  return ["'self'", "data:", ...new Set(origins), ...(reviewsSource(env) === "vouch" ? ["https:"] : [])];
}

export function contentSecurityPolicy(
  env: Env,
  scriptSources: string[],
  route: RouteSecurity = {},
  imageOrigins: readonly string[] = [],
): string {
  const dev = env.NODE_ENV === "development";
  const directives: Record<string, string[]> = {
    "default-src": ["'self'"],
    "script-src": [...scriptSources, "'strict-dynamic'", ...(dev ? ["'unsafe-eval'"] : [])],
    // Vite's dev server injects inline styles; production serves one CSS file, plus nonce'd <style> elements only
    // (the checkout dialog's scroll lock stamps the page nonce) and the toast styles by hash. A nonce would disable
    // 'unsafe-inline' in dev.
    "style-src": [
      "'self'",
      ...(dev
        ? ["'unsafe-inline'"]
        : [...scriptSources.filter((source) => source.startsWith("'nonce-")), ...inlineStyleHashes()]),
    ],
    "img-src": imageSources(env, imageOrigins),
    "font-src": ["'self'"],
    "connect-src": ["'self'", ...(dev ? ["ws:"] : [])],
    "media-src": ["'self'"],
    // 'self' is the demo checkout page; the video is the privacy-enhanced YouTube embed.
    "frame-src": ["'self'", "https://www.youtube-nocookie.com", ...checkoutFrameOrigins(env)],
    "worker-src": ["'self'", "blob:"],
    "manifest-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "frame-ancestors": [route.frameAncestors === "self" ? "'self'" : "'none'"],
    "form-action": ["'self'"],
  };
  if (env.PUBLIC_URL.startsWith("https:")) directives["upgrade-insecure-requests"] = [];
  return Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(" ").trim())
    .join("; ");
}

/** The legacy twin of frame-ancestors for browsers that ignore CSP level 2. */
export function frameOptions(route: RouteSecurity): string {
  return route.frameAncestors === "self" ? "SAMEORIGIN" : "DENY";
}

/** Headers every response carries; CSP (and a route's framing override) is added for HTML in entry.server. */
export function baseSecurityHeaders(env: Env): Record<string, string> {
  const paymentAllowList = ["self", ...checkoutFrameOrigins(env).map((origin) => `"${origin}"`)].join(" ");
  const headers: Record<string, string> = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    // payment only where the checkout runs: our page (demo checkout frame) and the hosted shop's checkout frame.
    "Permissions-Policy": `payment=(${paymentAllowList}), camera=(), microphone=(), geolocation=(), usb=()`,
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "X-Frame-Options": "DENY",
  };
  if (env.PUBLIC_URL.startsWith("https:"))
    headers["Strict-Transport-Security"] = "max-age=63072000; includeSubDomains; preload";
  return headers;
}
