import { Trans, useLingui } from "@lingui/react/macro";
import { type ReactNode, useState } from "react";
import { useSearchParams } from "react-router";
import type { Product } from "../catalog.content";
import { clampQuantity, minQuantityOf, type QuantityBounds, quantityFromSearch } from "../catalog";
import { useQueryMirror } from "./query-mirror";

/** The fewest and most keys the buyer may ask for: the product's bounds, the most lowered to the stock left. */
type QuantityLimit = QuantityBounds;

/**
 * The quantity to buy: read from `?quantity=` (so the GET form works without JavaScript) and mirrored back into it
 * on every valid change. `text` is what the buyer typed, kept while it is momentarily empty or out of range.
 */
export function useSelectedQuantity(product: QuantityLimit) {
  const mirror = useQueryMirror();
  const [searchParams] = useSearchParams();
  const urlQuantity = quantityFromSearch(product, searchParams);
  const [text, setText] = useState(String(urlQuantity));
  // Only a change of the URL itself (back, a shared link) overwrites what the buyer typed.
  const [seenUrlQuantity, setSeenUrlQuantity] = useState(urlQuantity);
  if (urlQuantity !== seenUrlQuantity) {
    setSeenUrlQuantity(urlQuantity);
    setText(String(urlQuantity));
  }
  const typed = validQuantity(product, text);
  function change(value: string) {
    setText(value);
    const next = validQuantity(product, value);
    if (next === null) return;
    mirror({ quantity: String(next) });
  }
  return { quantity: typed ?? urlQuantity, text, change } as const;
}

function validQuantity(product: QuantityLimit, text: string): number | null {
  const typed = Number(text);
  if (text.trim() === "" || !Number.isInteger(typed) || clampQuantity(product, typed) !== typed) return null;
  return typed;
}

/**
 * `Quantity`: a native number input (arrow keys step it) shown only for products that sell more than one key; it stops
 * at the stock left when that is lower than the product's limit.
 */
export function QuantityField({
  product,
  limit,
  text,
  onChange,
  children,
}: {
  product: Pick<Product, "maxQuantity">;
  limit: QuantityLimit;
  text: string;
  onChange(value: string): void;
  /** What the next volume-discount tier saves, under the field. */
  children?: ReactNode;
}) {
  const { i18n } = useLingui();
  if (product.maxQuantity <= 1) return null;
  const most = i18n.number(limit.maxQuantity);
  const leastQuantity = minQuantityOf(limit);
  const least = i18n.number(leastQuantity);
  return (
    <div className="mt-4">
      <div className="flex items-center gap-3">
        <label htmlFor="quantity" className="text-lg font-semibold text-foreground">
          <Trans comment="How many keys to buy">Quantity</Trans>
        </label>
        <input
          id="quantity"
          type="number"
          name="quantity"
          inputMode="numeric"
          min={leastQuantity}
          max={limit.maxQuantity}
          step={1}
          value={text}
          onChange={(event) => onChange(event.target.value)}
          aria-describedby={children ? "quantity-hint volume-hint" : "quantity-hint"}
          className="w-20 rounded-lg border border-foreground/15 bg-surface/60 px-3 py-2 text-foreground tabular-nums"
        />
        <span id="quantity-hint" className="text-sm text-soft">
          {leastQuantity > 1 ? (
            <Trans comment="The fewest and the most keys one checkout may buy, beside the quantity field">
              {least} to {most}
            </Trans>
          ) : (
            <Trans comment="The most keys one checkout may buy, beside the quantity field">Up to {most}</Trans>
          )}
        </span>
      </div>
      {children}
    </div>
  );
}
