import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { linguiMessages } from "./app/features/i18n/messages.build";
import { bootScripts } from "./app/features/layout/boot/boot-scripts.build";
import { inlineStylesheet } from "./app/features/layout/inline-stylesheet.build";
import { precompressAssets } from "./scripts/vite-precompress-assets";

export default defineConfig({
  resolve: {
    alias: {
      "~": path.resolve(import.meta.dirname, "app"),
      "use-sync-external-store/shim": path.resolve(import.meta.dirname, "app/lib/use-sync-external-store-shim.ts"),
    },
  },
  environments: {
    client: {
      build: {
        rolldownOptions: {
          output: {
            // Few, larger chunks: on HTTP/1.1 a browser opens six connections per host, so a first visit paid a round
            // trip for each of ~17 small files. React and React Router share one chunk; the small modules pages share
            // another (lazily loaded features stay in their own chunks).
            codeSplitting: {
              groups: [
                // zod-without-eval rides with the framework, which every chunk that builds a schema loads first. Our
                // entry.client stays a chunk of its own: it waits for the page's messages (a top-level await), so inside
                // the framework chunk it would run, and hydrate, as soon as any route module imported that chunk.
                {
                  name: "framework",
                  test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|@react-router|turbo-stream|cookie|set-cookie-parser)[\\/]|[\\/]app[\\/]lib[\\/]zod-without-eval/,
                  priority: 2,
                },
                {
                  name: "shared",
                  test: /[\\/]app[\\/](components|lib|features[\\/](layout|catalog|i18n)|features[\\/]support-chat[\\/]open-support-chat)/,
                  minShareCount: 2,
                  priority: 1,
                },
              ],
            },
          },
        },
      },
    },
    // The SSR bundle's entry is the Express app, so APIs, workers and pages share one module graph.
    ssr: { build: { rolldownOptions: { input: "./app/http/app.ts" }, target: "node24" } },
  },
  build: { target: "es2022" },
  plugins: [linguiMessages(), tailwindcss(), inlineStylesheet(), bootScripts(), reactRouter(), precompressAssets()],
});
