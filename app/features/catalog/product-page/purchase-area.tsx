import { Trans } from "@lingui/react/macro";
import { type CheckoutSummary, PurchaseButton } from "~/features/checkout/purchase-button";
import type { Duration, Product } from "../catalog.content";
import { canPurchase, isSoldOut } from "../catalog";

/** Where `Purchase Now` lives on the product page; the checkout feature supplies what happens on click. */
export function PurchaseArea({
  product,
  duration,
  quantity = 1,
  coupon,
  summary,
}: {
  product: Product;
  duration: Duration;
  quantity?: number;
  coupon?: string;
  /** The discount line and total the checkout modal repeats. */
  summary?: CheckoutSummary;
}) {
  if (isSoldOut(duration)) {
    return (
      <p
        role="status"
        className="w-full rounded-lg border border-foreground/10 bg-surface/60 px-4 py-3 text-center font-semibold text-soft"
      >
        <Trans comment="Shown instead of the purchase button when the chosen licence has no keys left">Sold out</Trans>
      </p>
    );
  }
  if (!canPurchase(product, duration)) return null;
  return <PurchaseButton product={product} duration={duration} quantity={quantity} coupon={coupon} summary={summary} />;
}
