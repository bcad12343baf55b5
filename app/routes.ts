import { index, type RouteConfig, route } from "@react-router/dev/routes";
import { LEGAL_PAGES, legalRouteId } from "./features/legal/legal-pages";

export default [
  // The staff console (issue 34), in each language under the same optional prefix; its own shell, never cached.
  route(":lang?/admin", "routes/admin.tsx", [
    index("routes/admin-dashboard.tsx"),
    route("sign-in", "routes/admin-sign-in.tsx"),
    route("setup", "routes/admin-setup.tsx"),
    route("account", "routes/admin-account.tsx"),
    route("orders", "routes/admin-orders.tsx"),
    route("support", "routes/admin-support.tsx"),
    // Before support/:id, which would take it for a conversation's id.
    route("support/saved-replies", "routes/admin-support-saved-replies.tsx"),
    route("support/:id", "routes/admin-support-conversation.tsx"),
    route("deliveries", "routes/admin-deliveries.tsx"),
    route("status", "routes/admin-status.tsx"),
    route("content", "routes/admin-content.tsx"),
    route("content/:kind/:locale", "routes/admin-content-document.tsx", { id: "admin-content-document" }),
    route("content/:kind/:key/:locale", "routes/admin-content-document.tsx", { id: "admin-content-legal-document" }),
    route("releases", "routes/admin-releases.tsx"),
    route("staff", "routes/admin-staff.tsx"),
    route("audit", "routes/admin-audit.tsx"),
    route("audit.csv", "routes/admin-audit[.]csv.ts"),
    route("sign-out", "routes/admin-sign-out.ts"),
    route("language", "routes/admin-language.ts"),
    route("*", "routes/admin-not-found.tsx"),
  ]),
  // Pages answer at /path in English and at /<locale>/path in each other language (app/features/i18n/locales.ts).
  route(":lang?", "routes/locale.tsx", [
    index("routes/home.tsx"),
    route("products", "routes/products.tsx"),
    route("product/:id", "routes/product.tsx"),
    route("status", "routes/status.tsx"),
    route("status/incidents/:id", "routes/status-incident.tsx"),
    route("reviews", "routes/reviews.tsx"),
    route("reseller", "routes/reseller.tsx"),
    route("faq", "routes/faq.tsx"),
    route("docs", "routes/docs.tsx"),
    route("downloads", "routes/downloads.tsx"),
    route("downloads/:product", "routes/product-downloads.tsx"),
    ...LEGAL_PAGES.map((page) => route(page.slug, "routes/legal.tsx", { id: legalRouteId(page.slug) })),
    route("purchase/success", "routes/purchase-success.tsx"),
    // The buyer's orders behind a one-time code (issue 29), and the demo shop's kept mail that carries it.
    route("orders", "routes/orders.tsx"),
    route("orders/:id", "routes/order.tsx"),
    route("demo/mailbox", "routes/demo-mailbox.tsx"),
    // A support request's conversation: read and answered without JavaScript, opened on any browser by its link.
    route("support/conversation", "routes/support-conversation.tsx"),
    // The demo shop's checkout page, in the language of the page the purchase started on.
    route("demo-checkout/:invoiceId", "routes/demo-checkout.tsx"),
    route("*", "routes/not-found.tsx"),
  ]),
  route("status/feed.xml", "routes/status-feed[.]xml.ts"),
  route("robots.txt", "routes/robots[.]txt.ts"),
  route("sitemap.xml", "routes/sitemap[.]xml.ts"),
] satisfies RouteConfig;
