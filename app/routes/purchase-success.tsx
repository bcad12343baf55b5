import { msg } from "@lingui/core/macro";
import { getProduct } from "~/features/catalog/catalogue.server";
import { localeOfRequest } from "~/features/i18n/locale.server";
import { localeOfPath, localizedPath } from "~/features/i18n/locales";
import { translatorFor } from "~/features/i18n/translator";
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
  const product = productId ? getProduct(productId, localeOfRequest(request)) : undefined;
  return { orderId, productName: product?.name ?? null, productId: product?.id ?? null };
}

export const meta: Route.MetaFunction = ({ matches, location }) => {
  const locale = localeOfPath(location.pathname);
  const i18n = translatorFor(locale);
  return pageMeta(matches[0].loaderData, {
    title: i18n._(msg`Thank you for your purchase`),
    description: i18n._(msg`Your Kestrel Software order is complete.`),
    path: localizedPath("/purchase/success", locale),
    noindex: true,
  });
};

export default function PurchaseSuccessRoute({ loaderData }: Route.ComponentProps) {
  return (
    <PurchaseSuccess
      orderId={loaderData.orderId}
      productName={loaderData.productName}
      productId={loaderData.productId}
    />
  );
}
