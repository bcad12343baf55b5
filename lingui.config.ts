import { defineConfig } from "@lingui/conf";
import { formatter } from "@lingui/format-po";

/**
 * The interface's messages: `npm run i18n:extract` collects them from app/ into one catalogue per locale
 * (app/locales/<locale>/messages.po); the build compiles them (app/features/i18n/messages.build.ts).
 * Shop content is translated in content/locales/<locale>/ instead (docs/i18n.md).
 */
export default defineConfig({
  sourceLocale: "en",
  locales: ["en", "de", "es", "pt-br", "ar"],
  catalogs: [
    {
      path: "<rootDir>/app/locales/{locale}/messages",
      include: ["<rootDir>/app"],
      exclude: ["**/*.test.ts", "**/*.test.tsx", "**/node_modules/**"],
    },
  ],
  format: formatter({ lineNumbers: false }),
});
