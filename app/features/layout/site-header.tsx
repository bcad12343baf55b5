import { useLocation } from "react-router";
import type { LayoutData } from "./layout";
import { TransitionLink } from "./page-transition";

function isCurrent(pathname: string, href: string) {
  return href === "/" ? pathname === "/" : pathname === href || pathname.startsWith(`${href}/`);
}

export function SiteHeader({ layout }: { layout: LayoutData }) {
  const { pathname } = useLocation();
  return (
    <header className="sticky top-0 z-40 border-b border-white/10 bg-slate-950/90 backdrop-blur supports-[backdrop-filter]:bg-slate-950/75">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
        <TransitionLink to="/" className="flex items-center gap-2 rounded text-lg font-bold tracking-tight text-white">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          {layout.brand}
        </TransitionLink>
        <span className="rounded-full bg-sky-400/15 px-2.5 py-0.5 text-xs font-semibold text-sky-200 ring-1 ring-sky-400/40">{layout.badge}</span>
        <nav aria-label="Main" className="order-last w-full min-w-0 sm:order-none sm:ml-auto sm:w-auto">
          <ul className="flex flex-wrap items-center gap-1 text-sm">
            {layout.nav.map((item) => {
              const current = isCurrent(pathname, item.href);
              return (
                <li key={item.href}>
                  <TransitionLink
                    to={item.href}
                    aria-current={current ? "page" : undefined}
                    className={`block whitespace-nowrap rounded-md px-3 py-2 transition-colors ${current ? "bg-sky-500/20 text-white" : "text-slate-300 hover:bg-white/5 hover:text-white"}`}
                  >
                    {item.label}
                  </TransitionLink>
                </li>
              );
            })}
            <li>
              <a
                href={layout.community.url}
                target="_blank"
                rel="noopener noreferrer"
                className="block whitespace-nowrap rounded-md px-3 py-2 text-slate-300 hover:bg-white/5 hover:text-white"
              >
                {layout.community.label}
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </li>
          </ul>
        </nav>
      </div>
    </header>
  );
}
