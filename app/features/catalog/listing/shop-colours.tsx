import { useContext, useEffect, useState } from "react";
import { InlineStylesheetContext } from "~/features/layout/inline-stylesheet";

// The owner's colours (badges, status lines), checked for contrast on the server (colour-check.server.ts). Inline
// `style` attributes are refused by the CSP, so a colour reaches the page as a class naming it: the server's first
// answer carries the rules in a <style> under the response's nonce; a page the browser renders itself sets the same
// custom property through the CSSOM, which the CSP allows.

const STYLE_ID = "shop-colours";

/** `#16a34a` → `shop-c-16a34a`: the class that sets `--shop-colour` to it. */
export function colourClass(colour: string | undefined): string {
  return colour && /^#[0-9a-f]{6}$/i.test(colour) ? `shop-colour shop-c-${colour.slice(1).toLowerCase()}` : "";
}

/** Sets `--shop-colour` through the CSSOM (a client-rendered page has no server <style> for it). */
export function colourRef(colour: string | undefined) {
  return (element: HTMLElement | null) => {
    if (element && colour && /^#[0-9a-f]{6}$/i.test(colour)) element.style.setProperty("--shop-colour", colour);
  };
}

let hydrating = true;

/** The rules for `colours`, in the server's answer only (read back as they are when the page hydrates). */
export function ShopColourRules({ colours }: { colours: readonly (string | undefined)[] }) {
  const server = useContext(InlineStylesheetContext);
  const [fromServer] = useState(() =>
    typeof document === "undefined" || !hydrating ? null : (document.getElementById(STYLE_ID)?.textContent ?? null),
  );
  useEffect(() => {
    hydrating = false;
  }, []);
  const unique = [...new Set(colours.filter((c): c is string => !!c && /^#[0-9a-f]{6}$/i.test(c)))];
  const css = server
    ? unique.map((c) => `.shop-c-${c.slice(1).toLowerCase()}{--shop-colour:${c.toLowerCase()}}`).join("")
    : fromServer;
  if (!css) return null;
  return (
    <style
      id={STYLE_ID}
      nonce={server?.nonce}
      suppressHydrationWarning
      // biome-ignore lint/security/noDangerouslySetInnerHtml: colours checked as #rrggbb, class names made of their hex digits.
      dangerouslySetInnerHTML={{ __html: css }}
    />
  );
}
