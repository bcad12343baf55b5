// `node scripts/generate-catalogue.mjs 1000 /tmp/catalogue-1000`: a content/ copy with 1,000 products, for trying the
// shop with a large catalogue (`CONTENT_DIR=/tmp/catalogue-1000 npm start`).
import { writeCatalogue } from "./lib/generate-catalogue.mjs";

const [count, dir] = process.argv.slice(2);
if (!/^\d+$/.test(count ?? "") || !dir) {
  console.error("usage: node scripts/generate-catalogue.mjs <products> <directory>");
  process.exit(2);
}
writeCatalogue(dir, Number(count));
console.log(`wrote ${count} products to ${dir}`);
