import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useState } from "react";
import { XMarkIcon } from "~/components/icons";
import { useLocale } from "~/features/i18n/use-locale";
import {
  flagEmoji,
  MIN_RECENT_SALES,
  RECENT_SALE_INTERVAL_MS,
  RECENT_SALES_HIDDEN_KEY,
  RECENT_SALES_PATH,
  type RecentSale,
  timeAgo,
} from "./recent-sales";

function hiddenForThisVisit(): boolean {
  try {
    return sessionStorage.getItem(RECENT_SALES_HIDDEN_KEY) === "1";
  } catch {
    return false;
  }
}

function countryName(code: string, languageTag: string): string {
  try {
    return new Intl.DisplayNames([languageTag], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}

function SaleText({ sale, languageTag }: { sale: RecentSale; languageTag: string }) {
  const item = sale.variant ? `${sale.product} · ${sale.variant}` : sale.product;
  const ago = timeAgo(sale.at, Date.now(), languageTag);
  if (!sale.country)
    return (
      <Trans comment="Recent-sales notice, no country known">
        Someone bought {item}, {ago}
      </Trans>
    );
  const flag = flagEmoji(sale.country);
  const country = countryName(sale.country, languageTag);
  return (
    <Trans comment="Recent-sales notice: a flag emoji, a country name, the product · its duration, a relative time">
      Someone in <span aria-hidden="true">{flag}</span> {country} bought {item}, {ago}
    </Trans>
  );
}

/**
 * The recent-sales notice (issue 36): the last week's real sales, one at a time, at most one every 20 s, each shown
 * once. A fixed overlay (it moves nothing on the page), announced politely, pausable, and hidden for the rest of the
 * visit on request (WCAG 2.2.2). It fades in only where the visitor has not asked for reduced motion.
 */
export default function RecentSalesNotice() {
  const { t } = useLingui();
  const { locale, tag } = useLocale();
  const [sales, setSales] = useState<RecentSale[]>([]);
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const [hidden, setHidden] = useState(hiddenForThisVisit);

  useEffect(() => {
    if (hidden) return;
    const controller = new AbortController();
    fetch(`${RECENT_SALES_PATH}?locale=${encodeURIComponent(locale)}`, { signal: controller.signal })
      .then((response) => (response.ok ? (response.json() as Promise<{ sales?: RecentSale[] }>) : { sales: [] }))
      .then((body) => setSales(Array.isArray(body.sales) ? body.sales : []))
      .catch(() => {});
    return () => controller.abort();
  }, [locale, hidden]);

  // The next sale 20 s after this one; after the last, the notice is done (no sale is shown twice).
  useEffect(() => {
    if (paused || hidden || sales.length === 0) return;
    const timer = setTimeout(() => setIndex(index + 1), RECENT_SALE_INTERVAL_MS);
    return () => clearTimeout(timer);
  }, [paused, hidden, sales.length, index]);

  const sale = sales[index];
  if (hidden || sales.length < MIN_RECENT_SALES || !sale) return null;
  const hide = () => {
    try {
      sessionStorage.setItem(RECENT_SALES_HIDDEN_KEY, "1");
    } catch {}
    setHidden(true);
  };
  return (
    <aside
      aria-label={t({ message: "Recent sales", comment: "The recent-sales notice's landmark name" })}
      className="fixed start-4 bottom-4 z-40 flex w-80 max-w-[calc(100vw-6rem)] flex-col gap-2 rounded-xl border border-border bg-surface p-3 text-sm text-foreground shadow-lg"
    >
      <div role="status" className="min-h-10">
        <span key={index} className="block motion-safe:animate-page-in">
          <SaleText sale={sale} languageTag={tag} />
        </span>
      </div>
      <p className="text-xs text-soft">
        <Trans comment="Recent-sales notice: where its sales come from">
          From this shop's completed orders of the last 7 days.
        </Trans>
      </p>
      <div className="flex items-center justify-end gap-2">
        <button
          type="button"
          aria-pressed={paused}
          onClick={() => setPaused((p) => !p)}
          className="rounded-md border border-foreground/15 px-2 py-1 text-xs font-semibold hover:bg-foreground/10"
        >
          <Trans comment="Recent-sales notice: stop showing the next sale">Pause</Trans>
        </button>
        <button
          type="button"
          aria-label={t({
            message: "Hide recent sales for this visit",
            comment: "Recent-sales notice: its close button",
          })}
          onClick={hide}
          className="rounded-md p-1 hover:bg-foreground/10"
        >
          <XMarkIcon className="size-4" />
        </button>
      </div>
    </aside>
  );
}
