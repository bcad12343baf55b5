import type { ProductCardData } from "./catalog";
import { ProductCard } from "./product-card";

/** How many cards fill the first row on wide screens: their images load eagerly, the rest lazily. */
const EAGER_CARDS = 3;

export function ProductGrid({ products }: { products: readonly ProductCardData[] }) {
  return (
    <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
      {products.map((product, index) => (
        <li key={product.id}>
          <ProductCard product={product} eager={index < EAGER_CARDS} />
        </li>
      ))}
    </ul>
  );
}
