import type { BootState } from "./boot-state";

/**
 * Records clicks and radio choices made after the first paint but before React has hydrated the page, for the app to
 * carry out once it is ready (`early-clicks.tsx`). Runs first in `<body>`, compiled into an inline script at build
 * (`boot-scripts.build.ts`). A button named `data-early-click="<name>"` is queued by name for the component that asks
 * for it; any other `<button type="button">` (they all need JavaScript) is kept to be clicked again. Links, GET forms
 * and `<details>` work without JavaScript and are left alone, but a followed `#hash` link is noted so its target can
 * get focus. Once `entry.client.tsx` says the framework is attached, React handles (and replays) events itself.
 */
export default function installEarlyClickRecorder(win: Window & typeof globalThis): void {
  const { document } = win;
  const record = (event: Event) => {
    if (boot.frameworkAttached) return;
    const target = event.target instanceof win.Element ? event.target : null;
    const hashLink = target?.closest('a[href^="#"]');
    if (hashLink) {
      boot.hashLink = hashLink.getAttribute("href");
      return;
    }
    const control = target?.closest<HTMLElement>('[data-early-click],button[type="button"]');
    if (!control) return;
    const name = control.getAttribute("data-early-click");
    if (name === null) {
      if (!boot.clickedButtons.includes(control)) boot.clickedButtons.push(control);
    } else if (!boot.clicks.includes(name)) boot.clicks.push(name);
    control.setAttribute("data-early-click-queued", "");
  };
  const choose = (event: Event) => {
    if (boot.frameworkAttached) return;
    const input = event.target;
    if (input instanceof win.HTMLInputElement && input.hasAttribute("data-early-choice"))
      boot.choices[input.name] = input.value;
  };
  const boot: BootState = {
    clicks: [],
    clickedButtons: [],
    hashLink: null,
    choices: {},
    frameworkAttached: false,
    stop() {
      document.removeEventListener("click", record, true);
      document.removeEventListener("change", choose, true);
    },
  };
  win.__kestrelBoot = boot;
  document.addEventListener("click", record, true);
  document.addEventListener("change", choose, true);
}
