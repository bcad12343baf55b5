/**
 * The part of the site stylesheet one page uses (docs/decisions/013). A cached page inlines only the rules whose
 * classes and elements occur in its HTML, the custom properties those rules read and the keyframes they run; the whole
 * stylesheet follows after the first paint (`boot-after-paint.tsx`), before anything the client renders. A page's
 * HTML then fits the first round trip of a new connection (~14 KB compressed) instead of spilling into a second.
 *
 * The stylesheet is minified CSS from our own build (lightningcss), so a small parser suffices: blocks, selectors,
 * declarations, strings and escapes, no comments inside rules.
 */
import { STYLESHEET_ID, WHOLE_STYLESHEET_ATTRIBUTE } from "~/features/layout/inline-stylesheet";

interface Declaration {
  /** `--name` for a custom property, otherwise undefined. */
  customProperty?: string;
  text: string;
  /** Custom properties its value reads through `var()`. */
  reads: string[];
}

type CssNode =
  /** A style rule: kept when the classes and elements one of its selectors needs all occur in the page. */
  | { kind: "style"; selector: string; needs: SelectorNeeds[]; declarations: Declaration[] }
  /** `@media`, `@supports`, `@layer name` and container queries: kept when something inside is. */
  | { kind: "group"; prelude: string; children: CssNode[] }
  /** Kept when a kept declaration names the animation. */
  | { kind: "keyframes"; name: string; text: string }
  /** Statements (`@layer a,b;`) and anything else: always kept. */
  | { kind: "other"; text: string };

const parsed = new Map<string, CssNode[]>();

/**
 * `html` with the inline stylesheet `css` (in `<style id="site-css">`) cut down to the rules the page uses, the tag
 * marked with `wholeHref`, where the whole stylesheet is. A page without that stylesheet is returned as it is.
 */
export function withOwnStylesheet(html: string, css: string, wholeHref: string): string {
  const at = css ? html.indexOf(css) : -1;
  const tag = at < 0 ? -1 : html.lastIndexOf(OPENING_TAG, at);
  if (tag < 0) return html;
  const before = html.slice(0, at);
  const after = html.slice(at + css.length);
  // The stylesheet must be the element's whole text, right after its opening tag's `>`.
  const tagEnd = before.length - 1;
  if (before[tagEnd] !== ">" || !after.startsWith("</style>")) return html;
  const used = stylesheetForPage(css, before + after);
  return `${before.slice(0, tagEnd)} ${WHOLE_STYLESHEET_ATTRIBUTE}="${wholeHref}">${used}${after}`;
}

const OPENING_TAG = `<style id="${STYLESHEET_ID}"`;

/** `css` cut down to what the page `html` uses. */
export function stylesheetForPage(css: string, html: string): string {
  let nodes = parsed.get(css);
  if (!nodes) {
    nodes = parseBlockContents(css);
    parsed.set(css, nodes);
  }
  const page = { classes: classesInHtml(html), elements: elementsInHtml(html) };
  const kept = nodes.map((node) => keepUsedRules(node, page)).filter((node) => node !== undefined);
  const reads = customPropertiesRead(kept, html);
  const isKept = (d: Declaration) => d.customProperty === undefined || reads.has(d.customProperty);
  const animations = animationsNamed(kept, isKept);
  return kept.map((node) => serialize(node, isKept, animations)).join("");
}

// ---- the page's side ----

const CLASS_ATTRIBUTE = /\bclass="([^"]*)"/g;
const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#x27;": "'", "&#39;": "'" };

/** Every class token of every element (React escapes `&`, `<`, `>`, quotes in attribute values). */
export function classesInHtml(html: string): Set<string> {
  const classes = new Set<string>();
  for (const match of html.matchAll(CLASS_ATTRIBUTE)) {
    const value = (match[1] as string).replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (entity) => ENTITIES[entity] ?? entity);
    for (const token of value.split(/\s+/)) if (token) classes.add(token);
  }
  return classes;
}

/** Every element name in the page, lower-case. */
export function elementsInHtml(html: string): Set<string> {
  const elements = new Set<string>();
  for (const match of html.matchAll(/<([a-zA-Z][\w-]*)/g)) elements.add((match[1] as string).toLowerCase());
  return elements;
}

interface PageContents {
  classes: Set<string>;
  elements: Set<string>;
}

function keepUsedRules(node: CssNode, page: PageContents): CssNode | undefined {
  if (node.kind === "style") {
    const matches = (needs: SelectorNeeds) => needs.classes.every((name) => page.classes.has(name)) && needs.elements.every((name) => page.elements.has(name));
    return node.needs.some(matches) ? node : undefined;
  }
  if (node.kind === "group") {
    const children = node.children.map((child) => keepUsedRules(child, page)).filter((child) => child !== undefined);
    return children.length > 0 ? { ...node, children } : undefined;
  }
  return node;
}

