import path from "node:path";
import { defineConfig } from "vitest/config";
import { linguiMessages } from "./app/features/i18n/messages.build";

export default defineConfig({
  plugins: [linguiMessages()],
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
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
