import { Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { HELD_MODULE_TYPE } from "~/features/layout/boot-after-paint";

const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*>/g;
const MODULE_SCRIPT = /<script\b([^>]*?) type="module"([^>]*)>/g;

/**
 * One complete piece of the document with its module preloads dropped and its module scripts held. A held script is
 * a data block, which may not be `async` (the starter inserts a fresh module script, async by nature).
 */
export function holdModuleScriptsIn(html: string): string {
  return html
    .replace(MODULE_PRELOAD, "")
    .replace(
      MODULE_SCRIPT,
      (_tag, before: string, after: string) =>
        `<script${before} type="${HELD_MODULE_TYPE}"${after.replace(/ async(="[^"]*")?/, "")}>`,
    );
}

/**
 * The rendered document as it streams, with React Router's `<link rel="modulepreload">` tags taken out and its module
 * script given a type browsers do not run, so the framework's ~93 KB start after the first paint (the inline starter in
 * `boot-after-paint.tsx` runs them). A tag split across two chunks is kept back until it is whole.
 */
export function holdModuleScripts(): Transform {
  const decoder = new StringDecoder("utf8");
  let pending = "";
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const text = pending + decoder.write(chunk);
      const lastOpen = text.lastIndexOf("<");
      const cut = lastOpen >= 0 && text.indexOf(">", lastOpen) === -1 ? lastOpen : text.length;
      pending = text.slice(cut);
      callback(null, cut > 0 ? holdModuleScriptsIn(text.slice(0, cut)) : undefined);
    },
    flush(callback) {
      const rest = pending + decoder.end();
      callback(null, rest ? holdModuleScriptsIn(rest) : undefined);
    },
  });
}
