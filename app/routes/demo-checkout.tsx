import { msg } from "@lingui/core/macro";
import { data, redirect } from "react-router";
import { DemoCheckoutPage } from "~/features/checkout/demo-checkout-page";
import { loadDemoCheckout, payDemoCheckout } from "~/features/checkout/demo-checkout.server";
import { localeOfPath } from "~/features/i18n/locales";
import { translatorFor } from "~/features/i18n/translator";
import { pageMeta } from "~/features/layout/page-meta";
import { pageDatabaseWork } from "~/platform/db.server";
import type { Route } from "./+types/demo-checkout";

// Shown inside our own checkout modal: framing by this origin only, and no site chrome around it.
export const handle = { security: { frameAncestors: "self" }, layout: "bare" };

// The demo shop's own page, outside the site's languages (always at /demo-checkout/…, so in English).
export const meta: Route.MetaFunction = ({ matches, params, location }) => {
  const i18n = translatorFor(localeOfPath(location.pathname));
  return pageMeta(matches[0].loaderData, {
    title: i18n._(msg`Demo checkout`),
    description: i18n._(msg`The demo shop's hosted checkout: a local stand-in where nothing is charged.`),
    path: `/demo-checkout/${params.invoiceId}`,
    noindex: true,
  });
};

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
