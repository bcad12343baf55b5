import type { LayoutData } from "./layout";
import { PageLink } from "./page-transition";

const linkClass = "rounded text-slate-300 hover:text-white hover:underline";

export function SiteFooter({ layout }: { layout: LayoutData }) {
  return (
    <footer className="mt-16 border-t border-white/10 bg-slate-950">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-2 lg:grid-cols-4">
        <section aria-labelledby="footer-products">
          <h2 id="footer-products" className="mb-3 text-sm font-semibold text-white">
            Products
          </h2>
          <ul className="space-y-2 text-sm">
            {layout.categories.map((c) => (
              <li key={c.value}>
                <PageLink to={`/products?category=${c.value}`} className={linkClass}>
                  {c.label}
                </PageLink>
              </li>
            ))}
            <li>
              <PageLink to="/products" className={linkClass}>
                All products
              </PageLink>
            </li>
          </ul>
        </section>
        <section aria-labelledby="footer-support">
          <h2 id="footer-support" className="mb-3 text-sm font-semibold text-white">
            Support
          </h2>
          <ul className="space-y-2 text-sm">
            <li>
              <PageLink to="/faq" className={linkClass}>
                FAQ
              </PageLink>
            </li>
            <li>
              <a href={layout.community.url} target="_blank" rel="noopener noreferrer" className={linkClass}>
                {layout.community.label}
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </li>
            <li>
              <PageLink to="/status" className={linkClass}>
                Status
              </PageLink>
            </li>
            <li>
              <PageLink to="/reviews" className={linkClass}>
                Reviews
              </PageLink>
            </li>
          </ul>
        </section>
        <section aria-labelledby="footer-legal">
          <h2 id="footer-legal" className="mb-3 text-sm font-semibold text-white">
            Legal
          </h2>
          <ul className="space-y-2 text-sm">
            {layout.legal.map((page) => (
              <li key={page.slug}>
                <PageLink to={`/${page.slug}`} className={linkClass}>
                  {page.title}
                </PageLink>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="footer-brand">
          <h2 id="footer-brand" className="mb-3 text-sm font-semibold text-white">
            {layout.brand}
          </h2>
          <p className="text-sm text-slate-300">
            © {layout.year} {layout.brand}. All rights reserved.
          </p>
        </section>
      </div>
    </footer>
  );
}
