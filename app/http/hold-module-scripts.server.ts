import { Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { RewritingStream } from "parse5-html-rewriting-stream";
import { HELD_MODULE_TYPE } from "~/features/layout/boot/start-after-paint.boot";

/** What is read of parse5's start tag token: its attributes and where each one is in the source. */
interface StartTag {
  tagName: string;
  attrs: { name: string; value: string }[];
  sourceCodeLocation?: { startOffset: number; attrs?: Record<string, Span> } | null;
}
type Span = { startOffset: number; endOffset: number };

/**
 * Reads the document with parse5's tokenizer (which knows where script, style and comment text ends) and hands back
 * each token as written, except React Router's module preloads, which are dropped, and its module script, whose type
 * becomes one browsers neither run nor scan. The tokenizer works inside `write()` and `end()` (Node runs a stream's
 * `_transform` and `_final` at once when nothing is queued), so each call returns the text it completed.
 */
function createModuleScriptHolder() {
  const tokenizer = new RewritingStream();
  let output = "";
  const keep = (_token: unknown, raw: string) => {
    output += raw;
  };
  tokenizer.on("startTag", (tag, raw) => {
    if (tag.tagName === "link" && attribute(tag, "rel") === "modulepreload") return;
    output += tag.tagName === "script" && attribute(tag, "type") === "module" ? heldScriptTag(tag, raw) : raw;
  });
  for (const event of ["endTag", "text", "comment", "doctype"]) tokenizer.on(event, keep);
  const take = () => {
    const taken = output;
    output = "";
    return taken;
  };
  return {
    write(text: string): string {
      tokenizer.write(text);
      return take();
    },
    end(text: string): string {
      tokenizer.end(text);
      return take();
    },
  };
}

function attribute(tag: StartTag, name: string): string | undefined {
  return tag.attrs.find((attr) => attr.name === name)?.value;
}

/**
 * The module script's start tag as written, with the held type in place of `module` and without `async` (a data
 * block may not be async; the starter inserts a fresh module script, async by nature).
 */
function heldScriptTag(tag: StartTag, raw: string): string {
  const { startOffset: tagStart = 0, attrs = {} } = tag.sourceCodeLocation ?? {};
  const edits: { span: Span; text: string }[] = [];
  if (attrs.type) edits.push({ span: attrs.type, text: `type="${HELD_MODULE_TYPE}"` });
  if (attrs.async) edits.push({ span: attrs.async, text: "" });
  let held = raw;
  // From the last attribute back, so the earlier offsets still point into `held`.
  for (const { span, text } of edits.sort((a, b) => b.span.startOffset - a.span.startOffset)) {
    let start = span.startOffset - tagStart;
    // A removed attribute takes the space before it along.
    if (text === "") while (/\s/.test(held[start - 1] ?? "")) start--;
    held = held.slice(0, start) + text + held.slice(span.endOffset - tagStart);
  }
  return held;
}

/** One complete document with its module preloads dropped and its module scripts held. */
export function holdModuleScriptsIn(html: string): string {
  return createModuleScriptHolder().end(html);
}

/**
 * The rendered document as it streams, with React Router's `<link rel="modulepreload">` tags taken out and its module
 * script given a type browsers do not run, so the framework's ~93 KB start after the first paint (the inline starter,
 * `features/layout/boot/start-after-paint.boot.ts`, runs them). A tag split across two chunks, or a character split
 * across two buffers, waits in the tokenizer until it is whole; everything else leaves byte for byte as it came.
 */
export function holdModuleScripts(): Transform {
  const decoder = new StringDecoder("utf8");
  const holder = createModuleScriptHolder();
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      callback(null, holder.write(decoder.write(chunk)) || undefined);
    },
    flush(callback) {
      callback(null, holder.end(decoder.end()) || undefined);
    },
  });
}
