import { Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { RewritingStream } from "parse5-html-rewriting-stream";
import { HELD_MODULE_TYPE } from "~/features/layout/boot/start-after-paint.boot";

/** What is read of a start tag: its name, its attributes and where each one is in the source. */
interface StartTag {
  tagName: string;
  attrs: { name: string; value: string }[];
  sourceCodeLocation?: { startOffset: number; attrs?: Record<string, Span> } | null;
}
type Span = { startOffset: number; endOffset: number };

/** What the holder does with the document as it arrives: the text it completed comes back from each call. */
interface Holder {
  write(text: string): string;
  end(text: string): string;
}

/**
 * The document with React Router's module preloads dropped and its module script held, token by token as parse5's
 * tokenizer reads it (it knows where script, style and comment text ends), every token handed back as written.
 * Tokens that end at or before `from` were handed back already (by the scanner below) and are skipped; a text token
 * that straddles it gives only its part after it. The tokenizer works inside `write()` and `end()` (Node runs a
 * stream's `_transform` and `_final` at once when nothing is queued), so each call returns the text it completed.
 */
function createTokenizerHolder(from = 0): Holder {
  const tokenizer = new RewritingStream();
  let output = "";
  const keep = (token: { sourceCodeLocation?: Span | null }, raw: string) => {
    const start = token.sourceCodeLocation?.startOffset ?? from;
    const end = token.sourceCodeLocation?.endOffset ?? Number.POSITIVE_INFINITY;
    if (end <= from) return;
    output += start < from ? raw.slice(from - start) : raw;
  };
  tokenizer.on("startTag", (tag, raw) => {
    if ((tag.sourceCodeLocation?.endOffset ?? Number.POSITIVE_INFINITY) <= from) return;
    if (tag.tagName === "link" && attribute(tag, "rel") === "modulepreload") return;
    output += tag.tagName === "script" && attribute(tag, "type") === "module" ? heldScriptTag(tag, raw) : raw;
  });
  for (const event of ["endTag", "text", "comment", "doctype"] as const) tokenizer.on(event, keep);
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

// The fast path. parse5's tokenizer reads every character through its state machine (~9 ms for a 170 KB catalogue
// page, the largest part of an uncached render's CPU); React's documents are plain enough that indexOf and a small
// tag reader find the same tokens. The scanner below follows the tokenizer's rules (and the tree builder's switches
// into raw text, as parse5-sax-parser simulates them) for what it reads, and hands the document over to parse5 at
// anything else it meets: parse5 then reads the whole document from its start and hands back only what the scanner
// had not, so the output is parse5's in every case.

/** After these start tags (outside SVG), the tokenizer reads raw text up to the matching end tag. */
const RAW_TEXT = new Set(["style", "iframe", "xmp", "noembed", "noframes", "noscript", "title", "textarea", "script"]);
/** Start tags the scanner leaves to parse5: text to the end of the document, MathML, its own tree-builder rules. */
const HAND_OVER = new Set(["plaintext", "math"]);
/** Tags inside an `<svg>` that keep the tokenizer in SVG (no breakout, no integration point, no raw text). */
const SVG_CONTENT = new Set([
  "svg",
  "path",
  "g",
  "circle",
  "ellipse",
  "line",
  "polyline",
  "polygon",
  "rect",
  "defs",
  "use",
  "symbol",
  "lineargradient",
  "radialgradient",
  "stop",
  "clippath",
  "mask",
  "pattern",
  "text",
  "tspan",
]);

const isSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x09 || code === 0x0c || code === 0x0d;
const isAsciiAlpha = (code: number) => (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
const asciiLower = (text: string) =>
  /[A-Z]/.test(text) ? text.replace(/[A-Z]+/g, (upper) => upper.toLowerCase()) : text;

interface ScannedAttribute {
  name: string;
  value: string;
  span: Span;
}
interface ScannedTag {
  name: string;
  /** Offset just past its `>`. */
  end: number;
  /** The first attribute of each name (the tokenizer drops later ones), with parse5's source spans. */
  attrs: Map<string, ScannedAttribute>;
}

/**
 * The start or end tag whose name starts at `at` (just past `<` or `</`), read by the tokenizer's tag and attribute
 * states; undefined when the text ends first. Attributes are kept for `link` and `script` only (nothing else is read).
 */
function readTag(html: string, at: number): ScannedTag | undefined {
  const length = html.length;
  let i = at;
  while (i < length) {
    const code = html.charCodeAt(i);
    if (isSpace(code) || code === 0x2f || code === 0x3e) break;
    i++;
  }
  if (i >= length) return undefined;
  const name = asciiLower(html.slice(at, i));
  const keep = name === "link" || name === "script";
  const attrs = new Map<string, ScannedAttribute>();
  // The attribute being read: where its name starts, and its span's end as the tokenizer moves it (the end of its
  // name, then past its value).
  let nameStart = 0;
  let current: ScannedAttribute | undefined;
  let state: "beforeName" | "name" | "afterName" | "beforeValue" | "afterQuoted" | "selfClosing" = "beforeName";
  while (i < length) {
    const code = html.charCodeAt(i);
    switch (state) {
      case "beforeName":
        if (isSpace(code)) i++;
        else if (code === 0x2f || code === 0x3e) state = "afterName";
        else {
          nameStart = i;
          // A name may start with `=`.
          if (code === 0x3d) i++;
          state = "name";
        }
        break;
      case "name":
        if (isSpace(code) || code === 0x2f || code === 0x3e || code === 0x3d) {
          current = undefined;
          if (keep) {
            const attribute = {
              name: asciiLower(html.slice(nameStart, i)),
              value: "",
              span: { startOffset: nameStart, endOffset: i },
            };
            // A repeated name is dropped by the tokenizer: its value and span go nowhere.
            current = attribute;
            if (!attrs.has(attribute.name)) attrs.set(attribute.name, attribute);
          }
          if (code === 0x3d) {
            i++;
            state = "beforeValue";
          } else state = "afterName";
        } else i++;
        break;
      case "afterName":
        if (isSpace(code)) i++;
        else if (code === 0x2f) {
          i++;
          state = "selfClosing";
        } else if (code === 0x3d) {
          i++;
          state = "beforeValue";
        } else if (code === 0x3e) return { name, end: i + 1, attrs };
        else {
          nameStart = i;
          state = "name";
        }
        break;
      case "beforeValue":
        if (isSpace(code)) i++;
        else if (code === 0x22 || code === 0x27) {
          const close = html.indexOf(code === 0x22 ? '"' : "'", i + 1);
          if (close < 0) return undefined;
          if (current) {
            current.value = html.slice(i + 1, close);
            current.span.endOffset = close + 1;
          }
          i = close + 1;
          state = "afterQuoted";
        } else if (code === 0x3e) return { name, end: i + 1, attrs };
        else {
          // Unquoted: up to a space or `>`.
          const start = i;
          while (i < length && !isSpace(html.charCodeAt(i)) && html.charCodeAt(i) !== 0x3e) i++;
          if (i >= length) return undefined;
          if (current) {
            current.value = html.slice(start, i);
            current.span.endOffset = i;
          }
          if (html.charCodeAt(i) === 0x3e) return { name, end: i + 1, attrs };
          i++;
          state = "beforeName";
        }
        break;
      case "afterQuoted":
        if (isSpace(code)) {
          i++;
          state = "beforeName";
        } else if (code === 0x2f) {
          i++;
          state = "selfClosing";
        } else if (code === 0x3e) return { name, end: i + 1, attrs };
        else state = "beforeName";
        break;
      case "selfClosing":
        if (code === 0x3e) return { name, end: i + 1, attrs };
        state = "beforeName";
        break;
    }
  }
  return undefined;
}

/** Where the raw text of a `name` element started at `from` ends: its end tag's `<`; undefined if not in `html` yet. */
function rawTextEnd(html: string, from: number, name: string): number | undefined {
  let at = from;
  for (;;) {
    const open = html.indexOf("</", at);
    if (open < 0) return undefined;
    const after = open + 2 + name.length;
    if (after >= html.length) return undefined;
    const code = html.charCodeAt(after);
    if (asciiLower(html.slice(open + 2, after)) === name && (isSpace(code) || code === 0x2f || code === 0x3e))
      return open;
    at = open + 2;
  }
}

/** The scanner, handing over to parse5's tokenizer at anything it does not read itself. */
function createModuleScriptHolder(): Holder {
  // What came in, kept for parse5 should it take over; the scanner reads `html`, the part not handed back yet, which
  // starts at `base` in the document (the whole document in one string would be copied again by every write).
  const written: string[] = [];
  let html = "";
  let base = 0;
  // Everything before `done` in `html` has been handed back; `raw` is the element whose raw text starts there, if any.
  let done = 0;
  let raw: string | undefined;
  let svgDepth = 0;
  let tokenizer: Holder | undefined;

  let output = "";
  /** Hands back what the scanner can of `html` now (in `output`); true when parse5 must read the rest. */
  function scan(final: boolean): boolean {
    const length = html.length;
    for (;;) {
      if (raw) {
        const end = rawTextEnd(html, done, raw);
        if (end === undefined) return final;
        // A script's text may hold `<!--`, after which its end tag is read differently (the escaped states).
        if (raw === "script") {
          const escaped = html.indexOf("<!--", done);
          if (escaped >= 0 && escaped < end) return true;
        }
        output += html.slice(done, end);
        done = end;
        raw = undefined;
      }
      const open = html.indexOf("<", done);
      if (open < 0) {
        output += html.slice(done);
        done = length;
        return false;
      }
      output += html.slice(done, open);
      done = open;
      if (open + 1 >= length) return final;
      const next = html.charCodeAt(open + 1);
      if (isAsciiAlpha(next)) {
        const tag = readTag(html, open + 1);
        if (!tag) return final;
        const { name } = tag;
        if (svgDepth > 0) {
          if (!SVG_CONTENT.has(name)) return true;
          if (name === "svg") svgDepth++;
        } else {
          if (HAND_OVER.has(name)) return true;
          if (name === "svg") svgDepth = 1;
          else if (RAW_TEXT.has(name)) raw = name;
        }
        const written = html.slice(open, tag.end);
        if (name === "link" || name === "script") {
          // A character reference in the attribute compared would be decoded by the tokenizer: left to it.
          if (tag.attrs.get(name === "link" ? "rel" : "type")?.value.includes("&")) return true;
          if (name === "link" && tag.attrs.get("rel")?.value === "modulepreload") {
            done = tag.end;
            continue;
          }
          if (name === "script" && tag.attrs.get("type")?.value === "module") {
            const spans = Object.fromEntries([...tag.attrs].map(([key, a]) => [key, a.span]));
            output += heldScriptTag(
              {
                tagName: name,
                attrs: [...tag.attrs.values()],
                sourceCodeLocation: { startOffset: open, attrs: spans },
              },
              written,
            );
            done = tag.end;
            continue;
          }
        }
        output += written;
        done = tag.end;
      } else if (next === 0x2f) {
        if (open + 2 >= length) return final;
        if (!isAsciiAlpha(html.charCodeAt(open + 2))) return true;
        const tag = readTag(html, open + 2);
        if (!tag) return final;
        if (tag.name === "svg" && svgDepth > 0) svgDepth--;
        output += html.slice(open, tag.end);
        done = tag.end;
      } else if (next === 0x21) {
        if (open + 4 > length) return final;
        if (html.startsWith("<!--", open)) {
          // A comment ends at the first `-->` (`<!-->` and `<!--->` end at once) or `--!>`.
          const dashes = html.indexOf("-->", open + 2);
          const bang = html.indexOf("--!>", open + 4);
          const end = dashes < 0 ? bang : bang < 0 ? dashes : Math.min(dashes, bang);
          if (end < 0) return final;
          const close = end === dashes ? end + 3 : end + 4;
          output += html.slice(open, close);
          done = close;
        } else {
          if (open + 9 > length) return final;
          if (asciiLower(html.slice(open + 2, open + 9)) !== "doctype") return true;
          const close = html.indexOf(">", open + 9);
          if (close < 0) return final;
          output += html.slice(open, close + 1);
          done = close + 1;
        }
      } else if (next === 0x3f) return true;
      else {
        // A `<` that opens nothing is text.
        output += "<";
        done = open + 1;
      }
    }
  }

  function step(text: string, final: boolean): string {
    if (tokenizer) return final ? tokenizer.end(text) : tokenizer.write(text);
    written.push(text);
    html += text;
    output = "";
    const handOver = scan(final);
    if (!handOver) {
      html = html.slice(done);
      base += done;
      done = 0;
      return output;
    }
    // The scanner stopped at `done` before handing back anything past it: parse5 reads the whole document.
    tokenizer = createTokenizerHolder(base + done);
    const document = written.join("");
    written.length = 0;
    return output + (final ? tokenizer.end(document) : tokenizer.write(document));
  }
  return { write: (text) => step(text, false), end: (text) => step(text, true) };
}

/** One complete document with its module preloads dropped and its module scripts held. */
export function holdModuleScriptsIn(html: string): string {
  return createModuleScriptHolder().end(html);
}

/** The same read by parse5's tokenizer alone: what the scanner's output must equal (tests, benches). */
export function holdModuleScriptsByTokenizer(html: string): string {
  return createTokenizerHolder().end(html);
}

/**
 * The rendered document as it streams, with React Router's `<link rel="modulepreload">` tags taken out and its module
 * script given a type browsers do not run, so the framework's ~93 KB start after the first paint (the inline starter,
 * `features/layout/boot/start-after-paint.boot.ts`, runs them). A tag split across two chunks, or a character split
 * across two buffers, waits until it is whole; everything else leaves byte for byte as it came.
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
