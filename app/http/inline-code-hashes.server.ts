import crypto from "node:crypto";
import { HELD_MODULE_TYPE } from "~/features/layout/boot/start-after-paint.boot";

/** A stored render whose inline code is allowed by hash, and the CSP sources that allow it. */
export interface HashAllowedPage {
  html: string;
  /** `'sha256-…'` of each inline script that lost its nonce (the held module script's text included). */
  scriptHashes: string[];
  /** `'sha256-…'` of each inline stylesheet that lost its nonce. */
  styleHashes: string[];
}

export const cspHash = (text: string) => `'sha256-${crypto.createHash("sha256").update(text).digest("base64")}'`;

/**
 * A cached page's inline scripts and stylesheet allowed by their hashes instead of the nonce, which stays on the last
 * element only (docs/decisions/019): the page is then the same bytes for every response up to that one slot near its
 * end, so it can be compressed once, as well as brotli can, and the nonce goes in uncompressed. The nonce that stays
 * is still in the CSP for what the page adds at run time (the checkout dialog's scroll lock stamps it on a <style>).
 * The held module script is hashed too: the starter inserts a module script with its text after the first paint.
 */
export function allowInlineCodeByHash(html: string, nonce: string): HashAllowedPage {
  const attribute = ` nonce="${nonce}"`;
  const positions: number[] = [];
  for (let at = html.indexOf(attribute); at !== -1; at = html.indexOf(attribute, at + attribute.length))
    positions.push(at);
  if (positions.length < 2) return { html, scriptHashes: [], styleHashes: [] };
  const scriptHashes: string[] = [];
  const styleHashes: string[] = [];
  let output = "";
  let copied = 0;
  // Every occurrence but the last: the nonce is random per render, so it is only ever in the attributes we wrote.
  for (const at of positions.slice(0, -1)) {
    const tagStart = html.lastIndexOf("<", at);
    const tagName = /^<(script|style)[\s>]/.exec(html.slice(tagStart, tagStart + 8))?.[1];
    const tagEnd = html.indexOf(">", at + attribute.length);
    output += html.slice(copied, at);
    copied = at + attribute.length;
    if (!tagName || tagEnd === -1) continue;
    // Script and style text ends at the first end tag (React Router and our boot scripts never write "</" in them);
    // the browser hashes that text as written. A wrong guess would only make the CSP refuse it, which the sweeps catch.
    const textEnd = html.indexOf(`</${tagName}`, tagEnd);
    if (textEnd === -1) continue;
    const hash = cspHash(html.slice(tagEnd + 1, textEnd));
    const type = /\stype="([^"]*)"/.exec(html.slice(tagStart, tagEnd))?.[1];
    if (tagName === "style") {
      if (!styleHashes.includes(hash)) styleHashes.push(hash);
    } else if (type === undefined || type === "module" || type === HELD_MODULE_TYPE) {
      // A data block (JSON-LD) never runs; the held module script does, once the starter copies it.
      if (!scriptHashes.includes(hash)) scriptHashes.push(hash);
    }
  }
  return { html: output + html.slice(copied), scriptHashes, styleHashes };
}

/** The CSP with `hashes` beside the nonce in `directive` (script-src, style-src). */
export function withHashSources(csp: string, directive: string, nonce: string, hashes: string[]): string {
  if (hashes.length === 0) return csp;
  return csp
    .split("; ")
    .map((part) =>
      part.startsWith(`${directive} `)
        ? part.replace(`'nonce-${nonce}'`, `'nonce-${nonce}' ${hashes.join(" ")}`)
        : part,
    )
    .join("; ");
}
