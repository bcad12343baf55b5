import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { type CatalogueStatusInput, pageRange } from "../catalog";

/**
 * The catalogue's status line: `6 products` or `Showing 25–48 of 1,000 products`; with filters, `Showing 1 of 6
 * products` or `Showing 25–48 of 130 matching products`. Each is one message, so it renders as one text node.
 */
export function CatalogueStatus(input: CatalogueStatusInput) {
  const { i18n } = useLingui();
  const { total, size, pageCount, filtered } = input;
  if (pageCount <= 1) {
    if (!filtered) return <Plural value={size} one="# product" other="# products" />;
    const shown = i18n.number(total);
    return (
      <Trans comment="The catalogue's status line with filters: how many of the catalogue's products match">
        Showing {shown} of <Plural value={size} one="# product" other="# products" />
      </Trans>
    );
  }
  const range = pageRange(input);
  const first = i18n.number(range.first);
  const last = i18n.number(range.last);
  if (filtered)
    return (
      <Trans comment="The catalogue's status line on one of several pages of search or filter results">
        Showing {first}–{last} of <Plural value={total} one="# matching product" other="# matching products" />
      </Trans>
    );
  return (
    <Trans comment="The catalogue's status line on one of several pages">
      Showing {first}–{last} of <Plural value={size} one="# product" other="# products" />
    </Trans>
  );
}
