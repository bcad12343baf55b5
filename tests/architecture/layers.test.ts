import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// Layers point one way: routes and app/http import features; features import the platform; the platform imports
// nothing of ours above it; db/ knows nothing of the app. Inside the console, rooms import staff and audit, never the
// reverse, and a room borrows another room's model, never its pages (docs/console.md). This reads every import and
// names each one that breaks that.

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
  /** Files this rule applies to (path prefix; "" for every scanned file). */
  files: string;
  /** Files under `files` the rule leaves out (path prefixes). */
  except?: string[];
  /** Path prefixes those files must not import. */
  mayNotImport: string[];
  /** Targets under `mayNotImport` that are allowed after all (path prefixes). */
  mayImport?: string[];
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
  {
    files: "app/features/staff/",
    mayNotImport: ["app/features/console/"],
    why: "staff is the console's door: the rooms import it, never the reverse",
  },
  {
    files: "app/features/audit/",
    mayNotImport: ["app/features/", "app/components/"],
    mayImport: ["app/features/audit/"],
    why: "the audit log imports only the platform and db/",
  },
  {
    files: "",
    except: ["app/features/buyer-orders/", "app/routes/"],
    mayNotImport: ["app/features/buyer-orders/orders-page"],
    why: "the buyer's orders page modules serve its routes alone; shared form helpers live in app/platform/",
  },
];

const CONSOLE_ROOM = /^app\/features\/console\/([^/]+)\//;
const ROOM_PAGE_FILE = /^app\/features\/console\/([^/]+)\/[^/]*-page[^/]*$/;
const ROOM_RULE = "a room imports another room's model, never its page files; what rooms share lives in shell/";

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
  return edges.flatMap((edge) => [
    ...rules
      .filter(
        (rule) =>
          edge.from.startsWith(rule.files) &&
          !rule.except?.some((exempt) => edge.from.startsWith(exempt)) &&
          rule.mayNotImport.some((forbidden) => `${edge.target}/`.startsWith(forbidden)) &&
          !rule.mayImport?.some((allowed) => `${edge.target}/`.startsWith(allowed)),
      )
      .map((rule) => `${edge.from}: imports "${edge.specifier}" (${rule.why})`),
    ...roomViolations(edge),
  ]);
}

/** A console room importing a `*-page*` file of another room. */
function roomViolations(edge: ImportEdge): string[] {
  const from = CONSOLE_ROOM.exec(edge.from)?.[1];
  const to = ROOM_PAGE_FILE.exec(edge.target)?.[1];
  return from && to && from !== to ? [`${edge.from}: imports "${edge.specifier}" (${ROOM_RULE})`] : [];
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

  it("keeps staff and audit free of the console's rooms, the rooms out of each other's pages, and the buyer's orders page to its routes", () => {
    const edges = [
      ...importsOf(
        "app/features/staff/door.server.ts",
        'import { ConsoleHeading } from "~/features/console/shell/console-heading";',
      ),
      ...importsOf(
        "app/features/audit/audit-log.server.ts",
        'import { requireStaff } from "~/features/staff/door.server";\nimport type { Database } from "../../../db/schema";',
      ),
      ...importsOf(
        "app/features/console/support/conversation-page.server.ts",
        'import { catalogueNames } from "../orders/orders-page.server";\nimport { searchOrders } from "../orders/orders.server";',
      ),
      ...importsOf(
        "app/features/console/support/support-page.tsx",
        'import { InboxPage } from "./support-page";\nimport { MessageBox } from "../saved-replies/saved-replies-page";',
      ),
      ...importsOf(
        "app/features/console/staff/staff-page.server.ts",
        'import { readSmallForm } from "~/features/buyer-orders/orders-page.server";',
      ),
      ...importsOf("cli/orders.ts", 'import { OrdersPage } from "~/features/buyer-orders/orders-page";'),
      ...importsOf("app/routes/orders.tsx", 'import { OrdersPage } from "~/features/buyer-orders/orders-page";'),
      ...importsOf(
        "app/features/buyer-orders/orders-page.tsx",
        'import type { SignInNotice } from "./sign-in";\nimport { x } from "./orders-page.server";',
      ),
    ];
    expect(layerViolations(edges)).toEqual([
      'app/features/staff/door.server.ts: imports "~/features/console/shell/console-heading" (staff is the console\'s door: the rooms import it, never the reverse)',
      'app/features/audit/audit-log.server.ts: imports "~/features/staff/door.server" (the audit log imports only the platform and db/)',
      'app/features/console/support/conversation-page.server.ts: imports "../orders/orders-page.server" (a room imports another room\'s model, never its page files; what rooms share lives in shell/)',
      'app/features/console/support/support-page.tsx: imports "../saved-replies/saved-replies-page" (a room imports another room\'s model, never its page files; what rooms share lives in shell/)',
      'app/features/console/staff/staff-page.server.ts: imports "~/features/buyer-orders/orders-page.server" (the buyer\'s orders page modules serve its routes alone; shared form helpers live in app/platform/)',
      'cli/orders.ts: imports "~/features/buyer-orders/orders-page" (the buyer\'s orders page modules serve its routes alone; shared form helpers live in app/platform/)',
    ]);
  });
});

describe("the features' folders", () => {
  const featureFolders = (dir: string): string[] =>
    fs
      .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => {
        const folder = path.posix.join(dir, entry.name);
        return [folder, ...featureFolders(folder)];
      });

  it("keeps every folder of app/features/ under 25 files", () => {
    const crowded = featureFolders("app/features")
      .map((folder) => ({
        folder,
        files: fs.readdirSync(path.join(ROOT, folder), { withFileTypes: true }).filter((entry) => entry.isFile())
          .length,
      }))
      .filter(({ files }) => files >= 25);
    expect(crowded).toEqual([]);
  });

  it("keeps each file of the console in a room's folder", () => {
    const loose = fs
      .readdirSync(path.join(ROOT, "app/features/console"), { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
    expect(loose).toEqual([]);
  });
});
