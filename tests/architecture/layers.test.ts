import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// Layers point one way: routes and app/http import features; features import the platform; the platform imports
// nothing of ours above it; db/ knows nothing of the app. This reads every import and names each one that breaks that.

const ROOT = path.resolve(import.meta.dirname, "../..");
const SCANNED = ["app", "db", "cli"];

interface ImportEdge {
  /** The importing file, relative to the repository root (`app/platform/logger.server.ts`). */
  from: string;
  /** The specifier as written (`~/features/content/content.server`). */
  specifier: string;
  /** Where it points, relative to the repository root, without extension (`app/features/content/content.server`). */
  target: string;
}

interface LayerRule {
  /** Files this rule applies to (path prefix). */
  files: string;
  /** Path prefixes those files must not import. */
  mayNotImport: string[];
  why: string;
}

const LAYER_RULES: LayerRule[] = [
  {
    files: "app/platform/",
    mayNotImport: ["app/features/", "app/http/", "app/routes/", "app/components/"],
    why: "the platform imports nothing above it",
  },
  {
    files: "app/features/",
    mayNotImport: ["app/http/", "app/routes/"],
    why: "features are mounted by app/http and composed by routes, never the reverse",
  },
  { files: "app/routes/", mayNotImport: ["app/http/"], why: "routes compose features; only app/http mounts them" },
  {
    files: "app/features/orders/",
    mayNotImport: ["app/features/checkout/"],
    why: "checkout records orders, so orders cannot depend on checkout",
  },
  { files: "db/", mayNotImport: ["app/"], why: "the database layer knows nothing of the app" },
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(relative);
    return /\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [relative] : [];
  });
}

/** Our own modules a file imports (static, type-only, re-exports and dynamic `import()`); packages are left out. */
function importsOf(file: string, source: string): ImportEdge[] {
  return ts.preProcessFile(source, true, true).importedFiles.flatMap(({ fileName: specifier }) => {
    let target: string;
    if (specifier.startsWith("~/")) target = path.posix.join("app", specifier.slice(2));
    else if (specifier.startsWith(".")) target = path.posix.join(path.posix.dirname(file), specifier);
    else return [];
    return [{ from: file, specifier, target: target.replace(/\.(ts|tsx|mts|js)$/, "") }];
  });
}

/** Every import that breaks a rule, as `file: imports "specifier" (why)`. */
function layerViolations(edges: readonly ImportEdge[], rules: readonly LayerRule[] = LAYER_RULES): string[] {
  return edges.flatMap((edge) =>
    rules
      .filter(
        (rule) =>
          edge.from.startsWith(rule.files) &&
          rule.mayNotImport.some((forbidden) => `${edge.target}/`.startsWith(forbidden)),
      )
      .map((rule) => `${edge.from}: imports "${edge.specifier}" (${rule.why})`),
  );
}

function importGraph(): ImportEdge[] {
  return SCANNED.flatMap(sourceFiles).flatMap((file) =>
    importsOf(file, fs.readFileSync(path.join(ROOT, file), "utf8")),
  );
}

describe("import direction", () => {
  const graph = importGraph();

  it("reads the imports of app/, db/ and cli/", () => {
    expect(graph.length).toBeGreaterThan(100);
    expect(graph).toContainEqual({
      from: "app/http/api.server.ts",
      specifier: "~/features/checkout/checkout.api.server",
      target: "app/features/checkout/checkout.api.server",
    });
  });

  it("has no import against the layer rules", () => {
    expect(layerViolations(graph)).toEqual([]);
  });

  it("names the file, the import and the rule for each violation", () => {
    const edges = [
      ...importsOf("app/platform/logger.server.ts", 'import { getContent } from "~/features/content/content.server";'),
      ...importsOf("app/features/faq/faq.ts", 'export type { X } from "../../http/app";'),
      ...importsOf(
        "app/features/orders/orders.server.ts",
        'const m = await import("~/features/checkout/checkout.server");',
      ),
      ...importsOf("db/client.ts", 'import type { Env } from "../app/platform/env.server";'),
      ...importsOf("app/routes/home.tsx", 'import { nonceContext } from "~/http/context.server";'),
      ...importsOf(
        "app/features/checkout/checkout.server.ts",
        'import { createPendingOrder } from "~/features/orders/orders.server";\nimport express from "express";',
      ),
    ];
    expect(layerViolations(edges)).toEqual([
      'app/platform/logger.server.ts: imports "~/features/content/content.server" (the platform imports nothing above it)',
      'app/features/faq/faq.ts: imports "../../http/app" (features are mounted by app/http and composed by routes, never the reverse)',
      'app/features/orders/orders.server.ts: imports "~/features/checkout/checkout.server" (checkout records orders, so orders cannot depend on checkout)',
      'db/client.ts: imports "../app/platform/env.server" (the database layer knows nothing of the app)',
      'app/routes/home.tsx: imports "~/http/context.server" (routes compose features; only app/http mounts them)',
    ]);
  });
});
