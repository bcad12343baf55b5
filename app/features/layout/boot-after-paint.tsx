import { useContext } from "react";
import starterScript from "./boot/start-after-paint.boot.ts?boot-script";
import { InlineStylesheetContext } from "./inline-stylesheet";

/**
 * The starter (`boot/start-after-paint.boot.ts`, compiled at build): in `<body>`, under the response's CSP nonce, which
 * it hands on to the framework's held module script once the page has painted.
 */
export function BootAfterPaint() {
  const nonce = useContext(InlineStylesheetContext)?.nonce;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: a compiled boot module of ours; hydration keeps it as is.
  return <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: starterScript }} />;
}
