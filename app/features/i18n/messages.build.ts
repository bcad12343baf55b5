import fs from "node:fs";
import path from "node:path";
import { transformAsync } from "@babel/core";
import linguiMacro from "@lingui/babel-plugin-lingui-macro";
import { getConfig } from "@lingui/conf";
import { formatter } from "@lingui/format-po";
import { type CompiledMessage, compileMessageOrThrow } from "@lingui/message-utils/compileMessage";
import type { Plugin } from "vite";
import { pseudoLocalize } from "./pseudo-locale";

const SOURCE_LOCALE = "en";
const PSEUDO_LOCALE = "en-xa";
const CATALOGUE = /[\\/]locales[\\/]([a-z-]+)[\\/]messages\.po$/;
const MACRO_IMPORT = /from\s+["']@lingui\/(?:core|react)\/macro["']/;

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
 * Lingui at build time: the `@lingui/*\/macro` calls in app/ become message ids (English stays in the catalogue, not the
 * bundle), and `import("~/locales/<locale>/messages.po")` becomes that locale's compiled messages, each its own chunk so
 * a page sends only its own language (docs/decisions/017).
 */
export function linguiMessages(): Plugin[] {
  let linguiConfig: ReturnType<typeof getConfig> | undefined;
  const reported = new Set<string>();
  let root = process.cwd();
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
        return result?.code ? { code: result.code, map: result.map } : undefined;
      },
    },
    {
      name: "kestrel:lingui-catalogues",
      configResolved(config) {
        root = config.root;
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
        return { code: `export const messages = JSON.parse(${JSON.stringify(JSON.stringify(messages))});`, map: null };
      },
    },
  ];
}
