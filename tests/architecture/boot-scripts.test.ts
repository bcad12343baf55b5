import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// Boot code is code (docs/decisions/012): what runs before hydration is a typed module compiled at build
// (`*.boot.ts?boot-script`), and nothing of ours reads React's private fields. This reads every file under app/ and
// names each place that breaks that.

const ROOT = path.resolve(import.meta.dirname, "../..");

function appFiles(dir = "app"): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return appFiles(relative);
    return /\.(ts|tsx|mts)$/.test(entry.name) ? [relative] : [];
  });
}

const lineOf = (source: string, index: number) => source.slice(0, index).split("\n").length;

/**
 * React DOM's private expandos (`__reactContainer$…`, `__reactFiber$…`, `__reactProps$…`), whose names and meaning
 * change between versions. `__reactRouter…` are React Router's own globals, which it writes into the document.
 */
const REACT_INTERNALS = /__react(?!Router)/g;

/** Each place a file names one of React's private fields, as `file:line: …`. */
function reactInternalsIn(file: string, source: string): string[] {
  return [...source.matchAll(REACT_INTERNALS)].map(
    (match) => `${file}:${lineOf(source, match.index)}: names React's private field "${match[0]}…"`,
  );
}

/** Code made from a string at run time. A method of another object (Redis's `eval`) is not the global. */
const STRING_CODE = /(?<![.\w$])(eval\s*\(|new\s+Function\s*\()/g;

/**
 * Each inline script in `file` whose text is not one of the two allowed kinds, as `file:line: …`. A `<script>` may take
 * its text through `dangerouslySetInnerHTML` only from a default import of a `?boot-script` module (a boot module
 * compiled at build) or, when it is `type="application/ld+json"` data, from `serializeJsonLd(…)`; it has no children.
 */
function stringBuiltScriptsIn(file: string, source: string): string[] {
  const violations = [...source.matchAll(STRING_CODE)].map(
    (match) => `${file}:${lineOf(source, match.index)}: builds code from a string (${match[1]?.trim()}…)`,
  );
  if (!file.endsWith(".tsx")) return violations;
  const sourceFile = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const bootScriptImports = new Set<string>();
  for (const statement of sourceFile.statements) {
    if (
      ts.isImportDeclaration(statement) &&
      ts.isStringLiteral(statement.moduleSpecifier) &&
      statement.moduleSpecifier.text.endsWith(".boot.ts?boot-script") &&
      statement.importClause?.name
    )
      bootScriptImports.add(statement.importClause.name.text);
  }
  const at = (node: ts.Node) => `${file}:${sourceFile.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node) => {
    const opening = ts.isJsxElement(node) ? node.openingElement : ts.isJsxSelfClosingElement(node) ? node : null;
    if (opening && opening.tagName.getText(sourceFile) === "script") {
      const attributes = new Map(
        opening.attributes.properties.flatMap((attribute) =>
          ts.isJsxAttribute(attribute) ? [[attribute.name.getText(sourceFile), attribute.initializer] as const] : [],
        ),
      );
      if (ts.isJsxElement(node) && node.children.length > 0)
        violations.push(`${at(node)}: <script> has children; its text must come from a compiled boot module`);
      const inner = attributes.get("dangerouslySetInnerHTML");
      if (inner) {
        const html = htmlOf(inner);
        const type = attributes.get("type");
        const isJsonLd = type !== undefined && ts.isStringLiteral(type) && type.text === "application/ld+json";
        const fromBootModule = html !== undefined && isBootText(html, bootScriptImports);
        const fromJsonLd =
          isJsonLd &&
          html !== undefined &&
          ts.isCallExpression(html) &&
          html.expression.getText() === "serializeJsonLd";
        if (!fromBootModule && !fromJsonLd)
          violations.push(
            `${at(node)}: <script> takes its text from ${(html ?? inner).getText(sourceFile)}; ${ALLOWED_TEXT}`,
          );
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return violations;
}

const ALLOWED_TEXT =
  'only a compiled boot module (a "?boot-script" import, or on the server alone) or serializeJsonLd() in a type="application/ld+json" script may give it';

/**
 * A boot module's text: its default import, or `import.meta.env.SSR ? <import> : ""` (the server sends the text; the
 * client hydrates the element as it came and so need not carry it).
 */
function isBootText(html: ts.Expression, bootScriptImports: ReadonlySet<string>): boolean {
  if (ts.isIdentifier(html)) return bootScriptImports.has(html.text);
  return (
    ts.isConditionalExpression(html) &&
    html.condition.getText() === "import.meta.env.SSR" &&
    ts.isIdentifier(html.whenTrue) &&
    bootScriptImports.has(html.whenTrue.text) &&
    ts.isStringLiteral(html.whenFalse) &&
    html.whenFalse.text === ""
  );
}

/** The expression given as `__html` in `dangerouslySetInnerHTML={{ __html: … }}`. */
function htmlOf(initializer: ts.JsxAttributeValue | undefined): ts.Expression | undefined {
  if (!initializer || !ts.isJsxExpression(initializer) || !initializer.expression) return undefined;
  const object = initializer.expression;
  if (!ts.isObjectLiteralExpression(object)) return undefined;
  for (const property of object.properties)
    if (ts.isPropertyAssignment(property) && property.name.getText() === "__html") return property.initializer;
  return undefined;
}

describe("boot code", () => {
  const files = appFiles().map((file) => [file, fs.readFileSync(path.join(ROOT, file), "utf8")] as const);

  it("reads the whole of app/, its inline scripts among it", () => {
    expect(files.length).toBeGreaterThan(200);
    const scripts = files.filter(([, source]) => /<script\b/.test(source)).map(([file]) => file);
    expect(scripts).toEqual(
      expect.arrayContaining([
        "app/features/layout/early-clicks.tsx",
        "app/features/layout/boot-after-paint.tsx",
        "app/features/layout/json-ld.tsx",
      ]),
    );
  });

  it("never names React's private fields: our own code says when the framework takes over", () => {
    expect(files.flatMap(([file, source]) => reactInternalsIn(file, source))).toEqual([]);
  });

  it("builds no script from a string: inline scripts are compiled boot modules or JSON-LD", () => {
    expect(files.flatMap(([file, source]) => stringBuiltScriptsIn(file, source))).toEqual([]);
  });

  it("names the file, the line and what is wrong for each violation", () => {
    expect(
      reactInternalsIn(
        "app/x.ts",
        'const ready = () => Object.keys(document).some((k) => k.startsWith("__reactContainer$"));\nwindow.__reactRouterContext;',
      ),
    ).toEqual(['app/x.ts:1: names React\'s private field "__react…"']);
    const source = [
      'import recorder from "./boot/early-clicks.boot.ts?boot-script";',
      "const SCRIPT = `(()=>{window.x=1})()`;",
      "export const A = () => <script dangerouslySetInnerHTML={{ __html: SCRIPT }} />;",
      "export const B = () => <script dangerouslySetInnerHTML={{ __html: `go(1)` }} />;",
      "export const C = () => <script>{SCRIPT}</script>;",
      "export const D = () => <script dangerouslySetInnerHTML={{ __html: serializeJsonLd(data) }} />;",
      "export const E = () => <script nonce={n} dangerouslySetInnerHTML={{ __html: recorder }} />;",
      'export const F = () => <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: serializeJsonLd(d) }} />;',
      'const run = new Function("return 1"); redis.eval(PAUSE);',
      'export const G = () => <script dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? recorder : "" }} />;',
      "export const H = () => <script dangerouslySetInnerHTML={{ __html: import.meta.env.SSR ? SCRIPT : `` }} />;",
    ].join("\n");
    expect(stringBuiltScriptsIn("app/y.tsx", source)).toEqual([
      "app/y.tsx:9: builds code from a string (new Function(…)",
      `app/y.tsx:3: <script> takes its text from SCRIPT; ${ALLOWED_TEXT}`,
      `app/y.tsx:4: <script> takes its text from \`go(1)\`; ${ALLOWED_TEXT}`,
      "app/y.tsx:5: <script> has children; its text must come from a compiled boot module",
      `app/y.tsx:6: <script> takes its text from serializeJsonLd(data); ${ALLOWED_TEXT}`,
      `app/y.tsx:11: <script> takes its text from import.meta.env.SSR ? SCRIPT : \`\`; ${ALLOWED_TEXT}`,
    ]);
  });
});
