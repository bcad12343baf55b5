import siteCss from "~/app.css?inline";
import { inlinableCss } from "~/features/layout/inline-stylesheet";

/** The site stylesheet as every page inlines it (docs/decisions/011). */
export const SITE_CSS = inlinableCss(siteCss);
/** The same bytes, one object: the HTML cache compresses them once for every page (`compressTemplate`'s shared segment). */
export const SITE_CSS_BYTES = Buffer.from(SITE_CSS);
