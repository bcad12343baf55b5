import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { HELD_MODULE_TYPE } from "~/features/layout/boot/start-after-paint.boot";
import { holdModuleScripts, holdModuleScriptsByTokenizer, holdModuleScriptsIn } from "./hold-module-scripts.server";

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

  it("reads every document as parse5's tokenizer does, whole or streamed, however unusual its markup", async () => {
    // Pieces that reach the tokenizer's corners: raw text and its end tags, script escapes, comments' ends, SVG and
    // MathML, attributes quoted or not, repeated or with character references, text that is not a tag.
    const pieces = [
      "<",
      ">",
      "/",
      "!",
      "-",
      "--",
      "<!--",
      "-->",
      "--!>",
      "<!-->",
      "<!--->",
      '"',
      "'",
      "=",
      " ",
      "\n",
      "\r",
      "\t",
      "&amp;",
      "&",
      "\0",
      "a",
      "B",
      "<script>",
      "</script>",
      "<script type=module async>",
      '<script nonce="n" type="module" async="">',
      "<SCRIPT type='module'>",
      "</SCRIPT >",
      "</script/",
      "<script",
      "<style>",
      "</style>",
      "</style",
      "<title>",
      "</title>",
      "<textarea>",
      "</textarea>",
      "<noscript>",
      "<xmp>",
      "<iframe>",
      "</iframe>",
      "<plaintext>",
      '<link rel="modulepreload" href="/a.js"/>',
      "<link rel=modulepreload>",
      '<link rel="icon" rel="modulepreload">',
      '<link rel="modulepreload" rel="x">',
      "<LINK REL=MODULEPRELOAD>",
      '<link rel="module&#112;reload">',
      "<svg>",
      "</svg>",
      "<svg/>",
      "<path d='M0'/>",
      "<foreignObject>",
      "<math>",
      "</math>",
      "<div>",
      "</div>",
      "<pre>",
      "<![CDATA[",
      "]]>",
      "<!DOCTYPE html>",
      "<!doctype",
      "<?xml?>",
      "</>",
      "</ x>",
      "<a b=c d = 'e' f=\"g\"/>",
      "<a =b>",
      '<a b"c>',
      "<a b='c'd>",
      '<script type="module"async>',
      '<script type = "module" async = "">',
      "<script async type=module>",
      '<script type="module" type="x" async async>',
      "<!-- <script> -->",
      "<script><!--<script></script>--></script>",
      "x<y",
      "a</b",
    ];
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let k = 0; k < 3000; k++) {
      let html = "";
      for (let j = random(25); j >= 0; j--) html += pieces[random(pieces.length)];
      const tokenizer = holdModuleScriptsByTokenizer(html);
      expect(holdModuleScriptsIn(html), html).toBe(tokenizer);
      if (k % 20 === 0) {
        const bytes = Buffer.from(html);
        const [a, b] = [random(bytes.length + 1), random(bytes.length + 1)].sort((x, y) => x - y);
        const chunks = [bytes.subarray(0, a), bytes.subarray(a, b), bytes.subarray(b)];
        expect(await throughTransform(chunks), html).toBe(tokenizer);
      }
    }
    expect(holdModuleScriptsByTokenizer(DOCUMENT)).toBe(EXPECTED);
  });
});
