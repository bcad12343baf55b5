/**
 * The part of the site stylesheet one page uses (docs/decisions/013). A cached page inlines only the rules whose
 * classes and elements occur in its HTML, the custom properties those rules read and the keyframes they run; the whole
 * stylesheet follows after the first paint (`features/layout/boot/start-after-paint.boot.ts`), before anything the
 * client renders. A page's HTML then fits the first round trip of a new connection (~14 KB compressed) instead of
 * spilling into a second.
 *
 * css-tree parses the stylesheet once per process (classes, elements and `var()` reads from its syntax tree) and
 * locates every rule, selector and declaration in it, so a page's rules are copied from the stylesheet as written.
 * lightningcss, which built the stylesheet, locates only rules and prints declarations anew: `2147483647px` came back
 * as `2147480000px`, and it dropped or doubled prefixes and merged rules, depending on the targets it was given.
 */
import type * as Css from "css-tree";
import parse from "css-tree/parser";
import { ident } from "css-tree/utils";
import walk from "css-tree/walker";
import { WHOLE_STYLESHEET_ATTRIBUTE } from "~/features/layout/boot/start-after-paint.boot";
import { STYLESHEET_ID } from "~/features/layout/inline-stylesheet";

interface Declaration {
  /** `--name` for a custom property, otherwise undefined. */
  customProperty?: string;
  text: string;
  /** Custom properties its value reads through `var()`. */
  reads: string[];
  /** Identifiers in an `animation`, `animation-name` or custom property value: keyframes it may run. */
  animationNames: string[];
}

type StylesheetNode =
  /** A style rule: kept when the classes and elements one of its selectors needs all occur in the page. */
  | { kind: "style"; selector: string; needs: SelectorNeeds[]; declarations: Declaration[] }
  /** `@media`, `@supports`, `@layer name` and container queries: kept when something inside is. */
  | { kind: "group"; prelude: string; children: StylesheetNode[] }
  /** Kept when a kept declaration names the animation. */
  | { kind: "keyframes"; name: string; text: string }
  /** Statements (`@layer a,b;`), comments and anything else: always kept. */
  | { kind: "other"; text: string };

const parsed = new Map<string, StylesheetNode[]>();

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
    nodes = parseStylesheet(css);
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
const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#x27;": "'",
  "&#39;": "'",
};

