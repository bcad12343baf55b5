import type { BootState, EarlyFieldEdit } from "./boot-state";

/** Fields someone types into or chooses in: not buttons, hidden inputs, or files (a script cannot set those). */
const EDITED_FIELD = /^(INPUT|SELECT|TEXTAREA)$/;
const UNEDITED_INPUT = /^(button|submit|reset|image|hidden|file)$/;

/**
 * Records clicks and field edits made after the first paint but before React has hydrated the page, for the app to
 * carry out once it is ready (`early-clicks.tsx`, `early-fields.ts`). Runs first in `<body>`, compiled into an inline
 * script at build (`boot-scripts.build.ts`). A button named `data-early-click="<name>"` is queued by name for the
 * component that asks for it; any other `<button type="button">` (they all need JavaScript) is kept to be clicked
 * again. Links, GET forms and `<details>` work without JavaScript and are left alone, but a followed `#hash` link is
 * noted so its target can get focus. Once `entry.client.tsx` says the framework is attached, React handles (and
 * replays) clicks itself. Field edits are kept until `stop()`, after hydration: a key pressed while React hydrates
 * lands in a field whose change tracking already counts it, so React alone would never report it.
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
  const edit = (event: Event) => {
    const field = event.target as EarlyFieldEdit["field"];
    if (!EDITED_FIELD.test(field.tagName) || UNEDITED_INPUT.test(field.type)) return;
    // A text field's change event (on leaving it) repeats its last input: it keeps its place among the edits.
    const last = boot.fields.find((earlier) => earlier.field === field);
    if (last && event.type === "change" && last.value === field.value) return;
    // One entry per field, and per radio group (only the chosen radio reports a change), the latest edit last.
    boot.fields = boot.fields.filter(
      ({ field: earlier }) =>
        earlier !== field &&
        !(
          field.type === "radio" &&
          earlier.type === "radio" &&
          earlier.name === field.name &&
          earlier.form === field.form
        ),
    );
    let selection: EarlyFieldEdit["selection"] = null;
    try {
      // A number field has no caret: null, or a throw in older browsers.
      if ("selectionEnd" in field && typeof field.selectionEnd === "number")
        selection = [field.selectionStart ?? field.selectionEnd, field.selectionEnd];
    } catch {}
    boot.fields.push({ field, value: field.value, checked: (field as HTMLInputElement).checked === true, selection });
  };
  const boot: BootState = {
    clicks: [],
    clickedButtons: [],
    hashLink: null,
    fields: [],
    frameworkAttached: false,
    stop() {
      document.removeEventListener("click", record, true);
      document.removeEventListener("input", edit, true);
      document.removeEventListener("change", edit, true);
    },
  };
  win.__kestrelBoot = boot;
  document.addEventListener("click", record, true);
  document.addEventListener("input", edit, true);
  document.addEventListener("change", edit, true);
}
