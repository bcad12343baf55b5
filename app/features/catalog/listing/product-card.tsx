import { Trans } from "@lingui/react/macro";
import { CheckIcon } from "~/components/icons";
import { buttonStyles } from "~/components/ui/button-styles";
import { Link } from "react-router";
import { useLocale } from "~/features/i18n/use-locale";
import { CARD_FEATURES, type ProductCardData, productPath } from "../catalog";
import { ProductBadges, ProductStatus } from "./product-badges";
import { ProductPrice } from "../product-page/product-price";

/**
 * A catalogue card. The name link is stretched over the whole card, so a click anywhere opens the product;
 * the `Purchase` link sits above it and goes to the same page.
 */
export function ProductCard({ product, eager = false }: { product: ProductCardData; eager?: boolean }) {
  const href = useLocale().path(productPath(product));
  return (
    <article className="group relative flex h-full flex-col overflow-hidden rounded-2xl border border-foreground/10 bg-surface/60 shadow-lg shadow-shadow/20 transition hover:-translate-y-0.5 hover:border-accent/50 focus-within:border-accent/60">
      <img
        src={product.cardImage.src}
        alt={product.cardImage.alt}
        width={product.cardImage.width}
        height={product.cardImage.height}
        loading={eager ? "eager" : "lazy"}
        decoding="async"
        className="aspect-[8/5] h-auto w-full bg-surface object-cover"
      />
      <div className="flex flex-1 flex-col gap-3 p-5">
        <ProductBadges badges={product.badges} />
        <h2 className="text-lg font-semibold text-foreground">
          <Link to={href} className="rounded after:absolute after:inset-0 after:content-['']">
            {product.name}
          </Link>
        </h2>
        <ProductStatus status={product.statusLine} className="-mt-1" />
        {product.features.length > 0 ? (
          <ul className="space-y-1.5 text-sm text-soft">
            {product.features.slice(0, CARD_FEATURES).map((feature) => (
              <li key={feature} className="flex gap-2">
                <FeatureCheckIcon />
                {feature}
              </li>
            ))}
          </ul>
        ) : null}
        <div className="mt-auto flex flex-wrap items-end justify-between gap-3 pt-2">
          <ProductPrice product={product} />
          <Link to={href} className={`${buttonStyles.primary} relative z-10`}>
            <span>
              <Trans comment="Button on a catalogue card that opens the product's page">Purchase</Trans>
            </span>
            <span className="sr-only"> {product.name}</span>
          </Link>
        </div>
      </div>
    </article>
  );
}

/** The check before each of a product's features, on its card and its page. */
export function FeatureCheckIcon() {
  return <CheckIcon className="mt-0.5 size-4 shrink-0 text-link" />;
}
