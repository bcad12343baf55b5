import { msg } from "@lingui/core/macro";
import { data, redirect } from "react-router";
import { DemoCheckoutPage } from "~/features/checkout/demo-checkout-page";
import { loadDemoCheckout, payDemoCheckout } from "~/features/checkout/demo-checkout.server";
import { localeOfRequest } from "~/features/i18n/locale.server";
import { localeOfPath, localizedPath } from "~/features/i18n/locales";
import { translatorFor } from "~/features/i18n/translator";
import { pageMeta } from "~/features/layout/page-meta";
import { pageDatabaseWork } from "~/platform/db.server";
import type { Route } from "./+types/demo-checkout";

// Shown inside our own checkout modal: framing by this origin only, and no site chrome around it.
export const handle = { security: { frameAncestors: "self" }, layout: "bare" };

// The demo shop's own page, in the language of the page the purchase started on (the checkout URL carries its prefix).
export const meta: Route.MetaFunction = ({ matches, params, location }) => {
  const locale = localeOfPath(location.pathname);
  const i18n = translatorFor(locale);
  return pageMeta(matches[0].loaderData, {
    title: i18n._(msg`Demo checkout`),
    description: i18n._(msg`The demo shop's hosted checkout: a local stand-in where nothing is charged.`),
    path: localizedPath(`/demo-checkout/${params.invoiceId}`, locale),
    noindex: true,
  });
};

export async function loader({ params, request }: Route.LoaderArgs) {
  const view = await pageDatabaseWork(() => loadDemoCheckout(params.invoiceId, localeOfRequest(request)));
  if (!view) throw data("Checkout not found", { status: 404 });
  return { view };
}

export async function action({ params, request }: Route.ActionArgs) {
  const form = await request.formData().catch(() => undefined);
  const email = form?.get("email");
  const paid = await pageDatabaseWork(() => payDemoCheckout(params.invoiceId, email));
  if (!paid) throw data("Checkout not found", { status: 404 });
  if ("invalidEmail" in paid)
    return data({ invalidEmail: true, email: typeof email === "string" ? email.slice(0, 254) : "" }, { status: 400 });
  return redirect(localizedPath(paid.next, localeOfRequest(request)));
}

export default function DemoCheckout({ loaderData, actionData }: Route.ComponentProps) {
  return <DemoCheckoutPage view={loaderData.view} invalidEmail={actionData?.email ?? null} />;
}
