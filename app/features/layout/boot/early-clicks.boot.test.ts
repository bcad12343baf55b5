import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import installEarlyClickRecorder from "./early-clicks.boot";
import recorderScript from "./early-clicks.boot.ts?boot-script";

const CONTROLS = `
  <button type="button" data-early-click="purchase">Purchase <span>Now</span></button>
  <button type="button" data-early-click="chat">Open support chat</button>
  <button type="button" id="pause">Pause animation</button>
  <form><button type="submit" id="search">Search</button></form>
  <a href="/faq" id="faq">FAQ</a>
  <nav><a href="#app-crashing"><span id="toc-entry">App Crashing</span></a></nav>
  <fieldset>
    <input type="radio" name="duration" value="month" data-early-choice checked>
    <input type="radio" name="duration" value="lifetime" data-early-choice id="lifetime">
    <input type="radio" name="plain" value="a" id="plain">
  </fieldset>`;

/** A painted page, not yet hydrated, with the recorder installed as the first thing in its body. */
function paintedPage(body = CONTROLS) {
  const { window } = new JSDOM(`<!DOCTYPE html><html><body>${body}</body></html>`);
  installEarlyClickRecorder(window as unknown as Window & typeof globalThis);
  const boot = window.__kestrelBoot;
  if (!boot) throw new Error("the recorder set no __kestrelBoot");
  const element = (selector: string) => {
    const found = window.document.querySelector<HTMLElement>(selector);
    if (!found) throw new Error(`no ${selector}`);
    return found;
  };
  return { window, boot, element };
}

describe("the early-click recorder", () => {
  it("queues each named control once, in the order first clicked, and marks it as waiting", () => {
    const { boot, element } = paintedPage();
    element('[data-early-click="chat"]').click();
    element('[data-early-click="purchase"] span').click();
    element('[data-early-click="chat"]').click();
    expect(boot.clicks).toEqual(["chat", "purchase"]);
    expect(element('[data-early-click="purchase"]').hasAttribute("data-early-click-queued")).toBe(true);
    expect(element('[data-early-click="chat"]').hasAttribute("data-early-click-queued")).toBe(true);
    expect(boot.clickedButtons).toEqual([]);
  });

  it("keeps any other type=button button, once, to be clicked again once React handles it", () => {
    const { boot, element } = paintedPage();
    const pause = element("#pause");
    pause.click();
    pause.click();
    expect(boot.clickedButtons).toEqual([pause]);
    expect(pause.hasAttribute("data-early-click-queued")).toBe(true);
    expect(boot.clicks).toEqual([]);
  });

  it("leaves what works without JavaScript alone: links, submit buttons, other elements", () => {
    const { boot, element } = paintedPage();
    element("#faq").addEventListener("click", (event) => event.preventDefault());
    element("#faq").click();
    element("#search").addEventListener("click", (event) => event.preventDefault());
    element("#search").click();
    element("fieldset").click();
    expect(boot.clicks).toEqual([]);
    expect(boot.clickedButtons).toEqual([]);
    expect(boot.hashLink).toBeNull();
    expect(element("#search").hasAttribute("data-early-click-queued")).toBe(false);
  });

  it("notes the #hash link followed, so its target can get focus once the page is ready", () => {
    const { boot, element } = paintedPage();
    element("#toc-entry").click();
    expect(boot.hashLink).toBe("#app-crashing");
    expect(boot.clickedButtons).toEqual([]);
  });

  it("records the choice made in a radio group marked data-early-choice, and only there", () => {
    const { boot, element } = paintedPage();
    element("#lifetime").click();
    element("#plain").click();
    expect(boot.choices).toEqual({ duration: "lifetime" });
  });

  it("records nothing once entry.client.tsx says the framework is attached (React replays events itself)", () => {
    const { boot, element } = paintedPage();
    boot.frameworkAttached = true;
    element('[data-early-click="purchase"]').click();
    element("#pause").click();
    element("#lifetime").click();
    expect(boot.clicks).toEqual([]);
    expect(boot.clickedButtons).toEqual([]);
    expect(boot.choices).toEqual({});
    expect(element('[data-early-click="purchase"]').hasAttribute("data-early-click-queued")).toBe(false);
  });

  it("takes its listeners off the document on stop()", () => {
    const { boot, element } = paintedPage();
    boot.stop();
    element('[data-early-click="purchase"]').click();
    element("#toc-entry").click();
    element("#lifetime").click();
    expect(boot.clicks).toEqual([]);
    expect(boot.hashLink).toBeNull();
    expect(boot.choices).toEqual({});
  });

  it("shares one global with the app, and nothing else", () => {
    const before = new Set(Object.keys(new JSDOM("").window));
    const { window } = paintedPage("<p>Painted</p>");
    expect(Object.keys(window).filter((key) => !before.has(key))).toEqual(["__kestrelBoot"]);
  });
});

describe("the compiled recorder (what the document inlines)", () => {
  it("is one small classic script that records a click when run in a page", () => {
    expect(recorderScript).not.toMatch(/\bimport\b|\bexport\b/);
    expect(recorderScript.length).toBeLessThan(1_000);
    const { window } = new JSDOM(`<!DOCTYPE html><body><script>${recorderScript}</script>${CONTROLS}</body>`, {
      runScripts: "dangerously",
    });
    window.document.querySelector<HTMLElement>('[data-early-click="chat"]')?.click();
    expect(window.__kestrelBoot?.clicks).toEqual(["chat"]);
  });
});
