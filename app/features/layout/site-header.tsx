import { Trans, useLingui } from "@lingui/react/macro";
import { useLocation } from "react-router";
import { pathWithoutLocale } from "~/features/i18n/locales";
import { useLocale } from "~/features/i18n/use-locale";
import type { LayoutData } from "./layout";
import { PageLink } from "./page-transition";
import { NavMenu, type NavListLayout } from "./nav-menu";

function isCurrent(pathname: string, href: string) {
  return href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
}

const LIST_CLASS: Record<NavListLayout, string> = {
  row: "hidden flex-wrap items-center gap-1 text-sm sm:flex",
  column: "flex flex-col gap-1 text-base",
  responsive: "flex flex-wrap items-center gap-1 text-sm max-sm:flex-col max-sm:items-stretch max-sm:text-base",
};
const ITEM_CLASS: Record<NavListLayout, string> = {
  row: "block whitespace-nowrap rounded-md px-3 py-2",
  column: "block rounded-md px-3 py-2.5",
  responsive: "block whitespace-nowrap rounded-md px-3 py-2 max-sm:py-2.5",
};

/** The seven navigation items; site.json's hrefs are English paths, shown in the page's language. */
function NavItems({ layout, listLayout }: { layout: LayoutData; listLayout: NavListLayout }) {
  const pathname = pathWithoutLocale(useLocation().pathname);
  const { path } = useLocale();
  const itemClassName = ITEM_CLASS[listLayout];
  const { label } = layout.community;
  return (
    <ul className={LIST_CLASS[listLayout]}>
      {layout.nav.map((item) => {
        const current = isCurrent(pathname, item.href);
        return (
          <li key={item.href}>
            <PageLink
              to={path(item.href)}
              aria-current={current ? "page" : undefined}
              className={`${itemClassName} transition-colors ${current ? "bg-accent/20 text-foreground" : "text-soft hover:bg-foreground/5 hover:text-foreground"}`}
            >
              {item.label}
            </PageLink>
          </li>
        );
      })}
      <li>
        <a
          href={layout.community.url}
          target="_blank"
          rel="noopener noreferrer"
          className={`${itemClassName} text-soft hover:bg-foreground/5 hover:text-foreground`}
        >
          <Trans>
            {label}
            <span className="sr-only"> (opens in a new tab)</span>
          </Trans>
        </a>
      </li>
    </ul>
  );
}

export function SiteHeader({ layout }: { layout: LayoutData }) {
  const { path } = useLocale();
  const { t } = useLingui();
  return (
    <header className="sticky top-0 z-40 border-b border-foreground/10 bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/75">
      {/* Under 640 px one row that does not wrap: the brand may break onto two lines, the badge and `Menu` keep their size. */}
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 max-sm:flex-nowrap max-sm:gap-x-2">
        <PageLink
          to={path("/")}
          className="flex items-center gap-2 rounded text-lg font-bold tracking-tight text-foreground max-sm:min-w-0 max-sm:text-base max-sm:leading-tight"
        >
          {/* The brand's name follows, so the mark itself says nothing more to a screen reader. */}
          {layout.theme.logo ? (
            <img
              src={layout.theme.logo.src}
              alt=""
              width={Math.round((28 * layout.theme.logo.width) / layout.theme.logo.height)}
              height={28}
              className="max-sm:h-6 max-sm:w-auto max-sm:shrink-0"
            />
          ) : (
            <img src="/favicon.svg" alt="" width={28} height={28} className="max-sm:size-6 max-sm:shrink-0" />
          )}
          {layout.brand}
        </PageLink>
        <span className="rounded-full bg-accent/15 px-2.5 py-0.5 text-xs font-semibold text-accent-soft ring-1 ring-accent/40 max-sm:shrink-0 max-sm:px-2 max-sm:whitespace-nowrap">
          {layout.badge}
        </span>
        <nav
          aria-label={t({ message: "Main", comment: "The accessible name of the site's main navigation" })}
          className="ms-auto min-w-0 max-sm:shrink-0"
        >
          <NavMenu items={(listLayout) => <NavItems layout={layout} listLayout={listLayout} />} />
        </nav>
      </div>
    </header>
  );
}
