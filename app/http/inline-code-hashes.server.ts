import crypto from "node:crypto";
import { RewritingStream } from "parse5-html-rewriting-stream";
import { HELD_MODULE_TYPE } from "~/features/layout/boot/start-after-paint.boot";

/** What is read of parse5's start tag token: its attributes and where each one is in the source. */
interface StartTag {
  tagName: string;
  attrs: { name: string; value: string }[];
  sourceCodeLocation?: {
    startOffset: number;
    attrs?: Record<string, { startOffset: number; endOffset: number }>;
  } | null;
}

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
  const nonced = html.split(`nonce="${nonce}"`).length - 1;
  if (nonced < 2) return { html, scriptHashes: [], styleHashes: [] };
  const scriptHashes: string[] = [];
  const styleHashes: string[] = [];
  const tokenizer = new RewritingStream();
  let output = "";
  let seen = 0;
  // The element whose text is being read, and into which list its hash goes.
  let reading: { tagName: string; text: string; hashes: string[] } | undefined;
  tokenizer.on("startTag", (tag: StartTag, raw: string) => {
    const nonceAttribute = tag.sourceCodeLocation?.attrs?.nonce;
    if (!nonceAttribute || tag.attrs.find((attr) => attr.name === "nonce")?.value !== nonce) {
      output += raw;
      return;
    }
    seen++;
    if (seen === nonced) {
      output += raw;
      return;
    }
    const tagStart = tag.sourceCodeLocation?.startOffset ?? 0;
    let start = nonceAttribute.startOffset - tagStart;
    // The attribute goes with the space before it.
    while (/\s/.test(raw[start - 1] ?? "")) start--;
    output += raw.slice(0, start) + raw.slice(nonceAttribute.endOffset - tagStart);
    const type = tag.attrs.find((attr) => attr.name === "type")?.value;
    if (tag.tagName === "style") reading = { tagName: "style", text: "", hashes: styleHashes };
    // A data block (JSON-LD) never runs; the held module script does, once the starter copies it.
    else if (tag.tagName === "script" && (type === undefined || type === "module" || type === HELD_MODULE_TYPE))
      reading = { tagName: "script", text: "", hashes: scriptHashes };
  });
  tokenizer.on("text", (_token: unknown, raw: string) => {
    if (reading) reading.text += raw;
    output += raw;
  });
  tokenizer.on("endTag", (tag: { tagName: string }, raw: string) => {
    if (reading?.tagName === tag.tagName) {
      // Browsers hash the element's text as written (script and style text has no character references).
      const hash = cspHash(reading.text);
      if (!reading.hashes.includes(hash)) reading.hashes.push(hash);
      reading = undefined;
    }
    output += raw;
  });
  for (const event of ["comment", "doctype"]) tokenizer.on(event, (_token: unknown, raw: string) => (output += raw));
  tokenizer.end(html);
  return { html: output, scriptHashes, styleHashes };
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
