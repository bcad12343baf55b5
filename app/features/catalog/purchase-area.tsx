import type { Duration, Product } from "~/features/content/content";
import { PurchaseButton } from "~/features/checkout/purchase-button";
import { canPurchase } from "./catalog";

/** Where `Purchase Now` lives on the product page; the checkout feature supplies what happens on click. */
export function PurchaseArea({ product, duration }: { product: Product; duration: Duration }) {
  if (!canPurchase(product, duration)) return null;
  return <PurchaseButton product={product} duration={duration} />;
}
