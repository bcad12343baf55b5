/**
 * What the boot scripts leave for the app: the one global they share with it, set by the early-click recorder
 * (`early-clicks.boot.ts`) while the page is painted but not yet hydrated.
 */
export interface BootState {
  /** Names of the `data-early-click` controls clicked before hydration, each once, in order. */
  clicks: string[];
  /** Other `<button type="button">`s clicked before hydration, to be clicked again once React handles them. */
  clickedButtons: HTMLElement[];
  /** A `#hash` link followed before hydration: the browser jumped there; focus follows once the page is ready. */
  hashLink: string | null;
  /**
   * Form fields typed into or chosen in before the page was ready, one entry per field (one per radio group), the
   * latest edit last: replayed as if made afterwards once React handles the page (`early-fields.ts`).
   */
  fields: EarlyFieldEdit[];
  /** Set by `entry.client.tsx` right before hydrating: from then on React handles (and replays) events itself. */
  frameworkAttached: boolean;
  /** Takes the recorder's listeners off the document (fields are recorded until then, clicks only until hydrating). */
  stop(): void;
}

/** A field's value (or, for a checkbox or radio, checked state) and caret as the person left it at their last edit. */
export interface EarlyFieldEdit {
  field: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  value: string;
  checked: boolean;
  /** Caret or selection in a text field (start, end); null where the field has none (number, select). */
  selection: [number, number] | null;
}

declare global {
  interface Window {
    __kestrelBoot?: BootState;
  }
}
