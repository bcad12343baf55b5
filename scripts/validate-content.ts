// Build-time content check: the same validation as boot, so a broken content/ file fails `npm run build`.
import { ContentError } from "../app/features/content/content";
import { contentDir, loadContent, loadLocalizedContent } from "../app/features/content/content.server";
import { DEFAULT_LOCALE, LOCALE_CODES } from "../app/features/i18n/locales";
import { EnvError, getEnv } from "../app/platform/env.server";

try {
  const content = loadContent(contentDir(), { catalogSource: getEnv().CATALOG_SOURCE });
  const products =
    getEnv().CATALOG_SOURCE === "sellauth"
      ? `${content.overlay.length} overlay entries for the shop's products`
      : `${content.products.length} products`;
  console.log(
    `content ok: ${products}, ${content.faq.length} FAQ items, ${content.downloads.length} downloads, ${content.plans.plans.length} plans, ${Object.keys(content.legal).length} legal pages`,
  );
  // Each translation (content/locales/<locale>/): what it lacks shows in English, and is listed here.
  for (const locale of LOCALE_CODES) {
    if (locale === DEFAULT_LOCALE) continue;
    const { reports } = loadLocalizedContent(contentDir(), locale, { catalogSource: getEnv().CATALOG_SOURCE });
    const lines = Object.entries(reports).flatMap(([file, report]) => [
      ...report.missing.map((at) => `  content/locales/${locale}/${file}: ${at}: not translated (English shown)`),
      ...report.ignored.map((at) => `  content/locales/${locale}/${file}: ${at} (ignored)`),
    ]);
    console.log(`content ${locale}: ${lines.length === 0 ? "fully translated" : `${lines.length} gap(s)`}`);
    for (const line of lines) console.log(line);
  }
} catch (error) {
  if (error instanceof EnvError) {
    console.error(error.message);
    process.exit(1);
  }
  if (!(error instanceof ContentError)) throw error;
  console.error(`Content is invalid:\n${error.message}`);
  process.exit(1);
}
