import { formatPrice } from "~/features/catalog/pricing";
import { convertCents } from "./convert";

/** The currency a page shows prices in, with what it needs to convert: sent only by pages that show prices. */
export interface DisplayCurrency {
  code: string;
  /** Worth of one unit of `base` (the currency the shop charges) in `code`, as exact decimal text. */
  rate: string;
  rounding: string;
  base: string;
  /** Every currency the buyer may pick, for the switch. */
  choices: string[];
}

export interface ShownPrice {
  /** What the checkout charges, written as the checkout writes it: `$14.99`. */
  charged: string;
  /** The same amount in the buyer's currency and language, `13,80 €`; null when that is the charged currency. */
  approximate: string | null;
}

const formats = new Map<string, Intl.NumberFormat>();

function moneyFormat(localeTag: string, currency: string): Intl.NumberFormat {
  const key = `${localeTag}|${currency}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(localeTag, { style: "currency", currency });
    formats.set(key, format);
  }
  return format;
}

/** An amount of the shop's currency as the page shows it: converted for the buyer when they asked, and as charged. */
export function shownPrice(
  cents: number,
  chargedCurrency: string | undefined,
  display: DisplayCurrency | null | undefined,
  localeTag: string,
): ShownPrice {
  const charged = formatPrice(cents, chargedCurrency);
  const currency = chargedCurrency ?? "USD";
  if (!display || display.code === currency || display.base !== currency) return { charged, approximate: null };
  const converted = convertCents(cents, display.rate, display.rounding);
  return { charged, approximate: moneyFormat(localeTag, display.code).format(converted / 100) };
}
