import type { Content } from "~/features/content/content.server";
import { type AnyLocale, localeInfo } from "~/features/i18n/locales";
import type { DisplayCurrency } from "./money";

/**
 * The currency a page request shows prices in: `?currency=EUR` when the operator keeps a rate for it, else the
 * locale's default, else none (prices only as charged). Part of the URL, so a shared page stays shared.
 */
export function displayCurrencyOf(
  request: Request,
  locale: AnyLocale,
  content: Pick<Content, "currencies">,
): DisplayCurrency | null {
  const rates = content.currencies;
  if (!rates) return null;
  const asked = new URL(request.url).searchParams.get("currency")?.toUpperCase();
  const row =
    rates.currencies.find((r) => r.code === asked) ??
    rates.currencies.find((r) => r.code === localeInfo(locale).defaultCurrency);
  if (!row) return null;
  return {
    code: row.code,
    rate: row.rate,
    rounding: row.rounding,
    base: rates.base,
    choices: rates.currencies.map((r) => r.code),
  };
}