/** Custom properties read by the kept rules' own properties or the page's inline styles, and by those in turn. */
function customPropertiesRead(nodes: CssNode[], html: string): Set<string> {
  const declarations: Declaration[] = [];
  const collect = (node: CssNode) => {
    if (node.kind === "style") declarations.push(...node.declarations);
    else if (node.kind === "group") node.children.forEach(collect);
  };
  nodes.forEach(collect);
  const reads = new Set(varReads(html));
  const readBy = new Map<string, string[]>();
  for (const declaration of declarations) {
    if (declaration.customProperty === undefined) for (const name of declaration.reads) reads.add(name);
    else readBy.set(declaration.customProperty, [...(readBy.get(declaration.customProperty) ?? []), ...declaration.reads]);
  }
  const pending = [...reads];
  while (pending.length > 0) {
    for (const name of readBy.get(pending.pop() as string) ?? []) {
      if (!reads.has(name)) {
        reads.add(name);
        pending.push(name);
      }
    }
  }
  return reads;
}

/** Words in kept `animation` declarations and custom properties (Tailwind's `--animate-*` hold the names). */
function animationsNamed(nodes: CssNode[], isKept: (d: Declaration) => boolean): Set<string> {
  const words = new Set<string>();
  const visit = (node: CssNode) => {
    if (node.kind === "group") node.children.forEach(visit);
    if (node.kind !== "style") return;
    for (const declaration of node.declarations) {
      const value = /^\s*(?:animation|animation-name|--[\w-]+)\s*:(.*)$/s.exec(declaration.text);
      if (value && isKept(declaration)) for (const word of (value[1] as string).split(/[\s,()]+/)) words.add(word);
    }
  };
  nodes.forEach(visit);
  return words;
}

function serialize(node: CssNode, isKept: (d: Declaration) => boolean, animations: Set<string>): string {
  if (node.kind === "other") return node.text;
  if (node.kind === "keyframes") return animations.has(node.name) ? node.text : "";
  if (node.kind === "group") {
    const inner = node.children.map((child) => serialize(child, isKept, animations)).join("");
    return inner ? `${node.prelude}{${inner}}` : "";
  }
  const kept = node.declarations.filter(isKept);
  return kept.length > 0 ? `${node.selector}{${kept.map((d) => d.text).join(";")}}` : "";
}

// ---- the stylesheet's side ----

/** Index just past the quoted string starting at `at`. */
function skipString(text: string, at: number): number {
  const quote = text[at];
  let i = at + 1;
  while (i < text.length && text[i] !== quote) i += text[i] === "\\" ? 2 : 1;
  return i + 1;
}

/** Index just past the bracket that closes the one at `at` (`(`, `[` or `{`), minding strings and escapes. */
function skipBalanced(text: string, at: number): number {
  const open = text[at] as string;
  const close = { "(": ")", "[": "]", "{": "}" }[open];
  let depth = 0;
  let i = at;
  while (i < text.length) {
    const c = text[i];
    if (c === "\\") i += 2;
    else if (c === '"' || c === "'") i = skipString(text, i);
    else {
      if (c === open) depth++;
      else if (c === close && --depth === 0) return i + 1;
      i++;
    }
  }
  return i;
}

/** Index of the first of `stops` at or after `from` outside strings, brackets and escapes, or the text's length. */
function indexOfTopLevel(text: string, from: number, stops: string): number {
  let i = from;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === "\\") i += 2;
    else if (c === '"' || c === "'") i = skipString(text, i);
    else if (c === "(" || c === "[") i = skipBalanced(text, i);
    else if (stops.includes(c)) return i;
    else i++;
  }
  return text.length;
}

/** Splits at `separator` outside strings, brackets and escapes. */
function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let start = 0;
  while (start <= text.length) {
    const end = indexOfTopLevel(text, start, separator);
    parts.push(text.slice(start, end));
    start = end + 1;
  }
  return parts;
}

function parseBlockContents(text: string): CssNode[] {
  const nodes: CssNode[] = [];
  let i = 0;
  while (i < text.length) {
    if (text.startsWith("/*", i)) {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? text.length : end + 2;
      nodes.push({ kind: "other", text: `${text.slice(i, stop)}\n` });
      i = stop;
      continue;
    }
    // The prelude runs to the first `{` or `;` outside strings and brackets.
    const j = indexOfTopLevel(text, i, "{;");
    const prelude = text.slice(i, j).trim();
    if (j >= text.length || text[j] === ";") {
      if (prelude) nodes.push({ kind: "other", text: `${prelude};` });
      i = j + 1;
      continue;
    }
    const end = skipBalanced(text, j);
    const body = text.slice(j + 1, end - 1);
    nodes.push(parseRule(prelude, body));
    i = end;
  }
  return nodes;
}

