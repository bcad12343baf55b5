/** The demo products repeated to `count`, as content/products.json holds them. */
export function generateProducts(count: number): unknown[];
/** Writes content/ with `count` products into `dir` and returns `dir`. */
export function writeCatalogue(dir: string, count: number): string;
