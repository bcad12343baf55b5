import { getProduct } from "~/features/catalog/catalogue.server";
import { pageMeta } from "~/features/layout/page-meta";
import { PurchaseSuccess } from "~/features/orders/purchase-success";
import { orderedProductId } from "~/features/orders/orders.server";
import type { Route } from "./+types/purchase-success";

export async function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  // Only short opaque ids are echoed back; anything else is ignored rather than rendered.
  const orderId = params.get("order_id")?.match(/^[A-Za-z0-9_-]{1,64}$/)?.[0] ?? null;
  const givenProductId = Number(params.get("product_id"));
  const productId =
    Number.isInteger(givenProductId) && givenProductId > 0
      ? givenProductId
      : orderId
        ? await orderedProductId(orderId)
        : undefined;
  const product = productId ? getProduct(productId) : undefined;
  return { orderId, productName: product?.name ?? null, productId: product?.id ?? null };
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches[0].loaderData, {
    title: "Thank you for your purchase",
    description: "Your Kestrel Software order is complete.",
    path: "/purchase/success",
    noindex: true,
  });

export default function PurchaseSuccessRoute({ loaderData }: Route.ComponentProps) {
  return (
    <PurchaseSuccess
      orderId={loaderData.orderId}
      productName={loaderData.productName}
      productId={loaderData.productId}
    />
  );
}
