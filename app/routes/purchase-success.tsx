import { getProduct } from "~/features/content/content.server";
import { contentPageMeta } from "~/features/layout/page-meta";
import { PurchaseSuccess } from "~/features/orders/purchase-success";
import type { Route } from "./+types/purchase-success";

export function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  // Only short opaque ids are echoed back; anything else is ignored rather than rendered.
  const orderId = params.get("order_id")?.match(/^[A-Za-z0-9_-]{1,64}$/)?.[0] ?? null;
  const productId = Number(params.get("product_id"));
  const product = Number.isInteger(productId) && productId > 0 ? getProduct(productId) : undefined;
  return { orderId, productName: product?.name ?? null };
}

export const meta: Route.MetaFunction = ({ matches }) => [
  ...contentPageMeta(matches[0].loaderData, { title: "Thank you for your purchase", description: "Your Kestrel Software order is complete.", path: "/purchase/success" }),
  { name: "robots", content: "noindex" },
];

export default function PurchaseSuccessRoute({ loaderData }: Route.ComponentProps) {
  return <PurchaseSuccess orderId={loaderData.orderId} productName={loaderData.productName} />;
}
