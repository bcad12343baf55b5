// A copy of content/ whose products.json holds `count` products: the six demo products first (so home tiles, aliases,
// docs and coupons still resolve), then the demo repeated with unique ids, slugs, names, prices and variant ids.
// Used by the catalogue-size bench and the end-to-end tests of a large catalogue; never shipped as content.
import fs from "node:fs";
import path from "node:path";

const CONTENT_DIR = path.resolve(import.meta.dirname, "../../content");
/** Words that make each copy's name distinct and searchable. */
const EDITIONS = [
  "Amber",
  "Birch",
  "Cobalt",
  "Dune",
  "Ember",
  "Fjord",
  "Granite",
  "Harbor",
  "Indigo",
  "Juniper",
  "Kelp",
  "Lumen",
];

/** The demo products repeated to `count` (deterministic: the same count gives the same file). */
export function generateProducts(count) {
  const demo = JSON.parse(fs.readFileSync(path.join(CONTENT_DIR, "products.json"), "utf8"));
  const products = demo.slice(0, count);
  for (let i = demo.length; i < count; i++) {
    const base = demo[i % demo.length];
    const edition = EDITIONS[Math.floor(i / demo.length) % EDITIONS.length];
    const name = `${base.name} ${edition} ${i}`;
    // Whole cents, spread over 0.25 … 100 so price sorts and bounds have something to order.
    const price = Math.round((base.price + (i % 97) + ((i * 37) % 100) / 100) * 100) / 100;
    products.push({
      ...base,
      id: 1_000_000 + i,
      slug: `${base.slug}-${i}`,
      name,
      price,
      originalPrice: base.originalPrice === undefined ? undefined : Math.round((price + 5) * 100) / 100,
      isFeatured: base.isFeatured && i % 7 === 0,
      description: `${base.description} ${edition} edition.`,
      cardImage: { ...base.cardImage, alt: name },
      images: base.images.map((image) => ({ ...image, alt: `${name}: ${image.alt}` })),
      durations: base.durations.map((duration, j) => ({ ...duration, variantId: 2_000_000 + i * 10 + j })),
    });
  }
  return products;
}

/** Writes content/ with `count` products into `dir` (created if missing) and returns `dir`. */
export function writeCatalogue(dir, count) {
  fs.mkdirSync(dir, { recursive: true });
  fs.cpSync(CONTENT_DIR, dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "products.json"), `${JSON.stringify(generateProducts(count), null, 2)}\n`);
  return dir;
}
