import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { HELD_MODULE_TYPE } from "~/features/layout/boot/start-after-paint.boot";
import { allowInlineCodeByHash, cspHash, withHashSources } from "./inline-code-hashes.server";

const sha256 = (text: string) => `'sha256-${crypto.createHash("sha256").update(text, "utf8").digest("base64")}'`;
const N = "n0nce+/==";
const page = [
  `<!DOCTYPE html><html><head><style id="site-css" nonce="${N}" data-whole-stylesheet="/s.css">.a>b{color:red}</style>`,
  `<script nonce="${N}">boot("</p>")</script><script type="application/ld+json">{"a":"ü"}</script></head>`,
  `<body><p nonce="elsewhere">Prices in €</p><script nonce="${N}" type="${HELD_MODULE_TYPE}">import * as r from "/r.js";</script>`,
  `<script nonce="${N}">enqueue("[\\"ü\\"]")</script><script nonce="${N}">close();</script></body></html>`,
].join("");

describe("allowInlineCodeByHash", () => {
  const { html, scriptHashes, styleHashes } = allowInlineCodeByHash(page, N);

  it("keeps the nonce on the last element only, and leaves every other byte as it was", () => {
    expect(html.split(`nonce="${N}"`)).toHaveLength(2);
    expect(html).toContain(`<script nonce="${N}">close();</script></body></html>`);
    expect(html.replaceAll(` nonce="${N}"`, "")).toBe(page.replaceAll(` nonce="${N}"`, ""));
    expect(html).toContain('<p nonce="elsewhere">');
  });

  it("hashes the stylesheet and each script that lost its nonce as the browser will (UTF-8 text as written)", () => {
    expect(styleHashes).toEqual([sha256(".a>b{color:red}")]);
    expect(scriptHashes).toEqual([
      sha256('boot("</p>")'),
      sha256('import * as r from "/r.js";'),
      sha256('enqueue("[\\"ü\\"]")'),
    ]);
    // A data block never runs, so it needs no hash; the script that keeps the nonce needs none either.
    expect(scriptHashes).not.toContain(sha256('{"a":"ü"}'));
    expect(scriptHashes).not.toContain(sha256("close();"));
    expect(cspHash("")).toBe(sha256(""));
  });

  it("leaves a page with one nonced element (or none) as it is", () => {
    const one = `<p>x</p><script nonce="${N}">close();</script>`;
    expect(allowInlineCodeByHash(one, N)).toEqual({ html: one, scriptHashes: [], styleHashes: [] });
    expect(allowInlineCodeByHash("<p>x</p>", N).html).toBe("<p>x</p>");
  });
});

describe("withHashSources", () => {
  it("puts the hashes beside the nonce of the one directive named", () => {
    const csp = `default-src 'self'; script-src 'nonce-${N}' 'strict-dynamic'; style-src 'self' 'nonce-${N}'`;
    expect(withHashSources(csp, "script-src", N, ["'sha256-a'", "'sha256-b'"])).toBe(
      `default-src 'self'; script-src 'nonce-${N}' 'sha256-a' 'sha256-b' 'strict-dynamic'; style-src 'self' 'nonce-${N}'`,
    );
    expect(withHashSources(csp, "style-src", N, ["'sha256-c'"])).toBe(
      `default-src 'self'; script-src 'nonce-${N}' 'strict-dynamic'; style-src 'self' 'nonce-${N}' 'sha256-c'`,
    );
    expect(withHashSources(csp, "script-src", N, [])).toBe(csp);
  });
});
