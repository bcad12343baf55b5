import { index, type RouteConfig, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx"),
  route("products", "routes/products.tsx"),
  route("product/:id", "routes/product.tsx"),
  route("status", "routes/status.tsx"),
  route("reviews", "routes/reviews.tsx"),
  route("reseller", "routes/reseller.tsx"),
  route("faq", "routes/faq.tsx"),
  route("docs", "routes/docs.tsx"),
  route("downloads", "routes/downloads.tsx"),
  route("terms", "routes/legal.tsx", { id: "legal-terms" }),
  route("privacy", "routes/legal.tsx", { id: "legal-privacy" }),
  route("refund", "routes/legal.tsx", { id: "legal-refund" }),
  route("dmca", "routes/legal.tsx", { id: "legal-dmca" }),
  route("purchase/success", "routes/purchase-success.tsx"),
  route("demo-checkout/:invoiceId", "routes/demo-checkout.tsx"),
  route("robots.txt", "routes/robots[.]txt.ts"),
  route("sitemap.xml", "routes/sitemap[.]xml.ts"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
