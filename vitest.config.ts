import path from "node:path";
import { defineConfig } from "vitest/config";
import { linguiMessages } from "./app/features/i18n/messages.build";
import { bootScripts } from "./app/features/layout/boot/boot-scripts.build.ts";

export default defineConfig({
  // Messages written with Lingui's macros, and modules that render the boot scripts' compiled text (`?boot-script`).
  plugins: [linguiMessages(), bootScripts()],
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: [
      "app/**/*.test.ts",
      "db/**/*.test.ts",
      "cli/**/*.test.ts",
      "tests/integration/**/*.test.ts",
      "scripts/**/*.test.ts",
      "tests/architecture/**/*.test.ts",
    ],
    environment: "node",
    // Vitest's default on 2 cores is one file at a time; these files mostly wait on databases, timers and child
    // processes, so two run side by side (each in its own process, each with its own databases).
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
