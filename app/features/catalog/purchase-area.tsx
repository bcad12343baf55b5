import type { Duration, Product } from "./catalog.content";
import { PurchaseButton } from "~/features/checkout/purchase-button";
import { canPurchase } from "./catalog";

/** Where `Purchase Now` lives on the product page; the checkout feature supplies what happens on click. */
export function PurchaseArea({ product, duration, quantity = 1, coupon }: { product: Product; duration: Duration; quantity?: number; coupon?: string }) {
  if (!canPurchase(product, duration)) return null;
  return <PurchaseButton product={product} duration={duration} quantity={quantity} coupon={coupon} />;
}
