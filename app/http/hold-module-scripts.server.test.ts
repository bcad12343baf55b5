import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { HELD_MODULE_TYPE } from "~/features/layout/boot/start-after-paint.boot";
import { holdModuleScripts, holdModuleScriptsIn } from "./hold-module-scripts.server";

// The shape React Router's <Scripts> renders (React hoists the preloads into <head>), with a multi-byte character.
const DOCUMENT = [
  '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/><link rel="modulepreload" href="/assets/entry.client-A1.js" nonce="n0nce=="/>',
  '<link rel="modulepreload" href="/assets/root-B2.js" nonce="n0nce=="/><link rel="icon" href="/favicon.svg"/></head>',
  '<body><script nonce="n0nce==">boot()</script><main>Prices in €, “quoted”</main><script type="application/ld+json">{"a":1}</script>',
  '<script nonce="n0nce==" type="module" async="">import * as route0 from "/assets/root-B2.js";\nimport("/assets/entry.client-A1.js");</script>',
  '<script nonce="n0nce==">window.__reactRouterContext.streamController.close();</script></body></html>',
].join("");

const EXPECTED = DOCUMENT.replace(/<link rel="modulepreload"[^>]*>/g, "").replace(
  'type="module" async=""',
  `type="${HELD_MODULE_TYPE}"`,
);

async function throughTransform(chunks: Buffer[]): Promise<string> {
  return text(Readable.from(chunks).pipe(holdModuleScripts()));
}

describe("holding the module scripts until after the first paint", () => {
  it("drops the module preloads, holds the module script and leaves every other element as it was", () => {
    const held = holdModuleScriptsIn(DOCUMENT);
    expect(held).toBe(EXPECTED);
    expect(held).not.toContain("modulepreload");
    expect(held).not.toContain('type="module"');
    expect(held).toContain('<link rel="icon" href="/favicon.svg"/>');
    expect(held).toContain('<script type="application/ld+json">{"a":1}</script>');
    // A data block may not be async (the Nu Html Checker says so).
    expect(held).toContain(`<script nonce="n0nce==" type="${HELD_MODULE_TYPE}">import * as route0`);
  });

  it("gives the same document however the stream is cut, even inside a tag or a multi-byte character", async () => {
    const bytes = Buffer.from(DOCUMENT);
    for (let cut = 0; cut <= bytes.length; cut++) {
      expect(await throughTransform([bytes.subarray(0, cut), bytes.subarray(cut)])).toBe(EXPECTED);
    }
    const oneByteAtATime = [...bytes].map((byte) => Buffer.from([byte]));
    expect(await throughTransform(oneByteAtATime)).toBe(EXPECTED);
  });

  it("passes a document without module scripts through unchanged", async () => {
    const plain = "<!DOCTYPE html><html><body><p>1 < 2</p><p>a > b</p></body></html>";
    expect(await throughTransform([Buffer.from(plain)])).toBe(plain);
  });
});
