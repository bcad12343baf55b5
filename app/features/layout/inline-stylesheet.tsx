import { createContext, useContext } from "react";

/** The site's one stylesheet and the response's CSP nonce, handed to the document by `entry.server.tsx`. */
export const InlineStylesheetContext = createContext<{ css: string; nonce: string } | null>(null);

const STYLESHEET_ID = "site-css";

/**
 * The stylesheet goes inline in `<head>`: a linked one is render-blocking and shares the first round trips with the
 * module scripts, which made it the slowest part of every first paint. The client reads back the text the server
 * sent, so hydration sees the very same element and the client bundle carries no CSS.
 */
export function InlineStylesheet() {
  const server = useContext(InlineStylesheetContext);
  const css = server?.css ?? (typeof document === "undefined" ? "" : (document.getElementById(STYLESHEET_ID)?.textContent ?? ""));
  // Browsers hide the nonce attribute from scripts once applied, so the client cannot (and need not) repeat it.
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the text is our own built stylesheet, never user input.
  return <style id={STYLESHEET_ID} nonce={server?.nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: css }} />;
}

/**
 * Tailwind registers its `--tw-*` properties with `@property` and ships universal-selector defaults, behind an
 * `@supports`, for browsers without it. The Nu Html Checker rejects `@property` (and `margin-trim` in that
 * condition) inside `<style>`, so the inline copy keeps only the defaults, unconditionally: the same values, and
 * the properties still do not inherit because every element sets its own. Unregistered custom properties cannot
 * be transitioned, so they also leave `transition-property` lists (where the checker rejects them too).
 */
export function inlinableCss(css: string): string {
  let out = css.replace(/@property\s+--[\w-]+\s*\{[^}]*\}/g, "");
  const fallback = /@supports\s*\([^{]*margin-trim[^{]*\{/.exec(out);
  if (fallback) {
    const open = fallback.index + fallback[0].length;
    let depth = 1;
    let close = open;
    while (depth > 0 && close < out.length) {
      const char = out[close++];
      if (char === "{") depth++;
      else if (char === "}") depth--;
    }
    out = out.slice(0, fallback.index) + out.slice(open, close - 1) + out.slice(close);
  }
  return out.replace(/transition-property:([^;}]*)/g, (_declaration, list: string) => {
    const kept = list.split(",").filter((name) => !name.trim().startsWith("--"));
    return `transition-property:${kept.length > 0 ? kept.join(",") : "none"}`;
  });
}