/** Every class token of every element (React escapes `&`, `<`, `>`, quotes in attribute values). */
export function classesInHtml(html: string): Set<string> {
  const classes = new Set<string>();
  for (const match of html.matchAll(CLASS_ATTRIBUTE)) {
    const value = (match[1] as string).replace(
      /&(?:amp|lt|gt|quot|#x27|#39);/g,
      (entity) => ENTITIES[entity] ?? entity,
    );
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

/** Custom properties the page's inline styles read (React writes `style` values as they are given). */
function inlineStyleReads(html: string): string[] {
  return [...html.matchAll(/var\(\s*(--[\w-]+)/g)].map((m) => m[1] as string);
}

interface PageContents {
  classes: Set<string>;
  elements: Set<string>;
}

function keepUsedRules(node: StylesheetNode, page: PageContents): StylesheetNode | undefined {
  if (node.kind === "style") {
    const matches = (needs: SelectorNeeds) =>
      needs.classes.every((name) => page.classes.has(name)) && needs.elements.every((name) => page.elements.has(name));
    return node.needs.some(matches) ? node : undefined;
  }
  if (node.kind === "group") {
    const children = node.children.map((child) => keepUsedRules(child, page)).filter((child) => child !== undefined);
    return children.length > 0 ? { ...node, children } : undefined;
  }
  return node;
}

/** Custom properties read by the kept rules' own properties or the page's inline styles, and by those in turn. */
function customPropertiesRead(nodes: StylesheetNode[], html: string): Set<string> {
  const declarations: Declaration[] = [];
  const collect = (node: StylesheetNode) => {
    if (node.kind === "style") declarations.push(...node.declarations);
    else if (node.kind === "group") node.children.forEach(collect);
  };
  nodes.forEach(collect);
  const reads = new Set(inlineStyleReads(html));
  const readBy = new Map<string, string[]>();
  for (const declaration of declarations) {
    if (declaration.customProperty === undefined) for (const name of declaration.reads) reads.add(name);
    else
      readBy.set(declaration.customProperty, [...(readBy.get(declaration.customProperty) ?? []), ...declaration.reads]);
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

/** Names in kept `animation` declarations and custom properties (Tailwind's `--animate-*` hold the names). */
function animationsNamed(nodes: StylesheetNode[], isKept: (d: Declaration) => boolean): Set<string> {
  const names = new Set<string>();
  const visit = (node: StylesheetNode) => {
    if (node.kind === "group") node.children.forEach(visit);
    if (node.kind !== "style") return;
    for (const declaration of node.declarations)
      if (isKept(declaration)) for (const name of declaration.animationNames) names.add(name);
  };
  nodes.forEach(visit);
  return names;
}

function serialize(node: StylesheetNode, isKept: (d: Declaration) => boolean, animations: Set<string>): string {
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

function parseStylesheet(css: string): StylesheetNode[] {
  const sheet = parse(css, { positions: true, parseCustomProperty: true });
  return sheet.type === "StyleSheet" ? nodesIn(sheet.children, css) : [];
}

/** The stylesheet's text of `node`, or from its start to the start of `until`. */
function sourceOf(css: string, node: Css.CssNode, until?: Css.CssNode): string {
  const { start, end } = node.loc as Css.CssLocation;
  return css.slice(start.offset, until ? (until.loc as Css.CssLocation).start.offset : end.offset);
}

function nodesIn(children: Css.List<Css.CssNode>, css: string): StylesheetNode[] {
  return children.toArray().map((node) => {
    if (node.type === "Rule") return styleRule(node, css);
    if (node.type === "Atrule") return atRule(node, css);
    // The only comments css-tree keeps are `/*! ... */` (the licence), which lightningcss puts on a line of its own.
    if (node.type === "Comment") return { kind: "other", text: `${sourceOf(css, node)}\n` };
    // Text css-tree could not parse stays as written.
    return { kind: "other", text: sourceOf(css, node) };
  });
}

const GROUPING_AT_RULES = new Set(["media", "supports", "layer", "container", "scope", "starting-style"]);

function atRule(rule: Css.Atrule, css: string): StylesheetNode {
  const name = rule.name.toLowerCase();
  if (rule.block && (name === "keyframes" || name === "-webkit-keyframes"))
    return { kind: "keyframes", name: keyframesName(rule), text: sourceOf(css, rule) };
  if (rule.block && GROUPING_AT_RULES.has(name))
    return { kind: "group", prelude: sourceOf(css, rule, rule.block), children: nodesIn(rule.block.children, css) };
  return { kind: "other", text: sourceOf(css, rule) };
}

function keyframesName(rule: Css.Atrule): string {
  const name = rule.prelude?.type === "AtrulePrelude" ? rule.prelude.children.first : null;
  if (name?.type === "Identifier") return ident.decode(name.name);
  return name?.type === "String" ? name.value : "";
}

function styleRule(rule: Css.Rule, css: string): StylesheetNode {
  // A selector css-tree could not parse needs nothing: the rule stays on every page.
  const needs =
    rule.prelude.type === "SelectorList"
      ? rule.prelude.children.toArray().map(needsOf)
      : [{ classes: [], elements: [] }];
  const children = rule.block.children.toArray();
  const declarations = children.every((child) => child.type === "Declaration")
    ? children.map((child) => declaration(child, css))
    : // A style rule holding nested rules is kept or dropped whole, its declarations untouched.
      [
        {
          text: sourceOf(css, rule.block).slice(1, -1),
          reads: varReads(rule.block),
          animationNames: animationNamesIn(rule.block),
        },
      ];
  return { kind: "style", selector: sourceOf(css, rule.prelude), needs, declarations };
}

function declaration(node: Css.Declaration, css: string): Declaration {
  const customProperty = node.property.startsWith("--") ? node.property : undefined;
  return {
    customProperty,
    text: sourceOf(css, node),
    reads: varReads(node.value),
    animationNames: animationNamesIn(node),
  };
}

/** Custom properties read through `var()` anywhere in `node`. */
function varReads(node: Css.CssNode): string[] {
  const reads: string[] = [];
  walk(node, {
    visit: "Function",
    enter(fn) {
      const name = fn.children.first;
      if (fn.name.toLowerCase() === "var" && name?.type === "Identifier") reads.push(name.name);
    },
  });
  return reads;
}

const ANIMATION_PROPERTY = /^(?:-webkit-)?animation(?:-name)?$|^--/i;

/** The identifiers in `animation`, `animation-name` and custom property values in `node`: keyframes names among them. */
function animationNamesIn(node: Css.CssNode): string[] {
  const names: string[] = [];
  walk(node, {
    visit: "Declaration",
    enter(declaration) {
      if (!ANIMATION_PROPERTY.test(declaration.property)) return;
      walk(declaration.value, {
        visit: "Identifier",
        enter: (identifier) => {
          names.push(ident.decode(identifier.name));
        },
      });
    },
  });
  return names;
}

/** What the page must hold for a selector to match anything in it. */
export interface SelectorNeeds {
  classes: string[];
  /** Element names, lower-case (`abbr`, `summary`): preflight's rules for elements a page lacks are left out. */
  elements: string[];
}

/**
 * The classes and elements a page must contain for `selector` to match (see `addNeeds`). A list (`a,b`) matches with
 * any one of its selectors, so it needs none of them in particular.
 */
export function selectorNeeds(selector: string): SelectorNeeds {
  const list = parse(selector, { context: "selectorList" });
  const only = list.type === "SelectorList" && list.children.size === 1 ? list.children.first : null;
  return only ? needsOf(only) : { classes: [], elements: [] };
}

/** What one selector of a parsed list needs. */
function needsOf(selector: Css.CssNode): SelectorNeeds {
  const needs: SelectorNeeds = { classes: [], elements: [] };
  if (selector.type === "Selector") addNeeds(selector, needs);
  return needs;
}

// Functional pseudo-classes whose argument is a selector the element (or its relatives) must match.
const SELECTOR_ARGUMENT = new Set(["is", "where", "has"]);

/**
 * Adds to `needs` every class and type selector of `selector`, escapes decoded, and those of a single selector inside
 * `:is()`, `:where()` and `:has()`; not attribute selectors, `:not(...)` (which never requires its argument) or the
 * arguments of other pseudo-classes such as `:nth-child(...)`.
 */
function addNeeds(selector: Css.Selector, needs: SelectorNeeds): void {
  for (const node of selector.children) {
    if (node.type === "ClassSelector") needs.classes.push(ident.decode(node.name));
    else if (node.type === "TypeSelector") {
      // `*` needs nothing; a namespace prefix (`svg|a`) is not part of the element's name in HTML.
      const name = node.name.slice(node.name.lastIndexOf("|") + 1);
      if (name !== "*") needs.elements.push(ident.decode(name).toLowerCase());
    } else if (node.type === "PseudoClassSelector" && SELECTOR_ARGUMENT.has(node.name.toLowerCase())) {
      const list = node.children?.first;
      // A selector list matches with any one of its selectors, so it requires none of them in particular.
      const only = list?.type === "SelectorList" && list.children.size === 1 ? list.children.first : null;
      if (only?.type === "Selector") addNeeds(only, needs);
    }
  }
}
