/**
 * The type the server gives React Router's module script (`app/http/hold-module-scripts.server.ts`): a type browsers
 * do not run and whose imports the preload scanner does not fetch, so the page paints before any framework code
 * competes with it.
 */
export const HELD_MODULE_TYPE = "text/x-module-after-paint";

/**
 * Set by the render cache on a page that inlines only the rules it uses (docs/decisions/013): the whole stylesheet's
 * URL, which the starter loads before the framework starts.
 */
export const WHOLE_STYLESHEET_ATTRIBUTE = "data-whole-stylesheet";

const INTERACTIONS = ["pointerdown", "keydown", "touchstart"] as const;

/**
 * Starts the held module scripts two frames after the page's `load` (its images are in and painted by then), at the
 * first key press, pointer or touch (the person is here: their click is kept by the early-click recorder), or 4 s after
 * the document was parsed if `load` is slow, whichever comes first. A hidden tab paints no frames and starts when
 * shown. A page that inlines only its own rules gets the whole stylesheet first, so nothing the client renders later
 * is ever unstyled; a stylesheet that neither loads nor fails within 3 s does not hold the page back. Runs in
 * `<body>` under the response's nonce, which it hands on to the scripts it starts.
 */
export default function installStarter(win: Window & typeof globalThis): void {
  const { document } = win;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const type of INTERACTIONS) win.removeEventListener(type, start, true);
    let ran = false;
    const run = () => {
      if (ran) return;
      ran = true;
      for (const held of document.querySelectorAll<HTMLScriptElement>(`script[type="${HELD_MODULE_TYPE}"]`)) {
        const script = document.createElement("script");
        script.type = "module";
        script.nonce = held.nonce;
        script.textContent = held.textContent;
        document.head.append(script);
      }
    };
    const whole = document
      .querySelector(`style[${WHOLE_STYLESHEET_ATTRIBUTE}]`)
      ?.getAttribute(WHOLE_STYLESHEET_ATTRIBUTE);
    if (!whole) return run();
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = whole;
    link.onload = link.onerror = run;
    win.setTimeout(run, 3000);
    document.head.append(link);
  };
  const afterTwoFrames = () =>
    win.requestAnimationFrame(() => win.requestAnimationFrame(() => win.setTimeout(start, 0)));
  for (const type of INTERACTIONS) win.addEventListener(type, start, { capture: true, passive: true });
  if (document.readyState === "complete") afterTwoFrames();
  else win.addEventListener("load", afterTwoFrames, { once: true });
  win.addEventListener("DOMContentLoaded", () => win.setTimeout(afterTwoFrames, 4000), { once: true });
}
