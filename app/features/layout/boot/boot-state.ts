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
  /** Choices made in radio groups marked `data-early-choice` before hydration, by group name. */
  choices: Record<string, string>;
  /** Set by `entry.client.tsx` right before hydrating: from then on React handles (and replays) events itself. */
  frameworkAttached: boolean;
  /** Takes the recorder's listeners off the document. */
  stop(): void;
}

declare global {
  interface Window {
    __kestrelBoot?: BootState;
  }
}
