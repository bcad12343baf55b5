import { Trans } from "@lingui/react/macro";
import { useLocale } from "~/features/i18n/use-locale";
import { type DisplayCurrency, shownPrice } from "./money";

/**
 * An amount as the page shows it: `$14.99`, or in the buyer's currency with what the checkout charges beside it,
 * `≈ 13,80 € · charged as $14.99`.
 */
export function PriceText({
  cents,
  currency,
  display,
}: {
  cents: number;
  currency?: string;
  display?: DisplayCurrency | null;
}) {
  const { tag } = useLocale();
  const { charged, approximate } = shownPrice(cents, currency, display, tag);
  if (approximate === null) return charged;
  return (
    <Trans comment="A price converted into the buyer's currency, then the amount the checkout really charges">
      ≈ {approximate} · charged as {charged}
    </Trans>
  );
}
