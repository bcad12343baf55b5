import { data, redirect } from "react-router";
import { DemoCheckoutPage } from "~/features/checkout/demo-checkout-page";
import { loadDemoCheckout, payDemoCheckout } from "~/features/checkout/demo-checkout.server";
import { pageMeta } from "~/features/layout/page-meta";
import { pageDatabaseWork } from "~/platform/db.server";
import type { Route } from "./+types/demo-checkout";

// Shown inside our own checkout modal: framing by this origin only, and no site chrome around it.
export const handle = { security: { frameAncestors: "self" }, layout: "bare" };

export const meta: Route.MetaFunction = ({ matches, params }) =>
  pageMeta(matches[0].loaderData, {
    title: "Demo checkout",
    description: "The demo shop's hosted checkout: a local stand-in where nothing is charged.",
    path: `/demo-checkout/${params.invoiceId}`,
    noindex: true,
  });

export async function loader({ params }: Route.LoaderArgs) {
  const view = await pageDatabaseWork(() => loadDemoCheckout(params.invoiceId));
  if (!view) throw data("Checkout not found", { status: 404 });
  return { view };
}

export async function action({ params }: Route.ActionArgs) {
  const next = await pageDatabaseWork(() => payDemoCheckout(params.invoiceId));
  if (!next) throw data("Checkout not found", { status: 404 });
  return redirect(next);
}

export default function DemoCheckout({ loaderData }: Route.ComponentProps) {
  return <DemoCheckoutPage view={loaderData.view} />;
}
