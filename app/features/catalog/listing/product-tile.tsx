import { Trans } from "@lingui/react/macro";
import { Link } from "react-router";
import { useLocale } from "~/features/i18n/use-locale";
import { type ProductTileData, productPath } from "../catalog";
import { PriceText } from "~/features/currency/price-text";
import { useDisplayCurrency } from "~/features/currency/display-currency";
import { priceCents } from "../pricing";

/** A compact home-page link to a product: image, name, starting price. */
export function ProductTile({ product }: { product: ProductTileData }) {
  const { path } = useLocale();
  const price = (
    <PriceText cents={priceCents(product.price, 1)} currency={product.currency} display={useDisplayCurrency()} />
  );
  return (
    <Link
      to={path(productPath(product))}
      className="group block h-full overflow-hidden rounded-2xl border border-foreground/10 bg-surface/60 transition hover:-translate-y-0.5 hover:border-accent/50"
    >
      <img
        src={product.cardImage.src}
        alt=""
        width={product.cardImage.width}
        height={product.cardImage.height}
        loading="lazy"
        decoding="async"
        className="aspect-[8/5] h-auto w-full object-cover"
      />
      <span className="block p-4">
        <span className="block font-semibold text-foreground">{product.name}</span>
        <span className="mt-1 block text-sm text-soft">
          <Trans comment="A product's starting price, on its tile">From {price}</Trans>
        </span>
      </span>
    </Link>
  );
}

/** Tiles in a row of four on wide screens (two on phones): the home page's popular products, a product's relatives. */
export function ProductTileList({ products }: { products: readonly ProductTileData[] }) {
  return (
    <ul className="mt-8 grid grid-cols-2 gap-4 sm:gap-6 lg:grid-cols-4">
      {products.map((product) => (
        <li key={product.id}>
          <ProductTile product={product} />
        </li>
      ))}
    </ul>
  );
}
