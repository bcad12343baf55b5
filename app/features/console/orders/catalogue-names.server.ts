// What an order's product and duration are called, from the catalogue: the orders room's search and the inbox's
// conversation page both show them (the bench passes names of its own to the same queries).
import { getProduct } from "~/features/catalog/catalogue.server";
import type { ProductNames } from "./orders.server";

export const catalogueNames: ProductNames = (productId, variantId) => {
  const product = getProduct(productId);
  return {
    productName: product?.name ?? `#${productId}`,
    durationLabel: product?.durations.find((d) => d.variantId === variantId)?.label ?? null,
  };
};
