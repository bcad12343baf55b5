import { useContext } from "react";
import { InlineStylesheetContext, WHOLE_STYLESHEET_ATTRIBUTE } from "./inline-stylesheet";

/**
 * The type the server gives React Router's module script (`app/http/hold-module-scripts.server.ts`): a type browsers
 * do not run and whose imports the preload scanner does not fetch, so the page paints before any framework code
 * competes with it.
 */
export const HELD_MODULE_TYPE = "text/x-module-after-paint";

// Starts the held module scripts two frames after the page's `load` (its images are in and painted by then), at the
// first key press, pointer or touch (the person is here: their click is kept by early-clicks.tsx), or 4 s after the
// document was parsed if `load` is slow, whichever comes first. A hidden tab paints no frames and starts when shown.
// A page that inlines only its own rules gets the whole stylesheet first (docs/decisions/013), so nothing the client
// renders later is ever unstyled; a stylesheet that neither loads nor fails within 3 s does not hold the page back.
const BOOT_SCRIPT = `(()=>{let started=false;const start=()=>{if(started)return;started=true;for(const t of["pointerdown","keydown","touchstart"])removeEventListener(t,start,true);let ran=false;const run=()=>{if(ran)return;ran=true;for(const held of document.querySelectorAll('script[type="${HELD_MODULE_TYPE}"]')){const s=document.createElement("script");s.type="module";s.nonce=held.nonce;s.textContent=held.textContent;document.head.append(s);}};const whole=document.querySelector("style[${WHOLE_STYLESHEET_ATTRIBUTE}]")?.getAttribute("${WHOLE_STYLESHEET_ATTRIBUTE}");if(!whole)return run();const link=document.createElement("link");link.rel="stylesheet";link.href=whole;link.onload=link.onerror=run;setTimeout(run,3000);document.head.append(link);};const afterTwoFrames=()=>requestAnimationFrame(()=>requestAnimationFrame(()=>setTimeout(start,0)));for(const t of["pointerdown","keydown","touchstart"])addEventListener(t,start,{capture:true,passive:true});if(document.readyState==="complete")afterTwoFrames();else addEventListener("load",afterTwoFrames,{once:true});addEventListener("DOMContentLoaded",()=>setTimeout(afterTwoFrames,4000),{once:true});})();`;

/** The starter: in `<body>`, under the response's CSP nonce, which it hands on to the scripts it starts. */
export function BootAfterPaint() {
  const nonce = useContext(InlineStylesheetContext)?.nonce;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script of ours; hydration keeps the server's element.
  return <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: BOOT_SCRIPT }} />;
}
