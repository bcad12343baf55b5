import { useCallback, useContext, useEffect, useState } from "react";
import { InlineStylesheetContext } from "./inline-stylesheet";

/**
 * Clicks made after the first paint but before React has hydrated the page are remembered here and carried out once
 * the page is ready, instead of being lost. A button named `data-early-click="<name>"` is handled by the component
 * that asks for that name (`Purchase Now` waits for its captcha); any other `<button type="button">` (they all need
 * JavaScript) is clicked again once React handles it. Choices in radio groups marked `data-early-choice` are kept too
 * (React keeps the server's checked state when it hydrates). Links, GET forms and `<details>` work without JavaScript
 * and are left alone; a `#hash` link's target also gets focus once the page is ready (`useSmoothHashLinks`). Once React's root exists it handles (and replays) events itself, so the recorder steps aside.
 */
const EARLY_CLICKS_SCRIPT = `(()=>{const q=(window.__earlyClicks=[]);const hydrating=()=>Object.keys(document).some((k)=>k.startsWith("__reactContainer$"));const buttons=(window.__earlyClickedButtons=[]);const record=(e)=>{if(hydrating())return;const hashLink=e.target instanceof Element?e.target.closest('a[href^="#"]'):null;if(hashLink){window.__earlyHashLink=hashLink.getAttribute("href");return;}const c=e.target instanceof Element?e.target.closest('[data-early-click],button[type="button"]'):null;if(!c)return;const n=c.getAttribute("data-early-click");if(n===null){if(!buttons.includes(c))buttons.push(c);}else if(!q.includes(n))q.push(n);c.setAttribute("data-early-click-queued","");};const choices=(window.__earlyChoices={});const choose=(e)=>{if(hydrating())return;const t=e.target;if(t instanceof HTMLInputElement&&t.hasAttribute("data-early-choice"))choices[t.name]=t.value;};document.addEventListener("click",record,true);document.addEventListener("change",choose,true);window.__stopEarlyClicks=()=>{document.removeEventListener("click",record,true);document.removeEventListener("change",choose,true);};})();`;

declare global {
  interface Window {
    __earlyClicks?: string[];
    __earlyClickedButtons?: HTMLElement[];
    /** A `#hash` link followed before hydration: the browser jumped there; focus follows once the page is ready. */
    __earlyHashLink?: string | null;
    __earlyChoices?: Record<string, string>;
    __stopEarlyClicks?: () => void;
  }
}

/** The recorder: first thing in `<body>`, under the response's CSP nonce. */
export function EarlyClickRecorder() {
  const nonce = useContext(InlineStylesheetContext)?.nonce;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script of ours; hydration keeps the server's element.
  return <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: EARLY_CLICKS_SCRIPT }} />;
}

/**
 * The page has hydrated: later clicks are React's, and buttons clicked too early are clicked again now. Called from
 * the root, whose effects run after every child's, so each button's handler and state are in place.
 */
export function useReplayEarlyClicks() {
  useEffect(() => {
    window.__stopEarlyClicks?.();
    for (const button of window.__earlyClickedButtons?.splice(0) ?? []) {
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
    const queued = window.__earlyClicks;
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
    const choices = window.__earlyChoices;
    const value = choices?.[name];
    if (choices && value !== undefined) {
      delete choices[name];
      setChoice(value);
    }
  }, [name]);
  return choice;
}
