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
    <input type="radio" name="duration" value="month" id="month" checked>
    <input type="radio" name="duration" value="lifetime" id="lifetime">
  </fieldset>
  <input type="number" id="quantity" value="1">
  <input type="search" id="q" value="">
  <input type="checkbox" id="terms">
  <input type="hidden" id="hidden" value="x">
  <input type="submit" id="send" value="Send">
  <select id="sort"><option value="featured">Featured</option><option value="price">Price</option></select>
  <textarea id="reply"></textarea>`;

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

  it("records each field edited, once, the latest edit last, with its value, checked state and caret", () => {
    const { window, boot, element } = paintedPage();
    const type = (selector: string, value: string) => {
      const field = element(selector) as HTMLInputElement;
      field.value = value;
      field.dispatchEvent(new window.Event("input", { bubbles: true }));
    };
    type("#q", "stu");
    type("#quantity", "3");
    type("#q", "studio");
    element("#terms").click();
    (element("#sort") as HTMLSelectElement).value = "price";
    element("#sort").dispatchEvent(new window.Event("change", { bubbles: true }));
    type("#reply", "Hello");
    expect(boot.fields.map(({ field, value, checked }) => [field.id, value, checked])).toEqual([
      ["quantity", "3", false],
      ["q", "studio", false],
      ["terms", "on", true],
      ["sort", "price", false],
      ["reply", "Hello", false],
    ]);
    expect(boot.fields.find(({ field }) => field.id === "q")?.selection).toEqual([6, 6]);
    expect(boot.fields.find(({ field }) => field.id === "quantity")?.selection).toBeNull();
    expect(boot.clickedButtons).toEqual([]);
  });

  it("keeps a text field's place when its change event (on leaving it) repeats what was typed", () => {
    const { window, boot, element } = paintedPage();
    const q = element("#q") as HTMLInputElement;
    q.value = "studio";
    q.dispatchEvent(new window.Event("input", { bubbles: true }));
    (element("#sort") as HTMLSelectElement).value = "price";
    element("#sort").dispatchEvent(new window.Event("change", { bubbles: true }));
    q.dispatchEvent(new window.Event("change", { bubbles: true }));
    expect(boot.fields.map(({ field }) => field.id)).toEqual(["q", "sort"]);
  });

  it("keeps one entry per radio group: the radio chosen last", () => {
    const { boot, element } = paintedPage();
    element("#lifetime").click();
    element("#month").click();
    element("#lifetime").click();
    expect(boot.fields.map(({ field, checked }) => [field.id, checked])).toEqual([["lifetime", true]]);
  });

  it("leaves out inputs no one types into: hidden, submit", () => {
    const { window, boot, element } = paintedPage();
    for (const id of ["#hidden", "#send"]) element(id).dispatchEvent(new window.Event("input", { bubbles: true }));
    expect(boot.fields).toEqual([]);
  });

  it("records no click once entry.client.tsx says the framework is attached (React replays clicks itself)", () => {
    const { boot, element } = paintedPage();
    boot.frameworkAttached = true;
    element('[data-early-click="purchase"]').click();
    element("#pause").click();
    expect(boot.clicks).toEqual([]);
    expect(boot.clickedButtons).toEqual([]);
    expect(element('[data-early-click="purchase"]').hasAttribute("data-early-click-queued")).toBe(false);
  });

  it("goes on recording field edits while React hydrates (its tracker would already count a key pressed then)", () => {
    const { boot, element } = paintedPage();
    boot.frameworkAttached = true;
    element("#lifetime").click();
    expect(boot.fields.map(({ field }) => field.id)).toEqual(["lifetime"]);
  });

  it("takes its listeners off the document on stop()", () => {
    const { boot, element } = paintedPage();
    boot.stop();
    element('[data-early-click="purchase"]').click();
    element("#toc-entry").click();
    element("#lifetime").click();
    expect(boot.clicks).toEqual([]);
    expect(boot.hashLink).toBeNull();
    expect(boot.fields).toEqual([]);
  });

  it("shares one global with the app, and nothing else", () => {
    const before = new Set(Object.keys(new JSDOM("").window));
    const { window } = paintedPage("<p>Painted</p>");
    expect(Object.keys(window).filter((key) => !before.has(key))).toEqual(["__kestrelBoot"]);
  });
});

describe("the compiled recorder (what the document inlines)", () => {
  it("is one small classic script that records a click and a field edit when run in a page", () => {
    expect(recorderScript).not.toMatch(/\bimport\b|\bexport\b/);
    // Every page carries it: 878 characters with clicks alone, ~1,260 since it records field edits too (issue 43).
    expect(recorderScript.length).toBeLessThan(1_400);
    const { window } = new JSDOM(`<!DOCTYPE html><body><script>${recorderScript}</script>${CONTROLS}</body>`, {
      runScripts: "dangerously",
    });
    window.document.querySelector<HTMLElement>('[data-early-click="chat"]')?.click();
    expect(window.__kestrelBoot?.clicks).toEqual(["chat"]);
    const quantity = window.document.querySelector<HTMLInputElement>("#quantity");
    if (quantity) quantity.value = "3";
    quantity?.dispatchEvent(new window.Event("input", { bubbles: true }));
    expect(window.__kestrelBoot?.fields.map(({ value }) => value)).toEqual(["3"]);
  });
});
