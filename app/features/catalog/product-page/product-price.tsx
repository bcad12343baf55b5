import { Trans } from "@lingui/react/macro";
import { shownPrice } from "~/features/currency/money";
import { PriceText } from "~/features/currency/price-text";
import { useDisplayCurrency } from "~/features/currency/display-currency";
import { useLocale } from "~/features/i18n/use-locale";
import type { Product } from "../catalog.content";
import { priceCents } from "../pricing";

/**
 * Base price with the original price struck through (announced as "was"); in the buyer's currency, beside what the
 * checkout charges, when they asked for one.
 */
export function ProductPrice({
  product,
  size = "md",
}: {
  product: Pick<Product, "price" | "originalPrice"> & Partial<Pick<Product, "currency" | "lowestPrice30">>;
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
  const lowest =
    original && product.lowestPrice30 !== undefined
      ? shownPrice(priceCents(product.lowestPrice30, 1), product.currency, display, tag)
      : null;
  const lowestText = lowest ? (lowest.approximate ?? lowest.charged) : null;
  const price = (
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
  if (!lowestText) return price;
  // The EU's rule for a reduction (Directive 98/6/EC, Art. 6a): the lowest price of the 30 days before it, beside it.
  return (
    <div>
      {price}
      <p className="text-xs text-soft" data-testid="lowest-price-30">
        <Trans comment="Under a reduced price: the lowest price the shop charged in the 30 days before the reduction">
          Lowest price in the last 30 days: {lowestText}
        </Trans>
      </p>
    </div>
  );
}
