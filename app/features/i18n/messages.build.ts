import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { transformAsync } from "@babel/core";
import linguiMacro from "@lingui/babel-plugin-lingui-macro";
import { getConfig } from "@lingui/conf";
import { formatter } from "@lingui/format-po";
import { type CompiledMessage, compileMessageOrThrow } from "@lingui/message-utils/compileMessage";
import type { Plugin } from "vite";
import { LOCALE_CODES, PSEUDO_LOCALE } from "./locales";
import { PAGE_MESSAGES_DIR, PAGE_MESSAGES_QUEUE } from "./page-messages";
import { pseudoLocalize } from "./pseudo-locale";

const SOURCE_LOCALE = "en";
const CATALOGUE = /[\\/]locales[\\/]([a-z-]+)[\\/]messages\.po$/;
const MACRO_IMPORT = /from\s+["']@lingui\/(?:core|react)\/macro["']/;
// A message descriptor as the macro writes it in production (`{ id: "x_-k3z" }`); other `id`s are filtered out later.
const DESCRIPTOR_ID = /\bid:\s*"([^"\\]+)"/g;

export interface CompiledCatalogue {
  messages: Record<string, CompiledMessage>;
  /** Ids the locale has no translation for (they show the English message). */
  missing: string[];
}

const po = formatter({ lineNumbers: false });

async function readCatalogue(file: string, locale: string) {
  const text = fs.readFileSync(file, "utf8");
  return po.parse(text, { locale, sourceLocale: SOURCE_LOCALE, filename: file });
}

/**
 * One locale's messages, compiled for Lingui's runtime. A missing translation falls back to the English message and
 * is listed; a message that is not valid ICU MessageFormat throws, naming the file and the message, and fails the build.
 * The pseudo-locale is English accented and about 40% longer, made here rather than kept as a file.
 */
export async function compileCatalogue(localesDir: string, locale: string): Promise<CompiledCatalogue> {
  const english = await readCatalogue(path.join(localesDir, SOURCE_LOCALE, "messages.po"), SOURCE_LOCALE);
  const translated =
    locale === SOURCE_LOCALE || locale === PSEUDO_LOCALE
      ? english
      : await readCatalogue(path.join(localesDir, locale, "messages.po"), locale);
  const messages: Record<string, CompiledMessage> = {};
  const missing: string[] = [];
  for (const [id, source] of Object.entries(english)) {
    if (source.obsolete) continue;
    const sourceText = source.translation || source.message || id;
    const own = translated[id]?.translation;
    if (locale !== SOURCE_LOCALE && locale !== PSEUDO_LOCALE && !own) missing.push(source.message ?? id);
    const text = locale === PSEUDO_LOCALE ? sourceText : own || sourceText;
    try {
      messages[id] = compileMessageOrThrow(text, locale === PSEUDO_LOCALE ? pseudoLocalize : undefined);
    } catch (error) {
      throw new Error(
        `app/locales/${locale}/messages.po: message "${source.message ?? id}" is not valid ICU MessageFormat: ${(error as Error).message}`,
      );
    }
  }
  return { messages, missing };
}

/**
 * Shorter ids for a build's bundles and catalogues: each of Lingui's ids (a six-character hash, written once in the code
 * and once in each catalogue) cut to the fewest characters no other id starts with; most keep two or three.
 */
export function shortMessageIds(ids: Iterable<string>): Map<string, string> {
  const sorted = [...new Set(ids)].sort();
  const shared = (id: string, other: string | undefined) => {
    let length = 0;
    while (other !== undefined && length < id.length && id[length] === other[length]) length++;
    return length;
  };
  return new Map(
    sorted.map((id, at) => [id, id.slice(0, Math.max(shared(id, sorted[at - 1]), shared(id, sorted[at + 1])) + 1)]),
  );
}

/** `messages` with each key under its short id. */
function withShortIds<T>(messages: Record<string, T>, short: Map<string, string>): Record<string, T> {
  return Object.fromEntries(Object.entries(messages).map(([id, message]) => [short.get(id) ?? id, message]));
}

/**
 * Lingui at build time: the `@lingui/*\/macro` calls in app/ become message ids (English stays in the catalogue, not the
 * bundle), and `import("~/locales/<locale>/messages.po")` becomes that locale's compiled messages, each its own chunk so
 * a page sends only its own language (docs/decisions/017).
 */
