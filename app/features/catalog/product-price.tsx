import { Trans } from "@lingui/react/macro";
import { shownPrice } from "~/features/currency/money";
import { PriceText } from "~/features/currency/price-text";
import { useDisplayCurrency } from "~/features/currency/display-currency";
import { useLocale } from "~/features/i18n/use-locale";
import type { Product } from "./catalog.content";
import { priceCents } from "./pricing";

/**
 * Base price with the original price struck through (announced as "was"); in the buyer's currency, beside what the
 * checkout charges, when they asked for one.
 */
export function ProductPrice({
  product,
  size = "md",
}: {
  product: Pick<Product, "price" | "originalPrice"> & Partial<Pick<Product, "currency">>;
  size?: "md" | "lg";
}) {
  const display = useDisplayCurrency();
  const { tag } = useLocale();
  const current = <PriceText cents={priceCents(product.price, 1)} currency={product.currency} display={display} />;
  // The former price is never charged: shown in the buyer's currency alone.
  const former =
    product.originalPrice && product.originalPrice > product.price
      ? shownPrice(priceCents(product.originalPrice, 1), product.currency, display, tag)
      : null;
  const original = former ? (former.approximate ?? former.charged) : null;
  return (
    <p className="flex items-baseline gap-2">
      <span className={`font-bold text-foreground ${size === "lg" ? "text-3xl" : "text-xl"}`}>{current}</span>
      {original ? (
        <s className="text-sm text-muted">
          <Trans comment="The struck-through former price; the word before it is for screen readers only">
            <span className="sr-only">was </span>
            {original}
          </Trans>
        </s>
      ) : null}
    </p>
  );
}
