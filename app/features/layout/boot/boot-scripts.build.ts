import { build } from "rolldown";
import type { Plugin } from "vite";

const SUFFIX = "?boot-script";
const ENTRY = "\0boot-script-entry";

/**
 * Compiles a boot module (`*.boot.ts`, whose default export installs it on a window) into one minified script that
 * installs it on the page's window: what an inline `<script>` in the document runs before the framework starts.
 * Returns the script and the files it was built from.
 */
export async function compileBootScript(file: string): Promise<{ code: string; files: string[] }> {
  const { output } = await build({
    input: ENTRY,
    write: false,
    platform: "browser",
    plugins: [
      {
        name: "kestrel:boot-script-entry",
        resolveId: (id) => (id === ENTRY ? id : undefined),
        load: (id) => (id === ENTRY ? `import install from ${JSON.stringify(file)};\ninstall(window);` : undefined),
      },
    ],
    transform: { target: "es2022" },
    output: { format: "iife", minify: true },
  });
  const [chunk] = output;
  if (chunk?.type !== "chunk") throw new Error(`${file}: rolldown built no script`);
  const code = chunk.code.trim();
  // The text goes into a <script> element as is: these would end it early or change how it is parsed.
  if (/<\/script|<!--/i.test(code)) throw new Error(`${file}: the compiled boot script contains "</script" or "<!--"`);
  return { code, files: chunk.moduleIds.filter((id) => !id.startsWith("\0")) };
}

/**
 * `import script from "./x.boot.ts?boot-script"` gives the compiled text of that boot module (docs/decisions/012), so
 * what runs before hydration is typed, linted and tested TypeScript like the rest of the app, and still ships inline.
 */
export function bootScripts(): Plugin {
  return {
    name: "kestrel:boot-scripts",
    async load(id) {
      if (!id.endsWith(SUFFIX)) return undefined;
      const { code, files } = await compileBootScript(id.slice(0, -SUFFIX.length));
      for (const file of files) this.addWatchFile(file);
      return { code: `export default ${JSON.stringify(code)};`, map: null };
    },
  };
}
