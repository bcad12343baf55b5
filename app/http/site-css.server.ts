import siteCss from "~/app.css?inline";

/** The site stylesheet as every page inlines it, made inlinable at build time (docs/decisions/011). */
export const SITE_CSS = siteCss;
/** The same bytes, one object: the render cache compresses them once for every page (`compressTemplate`'s shared segment). */
export const SITE_CSS_BYTES = Buffer.from(SITE_CSS);
