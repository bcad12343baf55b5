import { useContext } from "react";
import starterScript from "./boot/start-after-paint.boot.ts?boot-script";
import { InlineStylesheetContext } from "./inline-stylesheet";

/**
 * The starter (`boot/start-after-paint.boot.ts`, compiled at build): in `<body>`, under the response's CSP nonce, which
 * it hands on to the framework's held module script once the page has painted.
 */
export function BootAfterPaint() {
  const nonce = useContext(InlineStylesheetContext)?.nonce;
  return (
    <script
      nonce={nonce}
      suppressHydrationWarning
      // Only the server sends the text: hydration keeps the element as it came, so the client bundle carries none of it.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: a compiled boot module of ours.
      dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? starterScript : "" }}
    />
  );
}
