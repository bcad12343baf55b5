import { useCallback, useContext, useEffect, useState } from "react";
import recorderScript from "./boot/early-clicks.boot.ts?boot-script";
import { InlineStylesheetContext } from "./inline-stylesheet";

/**
 * Clicks and radio choices made after the first paint but before React has hydrated the page are recorded by the
 * inline recorder (`boot/early-clicks.boot.ts`, compiled at build) and carried out here once the page is ready, instead
 * of being lost. A button named `data-early-click="<name>"` is handled by the component that asks for that name
 * (`Purchase Now` waits for its captcha); any other `<button type="button">` is clicked again once React handles it. A
 * `#hash` link's target gets focus once the page is ready (`useSmoothHashLinks`).
 *
 * This renders the recorder: first thing in `<body>`, under the response's CSP nonce.
 */
export function EarlyClickRecorder() {
  const nonce = useContext(InlineStylesheetContext)?.nonce;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: a compiled boot module of ours; hydration keeps it as is.
  return <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: recorderScript }} />;
}

/**
 * The page has hydrated: later clicks are React's, and buttons clicked too early are clicked again now. Called from
 * the root, whose effects run after every child's, so each button's handler and state are in place.
 */
export function useReplayEarlyClicks() {
  useEffect(() => {
    window.__kestrelBoot?.stop();
    for (const button of window.__kestrelBoot?.clickedButtons.splice(0) ?? []) {
      button.removeAttribute("data-early-click-queued");
      if (button.isConnected) button.click();
    }
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

/** The value picked in the radio group `name` (inputs marked `data-early-choice`) before hydration, taken once; or null. */
export function useEarlyChoice(name: string): string | null {
  const [choice, setChoice] = useState<string | null>(null);
  useEffect(() => {
    const choices = window.__kestrelBoot?.choices;
    const value = choices?.[name];
    if (choices && value !== undefined) {
      delete choices[name];
      setChoice(value);
    }
  }, [name]);
  return choice;
}