function parseRule(prelude: string, body: string): CssNode {
  if (prelude.startsWith("@")) {
    const keyframes = /^@(?:-webkit-)?keyframes\s+(\S+)/.exec(prelude);
    if (keyframes) return { kind: "keyframes", name: keyframes[1] as string, text: `${prelude}{${body}}` };
    if (/^@(?:media|supports|layer|container|scope|starting-style)\b/.test(prelude)) return { kind: "group", prelude, children: parseBlockContents(body) };
    return { kind: "other", text: `${prelude}{${body}}` };
  }
  // A style rule holding nested rules is kept or dropped whole, its declarations untouched.
  const declarations = body.includes("{") ? [{ text: body, reads: varReads(body) }] : splitTopLevel(body, ";").filter((d) => d.trim()).map(parseDeclaration);
  return { kind: "style", selector: prelude, needs: splitTopLevel(prelude, ",").map(selectorNeeds), declarations };
}

function parseDeclaration(text: string): Declaration {
  const custom = /^\s*(--[\w-]+)\s*:/.exec(text);
  return { customProperty: custom?.[1], text, reads: varReads(text) };
}

function varReads(text: string): string[] {
  return [...text.matchAll(/var\(\s*(--[\w-]+)/g)].map((m) => m[1] as string);
}

/** What the page must hold for a selector to match anything in it. */
export interface SelectorNeeds {
  classes: string[];
  /** Element names, lower-case (`abbr`, `summary`): preflight's rules for elements a page lacks are left out. */
  elements: string[];
}

// Functional pseudo-classes whose argument is a selector the element (or its relatives) must match.
const SELECTOR_ARGUMENT = new Set(["is", "where", "has"]);

/**
 * The classes and elements a page must contain for `selector` to match: every `.class` and type selector outside
 * attribute selectors, `:not(...)` (which never requires its argument) and the arguments of pseudo-classes such
 * as `:nth-child(...)`, which are not selectors.
 */
export function selectorNeeds(selector: string): SelectorNeeds {
  const needs: SelectorNeeds = { classes: [], elements: [] };
  // A type selector can only start a compound: at the start, after a combinator, a comma or `:is(`.
  let compoundStart = true;
  let i = 0;
  while (i < selector.length) {
    const c = selector[i] as string;
    if (c === "\\" || /[\w-]/.test(c) || c.charCodeAt(0) >= 0x80) {
      const [name, next] = readIdentifier(selector, i);
      if (compoundStart && name) needs.elements.push(name.toLowerCase());
      compoundStart = false;
      i = next;
    } else if (c === "." || c === "#") {
      const [name, next] = readIdentifier(selector, i + 1);
      if (c === "." && name) needs.classes.push(name);
      compoundStart = false;
      i = next;
    } else if (c === "[") {
      i = skipBalanced(selector, i);
      compoundStart = false;
    } else if (c === ":") {
      const nameStart = selector[i + 1] === ":" ? i + 2 : i + 1;
      const [name, next] = readIdentifier(selector, nameStart);
      compoundStart = false;
      i = next;
      if (selector[i] === "(") {
        const end = skipBalanced(selector, i);
        // A selector list matches with any one of its selectors, so it requires none of them in particular.
        const single = splitTopLevel(selector.slice(i + 1, end - 1), ",").length === 1;
        if (SELECTOR_ARGUMENT.has(name.toLowerCase()) && single) {
          compoundStart = true;
          i++;
        } else i = end;
      }
    } else if (c === '"' || c === "'") {
      i = skipString(selector, i);
    } else {
      // Whitespace, combinators and commas end a compound; `*` is one that needs nothing, and `)` ends an argument.
      compoundStart = c !== "*" && c !== ")";
      i++;
    }
  }
  return needs;
}

/** A CSS identifier starting at `at`, its escapes resolved, and the index after it. */
function readIdentifier(text: string, at: number): [string, number] {
  let name = "";
  let i = at;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === "\\") {
      const hex = /^[0-9a-fA-F]{1,6} ?/.exec(text.slice(i + 1, i + 8));
      if (hex) {
        name += String.fromCodePoint(Number.parseInt(hex[0].trim(), 16));
        i += 1 + hex[0].length;
      } else {
        name += text[i + 1] ?? "";
        i += 2;
      }
    } else if (/[\w-]/.test(c) || c.charCodeAt(0) >= 0x80) {
      name += c;
      i++;
    } else break;
  }
  return [name, i];
}
