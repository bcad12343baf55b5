import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { precompressAssets } from "./scripts/vite-precompress-assets";

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  environments: {
    // The SSR bundle's entry is the Express app, so APIs, workers and pages share one module graph.
    ssr: { build: { rolldownOptions: { input: "./app/server/app.ts" }, target: "node24" } },
  },
  build: { target: "es2022" },
  plugins: [tailwindcss(), reactRouter(), precompressAssets()],
});
