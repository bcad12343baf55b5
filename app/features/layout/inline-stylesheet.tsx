import { createContext, useContext } from "react";

/** The site's one stylesheet and the response's CSP nonce, handed to the document by `entry.server.tsx`. */
export const InlineStylesheetContext = createContext<{ css: string; nonce: string } | null>(null);

export const STYLESHEET_ID = "site-css";

/**
 * The stylesheet goes inline in `<head>`: a linked one is render-blocking and shares the first round trips with the
 * module scripts, which made it the slowest part of every first paint. The client reads back the text the server
 * sent, so hydration sees the very same element and the client bundle carries no CSS. A cached page keeps only the
 * rules it uses here (`app/http/site-css.server.ts`); the rest arrives after the first paint.
 */
export function InlineStylesheet() {
  const server = useContext(InlineStylesheetContext);
  const css =
    server?.css ?? (typeof document === "undefined" ? "" : (document.getElementById(STYLESHEET_ID)?.textContent ?? ""));
  // Browsers hide the nonce attribute from scripts once applied, so the client cannot (and need not) repeat it.
  return (
    <style
      id={STYLESHEET_ID}
      nonce={server?.nonce}
      suppressHydrationWarning
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the text is our own built stylesheet, never user input.
      dangerouslySetInnerHTML={{ __html: css }}
    />
  );
}
