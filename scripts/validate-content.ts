// Build-time content check: the same validation as boot, so a broken content/ file fails `npm run build`.
import { ContentError } from "../app/features/content/content";
import { contentDir, loadContent } from "../app/features/content/content.server";
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
} catch (error) {
  if (error instanceof EnvError) {
    console.error(error.message);
    process.exit(1);
  }
  if (!(error instanceof ContentError)) throw error;
  console.error(`Content is invalid:\n${error.message}`);
  process.exit(1);
}
