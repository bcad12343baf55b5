import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { Plugin } from "vite";

const COMPRESSIBLE = /\.(js|css|svg|json|txt|map)$/;

/**
 * Writes `name.br` (quality 11) and `name.gz` (level 9) next to every compressible client asset at build time, so
 * the server sends the smallest encoding without compressing per request (~15% smaller than on-the-fly gzip/br-4).
 */
export function precompressAssets(): Plugin {
  return {
    name: "kestrel-precompress-assets",
    applyToEnvironment: (environment) => environment.name === "client",
    writeBundle(options, bundle) {
      const outDir = options.dir ?? "";
      for (const fileName of Object.keys(bundle)) {
        if (!COMPRESSIBLE.test(fileName) || !fileName.startsWith("assets/")) continue;
        const file = path.join(outDir, fileName);
        const source = fs.readFileSync(file);
        if (source.length < 1024) continue;
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(source, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
            },
          }),
        );
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(source, { level: 9 }));
      }
    },
  };
}
