import { Trans } from "@lingui/react/macro";
import type { Product } from "./catalog.content";
import { formatPrice, priceCents } from "./pricing";

/** Base price with the original price struck through (announced as "was"). */
export function ProductPrice({
  product,
  size = "md",
}: {
  product: Pick<Product, "price" | "originalPrice"> & Partial<Pick<Product, "currency">>;
  size?: "md" | "lg";
}) {
  const current = formatPrice(priceCents(product.price, 1), product.currency);
  const original =
    product.originalPrice && product.originalPrice > product.price
      ? formatPrice(priceCents(product.originalPrice, 1), product.currency)
      : null;
  return (
    <p className="flex items-baseline gap-2">
      <span className={`font-bold text-white ${size === "lg" ? "text-3xl" : "text-xl"}`}>{current}</span>
      {original ? (
        <s className="text-sm text-slate-400">
          <Trans comment="The struck-through former price; the word before it is for screen readers only">
            <span className="sr-only">was </span>
            {original}
          </Trans>
        </s>
      ) : null}
    </p>
  );
}
