import { LanguageMenu } from "~/features/i18n/language-menu";
import { Trans } from "@lingui/react/macro";
import { useLocale } from "~/features/i18n/use-locale";
import type { LayoutData } from "./layout";
import { PageLink } from "./page-transition";

const linkClass = "rounded text-soft hover:text-foreground hover:underline";

export function SiteFooter({ layout }: { layout: LayoutData }) {
  const { path } = useLocale();
  const { year, brand } = layout;
  const { label } = layout.community;
  return (
    <footer className="mt-16 border-t border-foreground/10 bg-background">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-2 lg:grid-cols-4">
        <section aria-labelledby="footer-products">
          <h2 id="footer-products" className="mb-3 text-sm font-semibold text-foreground">
            <Trans>Products</Trans>
          </h2>
          <ul className="space-y-2 text-sm">
            {layout.categories.map((c) => (
              <li key={c.value}>
                <PageLink to={path(`/products?category=${c.value}`)} className={linkClass}>
                  {c.label}
                </PageLink>
              </li>
            ))}
            <li>
              <PageLink to={path("/products")} className={linkClass}>
                <Trans>All products</Trans>
              </PageLink>
            </li>
          </ul>
        </section>
        <section aria-labelledby="footer-support">
          <h2 id="footer-support" className="mb-3 text-sm font-semibold text-foreground">
            <Trans comment="The footer's heading over the FAQ, community, status and reviews links">Support</Trans>
          </h2>
          <ul className="space-y-2 text-sm">
            <li>
              <PageLink to={path("/faq")} className={linkClass}>
                <Trans comment="Link to the Frequently Asked Questions page">FAQ</Trans>
              </PageLink>
            </li>
            <li>
              <a href={layout.community.url} target="_blank" rel="noopener noreferrer" className={linkClass}>
                <Trans>
                  {label}
                  <span className="sr-only"> (opens in a new tab)</span>
                </Trans>
              </a>
            </li>
            <li>
              <PageLink to={path("/status")} className={linkClass}>
                <Trans context="the status page" comment="Link to the page showing whether each product is working">
                  Status
                </Trans>
              </PageLink>
            </li>
            <li>
              <PageLink to={path("/reviews")} className={linkClass}>
                <Trans comment="Link to the customer reviews page">Reviews</Trans>
              </PageLink>
            </li>
            <li>
              <PageLink to={path("/orders")} className={linkClass}>
                <Trans comment="Link to the page where a buyer signs in with an emailed code to see their orders">
                  Your orders
                </Trans>
              </PageLink>
            </li>
          </ul>
        </section>
        <section aria-labelledby="footer-legal">
          <h2 id="footer-legal" className="mb-3 text-sm font-semibold text-foreground">
            <Trans comment="The footer's heading over the terms, privacy, refund and DMCA pages">Legal</Trans>
          </h2>
          <ul className="space-y-2 text-sm">
            {layout.legal.map((page) => (
              <li key={page.slug}>
                <PageLink to={path(`/${page.slug}`)} className={linkClass}>
                  {page.title}
                </PageLink>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="footer-brand">
          <h2 id="footer-brand" className="mb-3 text-sm font-semibold text-foreground">
            {layout.brand}
          </h2>
          <p className="text-sm text-soft">
            <Trans>
              © {year} {brand}. All rights reserved.
            </Trans>
          </p>
          <LanguageMenu className="mt-3" />
        </section>
      </div>
    </footer>
  );
}
