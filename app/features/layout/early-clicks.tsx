import { useCallback, useContext, useEffect, useState } from "react";
import recorderScript from "./boot/early-clicks.boot.ts?boot-script";
import { replayEarlyFieldEdits } from "./early-fields";
import { InlineStylesheetContext } from "./inline-stylesheet";

/**
 * Clicks and field edits made after the first paint but before React has hydrated the page are recorded by the
 * inline recorder (`boot/early-clicks.boot.ts`, compiled at build) and carried out here once the page is ready, instead
 * of being lost: every field typed into or chosen in reports its value as if edited now (`early-fields.ts`). A button named `data-early-click="<name>"` is handled by the component that asks for that name
 * (`Purchase Now` waits for its captcha); any other `<button type="button">` is clicked again once React handles it. A
 * `#hash` link's target gets focus once the page is ready (`useSmoothHashLinks`).
 *
 * This renders the recorder: first thing in `<body>`, under the response's CSP nonce.
 */
export function EarlyClickRecorder() {
  const nonce = useContext(InlineStylesheetContext)?.nonce;
  return (
    <script
      nonce={nonce}
      suppressHydrationWarning
      // Only the server sends the text: hydration keeps the element as it came, so the client bundle carries none of it.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: a compiled boot module of ours.
      dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? recorderScript : "" }}
    />
  );
}

/**
 * The page has hydrated: later clicks are React's; fields edited and buttons clicked too early are replayed now. Called from
 * the root, whose effects run after every child's, so each button's handler and state are in place.
 */
export function useReplayEarlyClicks() {
  useEffect(() => {
    const boot = window.__kestrelBoot;
    boot?.stop();
    // Fields first, so a button clicked early acts on what was typed before it.
    replayEarlyFieldEdits(boot?.fields.splice(0) ?? [], () => {
      for (const button of boot?.clickedButtons.splice(0) ?? []) {
        button.removeAttribute("data-early-click-queued");
        if (button.isConnected) button.click();
      }
    });
  }, []);
}

/**
 * Whether the control named `name` (null: none) was clicked before hydration, and a function that marks that click as
 * handled.
 * The control shows `data-early-click-queued` (styled as busy) until then.
 */
export function useEarlyClick(name: string | null): [pending: boolean, handled: () => void] {
  const [pending, setPending] = useState(false);
  useEffect(() => {
    if (name === null) return;
    const queued = window.__kestrelBoot?.clicks;
    const index = queued?.indexOf(name) ?? -1;
    if (queued && index >= 0) {
      queued.splice(index, 1);
      setPending(true);
    }
  }, [name]);
  const handled = useCallback(() => {
    setPending(false);
    for (const control of document.querySelectorAll(`[data-early-click="${name}"][data-early-click-queued]`))
      control.removeAttribute("data-early-click-queued");
  }, [name]);
  return [pending, handled];
}