export function linguiMessages(): Plugin[] {
  let linguiConfig: ReturnType<typeof getConfig> | undefined;
  const reported = new Set<string>();
  let root = process.cwd();
  // Module id → the message ids its macros became: what a chunk that holds the module needs translated.
  const idsByModule = new Map<string, string[]>();
  // Builds write short ids (the dev server and Vitest keep Lingui's own): one map for the code and the catalogues.
  let building = false;
  let shortIds: Promise<Map<string, string>> | undefined;
  const shortIdsOf = () => {
    if (!building) return Promise.resolve(new Map<string, string>());
    shortIds ??= compileCatalogue(path.join(root, "app", "locales"), SOURCE_LOCALE).then(({ messages }) =>
      shortMessageIds(Object.keys(messages)),
    );
    return shortIds;
  };
  return [
    {
      name: "kestrel:lingui-macros",
      enforce: "pre",
      async transform(code, id) {
        if (!/\.[jt]sx?$/.test(id.split("?")[0] ?? "") || id.includes("node_modules") || !MACRO_IMPORT.test(code))
          return undefined;
        linguiConfig ??= getConfig({ cwd: process.cwd(), skipValidation: true });
        const result = await transformAsync(code, {
          filename: id.split("?")[0],
          babelrc: false,
          configFile: false,
          sourceMaps: true,
          parserOpts: { plugins: ["jsx", "typescript"] },
          plugins: [[linguiMacro, { linguiConfig }]],
        });
        if (!result?.code) return undefined;
        const short = await shortIdsOf();
        const ids: string[] = [];
        const output = result.code.replace(DESCRIPTOR_ID, (descriptor, messageId: string) => {
          const written = short.get(messageId) ?? messageId;
          ids.push(written);
          return written === messageId ? descriptor : `id: ${JSON.stringify(written)}`;
        });
        idsByModule.set(id, ids);
        return { code: output, map: result.map };
      },
    },
    {
      name: "kestrel:lingui-catalogues",
      configResolved(config) {
        root = config.root;
        building = config.command === "build";
      },
      resolveId(source) {
        // The pseudo-locale has no file of its own: it is made from the English catalogue.
        if (!source.endsWith(`${PSEUDO_LOCALE}/messages.po`)) return undefined;
        return path.join(root, "app", "locales", PSEUDO_LOCALE, "messages.po");
      },
      async load(id) {
        const match = CATALOGUE.exec(id);
        if (!match?.[1]) return undefined;
        const locale = match[1];
        const localesDir = path.dirname(path.dirname(id));
        for (const dependency of new Set([SOURCE_LOCALE, locale === PSEUDO_LOCALE ? SOURCE_LOCALE : locale]))
          this.addWatchFile(path.join(localesDir, dependency, "messages.po"));
        const { messages, missing } = await compileCatalogue(localesDir, locale);
        if (missing.length > 0 && !reported.has(locale)) {
          reported.add(locale);
          this.warn(
            `${missing.length} message(s) not yet translated into ${locale} (English shown):\n  ${missing.join("\n  ")}`,
          );
        }
        const own = withShortIds(messages, await shortIdsOf());
        return { code: `export const messages = JSON.parse(${JSON.stringify(JSON.stringify(own))});`, map: null };
      },
    },
    pageMessages(() => root, idsByModule, shortIdsOf),
  ];
}

/**
 * Each page loads only the messages its own code uses, in its own language (issue 21's budget: docs/decisions/017).
 * The root route's chunk carries the messages of everything it reaches by static imports (the shell); every other route
 * chunk, and every lazily loaded chunk (the chat panel, the checkout dialog), carries what it reaches beyond the shell.
 * A chunk's messages are one file per locale, named by the hash of them all, so each stays cacheable for ever; the
 * chunk ends by asking for them with a top-level await (`page-messages.ts`), so an `import()` of it, or the router
 * loading a route, settles once they are in.
 */
function pageMessages(
  projectRoot: () => string,
  idsByModule: Map<string, string[]>,
  shortIdsOf: () => Promise<Map<string, string>>,
): Plugin {
  let catalogues: Map<string, Record<string, CompiledMessage>> | undefined;
  const files = new Map<string, string>();
  let shell: Set<string> | undefined;
  return {
    name: "kestrel:lingui-page-messages",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "client",
    async buildStart() {
      const localesDir = path.join(projectRoot(), "app", "locales");
      catalogues = new Map();
      const short = await shortIdsOf();
      for (const locale of [...LOCALE_CODES, PSEUDO_LOCALE])
        catalogues.set(locale, withShortIds((await compileCatalogue(localesDir, locale)).messages, short));
      files.clear();
      shell = undefined;
    },
    renderChunk(code, chunk) {
      if (!(chunk.isEntry || chunk.isDynamicEntry) || !chunk.facadeModuleId || !catalogues) return null;
      const english = catalogues.get(SOURCE_LOCALE) ?? {};
      const messagesReached = (entry: string) => {
        const ids = new Set<string>();
        for (const moduleId of staticallyReached(entry, (id) => this.getModuleInfo(id)?.importedIds ?? []))
          for (const id of idsByModule.get(moduleId) ?? []) if (Object.hasOwn(english, id)) ids.add(id);
        return ids;
      };
      const rootModule = path.join(projectRoot(), "app", "root.tsx");
      shell ??= messagesReached(rootModule);
      const shellIds = shell;
      const ids =
        chunk.facadeModuleId.split("?")[0] === rootModule
          ? [...shellIds]
          : [...messagesReached(chunk.facadeModuleId)].filter((id) => !shellIds.has(id));
      if (ids.length === 0) return null;
      ids.sort();
      const perLocale = [...catalogues].map(([locale, messages]) => {
        const own = Object.fromEntries(ids.map((id) => [id, messages[id] ?? english[id]]));
        return [locale, `export const messages = JSON.parse(${JSON.stringify(JSON.stringify(own))});\n`] as const;
      });
      const hash = crypto.createHash("sha256");
      for (const [locale, source] of perLocale) hash.update(`${locale}\0${source}\0`);
      const key = `${chunk.name.replace(/[^A-Za-z0-9_-]/g, "-")}-${hash.digest("base64url").slice(0, 8)}`;
      for (const [locale, source] of perLocale) files.set(`${PAGE_MESSAGES_DIR}/${key}.${locale}.js`, source);
      return { code: `${code}\nawait (self.${PAGE_MESSAGES_QUEUE} ||= []).push(${JSON.stringify(key)});\n`, map: null };
    },
    generateBundle() {
      for (const [fileName, source] of files) this.emitFile({ type: "asset", fileName, source });
    },
  };
}

/** Every module `entry` reaches through static imports (dynamic ones start chunks of their own), ours only. */
function staticallyReached(entry: string, importsOf: (id: string) => readonly string[]): Set<string> {
  const reached = new Set<string>();
  const pending = [entry];
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    if (reached.has(id) || id.includes("node_modules")) continue;
    reached.add(id);
    pending.push(...importsOf(id));
  }
  return reached;
}
