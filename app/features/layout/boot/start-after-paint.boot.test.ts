import { JSDOM } from "jsdom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import installStarter, { HELD_MODULE_TYPE, WHOLE_STYLESHEET_ATTRIBUTE } from "./start-after-paint.boot";
import starterScript from "./start-after-paint.boot.ts?boot-script";

const HELD = `<script nonce="n0nce==" type="${HELD_MODULE_TYPE}">import("/assets/entry.client-A1.js");</script>`;
const WHOLE = `<style ${WHOLE_STYLESHEET_ATTRIBUTE}="/assets/site-abc.css">p{}</style>`;

interface Options {
  head?: string;
  /** Keeps the page's `load` from arriving, as when an image is still loading. */
  slowLoad?: boolean;
  /** Installs the starter once the page has loaded rather than while it is parsed. */
  afterLoad?: boolean;
}

/**
 * A page being parsed with the starter in its body. Animation frames run only when the test says so, and timers are
 * Vitest's fake ones (jsdom's timers call Node's, which they replace); jsdom's own parsing steps run for real.
 */
async function parsingPage({ head = "", slowLoad = false, afterLoad = false }: Options = {}) {
  const { window } = new JSDOM(`<!DOCTYPE html><html><head>${head}</head><body><p>Painted</p>${HELD}</body></html>`);
  const frames: FrameRequestCallback[] = [];
  window.requestAnimationFrame = (callback) => frames.push(callback);
  let loaded = false;
  window.addEventListener("load", () => {
    loaded = true;
  });
  if (slowLoad) window.addEventListener("load", (event) => event.stopImmediatePropagation());
  if (afterLoad) await new Promise((resolve) => window.addEventListener("load", resolve));
  installStarter(window as unknown as Window & typeof globalThis);
  const started = () => [...window.document.querySelectorAll<HTMLScriptElement>('script[type="module"]')];
  return {
    window,
    started,
    /** Lets jsdom finish the document (DOMContentLoaded, then `load`, which a slow page keeps from the starter). */
    finishParsing: async () => {
      for (let turn = 0; turn < 100 && !loaded; turn++) await new Promise((resolve) => setImmediate(resolve));
      if (!loaded) throw new Error("jsdom never loaded the page");
    },
    pendingFrames: () => frames.length,
    nextFrame: () => frames.shift()?.(0),
  };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval"] });
});

afterEach(() => {
  vi.useRealTimers();
});

describe("the starter", () => {
  it("starts nothing while the page loads, then the held scripts two frames after load", async () => {
    const page = await parsingPage();
    expect(page.started()).toEqual([]);
    await page.finishParsing();
    expect(page.window.document.readyState).toBe("complete");
    expect(page.pendingFrames()).toBe(1);
    page.nextFrame();
    vi.advanceTimersByTime(0);
    expect(page.started()).toEqual([]);
    expect(page.pendingFrames()).toBe(1);
    page.nextFrame();
    expect(page.started()).toEqual([]);
    vi.advanceTimersByTime(0);
    expect(page.started()).toHaveLength(1);
  });

  it("hands each held script's text and nonce on to a module script in <head>", async () => {
    const page = await parsingPage();
    page.window.dispatchEvent(new page.window.Event("keydown"));
    const [script] = page.started();
    expect(script?.parentElement).toBe(page.window.document.head);
    expect(script?.nonce).toBe("n0nce==");
    expect(script?.textContent).toBe('import("/assets/entry.client-A1.js");');
    // The held one stays as it was: a data block nothing runs.
    expect(page.window.document.querySelectorAll(`script[type="${HELD_MODULE_TYPE}"]`)).toHaveLength(1);
  });

  it.each(["keydown", "pointerdown", "touchstart"])("starts at once at the first %s, and only once", async (type) => {
    const page = await parsingPage({ slowLoad: true });
    page.window.document.body.dispatchEvent(new page.window.Event(type, { bubbles: true }));
    expect(page.started()).toHaveLength(1);
    for (const again of ["keydown", "pointerdown", "touchstart"])
      page.window.dispatchEvent(new page.window.Event(again));
    await page.finishParsing();
    vi.advanceTimersByTime(10_000);
    while (page.pendingFrames() > 0) page.nextFrame();
    vi.advanceTimersByTime(0);
    expect(page.started()).toHaveLength(1);
  });

  it("starts 4 s after the document was parsed when load is slow", async () => {
    const page = await parsingPage({ slowLoad: true });
    await page.finishParsing();
    expect(page.window.document.readyState).toBe("complete");
    vi.advanceTimersByTime(3_999);
    expect(page.pendingFrames()).toBe(0);
    vi.advanceTimersByTime(1);
    page.nextFrame();
    page.nextFrame();
    vi.advanceTimersByTime(0);
    expect(page.started()).toHaveLength(1);
  });

  it("waits two frames straight away when the page has already loaded", async () => {
    const page = await parsingPage({ afterLoad: true });
    expect(page.pendingFrames()).toBe(1);
    page.nextFrame();
    page.nextFrame();
    vi.advanceTimersByTime(0);
    expect(page.started()).toHaveLength(1);
  });

  describe("on a page that inlines only its own rules (data-whole-stylesheet)", () => {
    const stylesheetLinks = (window: JSDOM["window"]) => [
      ...window.document.head.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]'),
    ];

    it("loads the whole stylesheet first and starts the scripts once it has loaded", async () => {
      const page = await parsingPage({ head: WHOLE });
      page.window.dispatchEvent(new page.window.Event("keydown"));
      const [link] = stylesheetLinks(page.window);
      expect(link?.getAttribute("href")).toBe("/assets/site-abc.css");
      expect(page.started()).toEqual([]);
      link?.dispatchEvent(new page.window.Event("load"));
      expect(page.started()).toHaveLength(1);
      vi.advanceTimersByTime(3_000);
      expect(page.started()).toHaveLength(1);
    });

    it("starts them when the stylesheet fails", async () => {
      const page = await parsingPage({ head: WHOLE });
      page.window.dispatchEvent(new page.window.Event("keydown"));
      stylesheetLinks(page.window)[0]?.dispatchEvent(new page.window.Event("error"));
      expect(page.started()).toHaveLength(1);
    });

    it("waits for the stylesheet 3 s at most", async () => {
      const page = await parsingPage({ head: WHOLE });
      page.window.dispatchEvent(new page.window.Event("keydown"));
      vi.advanceTimersByTime(2_999);
      expect(page.started()).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(page.started()).toHaveLength(1);
      expect(stylesheetLinks(page.window)).toHaveLength(1);
    });
  });

  it("adds no stylesheet to a page that inlines the whole one", async () => {
    const page = await parsingPage({ head: "<style>p{}</style>" });
    page.window.dispatchEvent(new page.window.Event("keydown"));
    expect(page.window.document.querySelectorAll("link")).toHaveLength(0);
    expect(page.started()).toHaveLength(1);
  });
});

describe("the compiled starter (what the document inlines)", () => {
  it("is one small classic script that starts the held scripts when run in a page", () => {
    expect(starterScript).not.toMatch(/\bimport\b|\bexport\b/);
    expect(starterScript.length).toBeLessThan(1_000);
    const { window } = new JSDOM(`<!DOCTYPE html><body><script>${starterScript}</script>${HELD}</body>`, {
      runScripts: "dangerously",
      pretendToBeVisual: true,
    });
    window.dispatchEvent(new window.Event("keydown"));
    expect(window.document.head.querySelectorAll('script[type="module"]')).toHaveLength(1);
  });
});
