// Node module hooks for code run by tsx outside Vite (the CLI, the cluster test, content checks): app modules that
// write messages with Lingui's macros get the same Babel transform the build gives them (app/features/i18n/messages.build.ts).
import { transformAsync } from "@babel/core";
import linguiMacro from "@lingui/babel-plugin-lingui-macro";
import { getConfig } from "@lingui/conf";

const MACRO_IMPORT = /from\s*["']@lingui\/(?:core|react)\/macro["']/;
let linguiConfig;

export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  if (!url.startsWith("file:") || url.includes("/node_modules/") || !/\.[cm]?[jt]sx?$/.test(new URL(url).pathname))
    return result;
  const source = typeof result.source === "string" ? result.source : result.source?.toString();
  if (!source || !MACRO_IMPORT.test(source)) return result;
  linguiConfig ??= getConfig({ cwd: process.cwd(), skipValidation: true });
  const transformed = await transformAsync(source, {
    filename: new URL(url).pathname,
    babelrc: false,
    configFile: false,
    parserOpts: { plugins: ["jsx", "typescript"] },
    plugins: [[linguiMacro, { linguiConfig }]],
  });
  return { ...result, source: transformed?.code ?? source, shortCircuit: true };
}
