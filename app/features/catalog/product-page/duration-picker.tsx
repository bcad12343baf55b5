import { Plural, Trans } from "@lingui/react/macro";
import { type ReactNode, useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import type { Duration, Product } from "../catalog.content";
import { durationFromSearch, isSoldOut, type StockNote, stockNote } from "../catalog";
import { AskedCurrencyField } from "~/features/currency/asked-currency-field";
import { PriceText } from "~/features/currency/price-text";
import { useDisplayCurrency } from "~/features/currency/display-currency";
import { computeTotal, findDuration } from "../pricing";
import { useQueryMirror } from "./query-mirror";

/**
 * The selected duration: answers a click at once and mirrors it into `?duration=` (replacing the entry),
 * so a reload or a shared link keeps it and the page works without JavaScript.
 */
export function useSelectedDuration(product: Product) {
  const mirror = useQueryMirror();
  // Read from the URL, not the loader: the route skips revalidation when only `?duration=` changes.
  const [searchParams] = useSearchParams();
  const urlDuration = durationFromSearch(product, searchParams);
  const [selected, setSelected] = useState(urlDuration);
  const [syncedValue, setSyncedValue] = useState(urlDuration.value);
  if (urlDuration.value !== syncedValue) {
    setSyncedValue(urlDuration.value);
    setSelected(urlDuration);
  }
  const current = findDuration(product, selected.value) ?? product.durations[0]!;
  function select(duration: Duration) {
    setSelected(duration);
    setSyncedValue(duration.value);
    mirror({ duration: duration.value });
  }
  return [current, select] as const;
}

/**
 * `Select Duration`: native radio buttons (one tab stop, arrow keys move the selection), each labelled with the
 * duration and its price. Without JavaScript they post back as a GET form with an `Update total` button; `children`
 * (the quantity field) sit in the same form so its value travels with the duration.
 */
export function DurationPicker({
  product,
  selected,
  onSelect,
  children,
}: {
  product: Product;
  selected: Duration;
  onSelect(duration: Duration): void;
  children?: ReactNode;
}) {
  const [interactive, setInteractive] = useState(false);
  useEffect(() => setInteractive(true), []);
  const display = useDisplayCurrency();
  return (
    <form
      method="get"
      onSubmit={(event) => {
        // With JavaScript every change already applied; nothing to submit.
        event.preventDefault();
      }}
    >
      <AskedCurrencyField />
      <fieldset>
        <legend className="mb-3">
          <h2 className="text-lg font-semibold text-foreground">
            <Trans comment="Heading of the licence lengths a product is sold in">Select Duration</Trans>
          </h2>
        </legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {product.durations.map((duration) => {
            const checked = duration.value === selected.value;
            const soldOut = isSoldOut(duration);
            const note = stockNote(duration, product.showStockCount);
            return (
              <label
                key={duration.value}
                className={`flex items-center justify-between gap-3 rounded-xl border px-4 py-3 transition-colors ${
                  soldOut
                    ? "cursor-not-allowed border-foreground/10 bg-surface/40 text-muted"
                    : checked
                      ? "cursor-pointer border-accent bg-accent/10 text-foreground"
                      : "cursor-pointer border-foreground/15 bg-surface/60 text-foreground hover:border-foreground/30 hover:bg-foreground/5"
                }`}
              >
                <span className="flex items-center gap-3">
                  <input
                    type="radio"
                    name="duration"
                    value={duration.value}
                    checked={checked}
                    disabled={soldOut}
                    onChange={() => onSelect(duration)}
                    className="size-4 shrink-0 accent-accent"
                  />
                  <span className="font-medium">{duration.label}</span>
                </span>
                <span className="flex flex-col items-end">
                  <span className={`font-semibold tabular-nums ${soldOut ? "line-through" : ""}`}>
                    <PriceText cents={computeTotal(product, duration)} currency={product.currency} display={display} />
                  </span>
                  {note ? (
                    <span className={`text-xs font-semibold ${soldOut ? "text-muted" : "text-warning"}`}>
                      <StockNoteText note={note} />
                    </span>
                  ) : null}
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>
      {children}
      {interactive ? null : (
        <button
          type="submit"
          className="mt-3 rounded-lg border border-foreground/15 px-4 py-2 text-sm font-semibold text-foreground hover:bg-foreground/10"
        >
          <Trans comment="Button (without JavaScript) that recomputes the total for the chosen duration and quantity">
            Update total
          </Trans>
        </button>
      )}
    </form>
  );
}

/** `Sold out`, or `Only 3 left`, under a duration. */
function StockNoteText({ note }: { note: StockNote }) {
  if (note.soldOut) return <Trans comment="Under a licence length that has no keys left">Sold out</Trans>;
  const { left } = note;
  return <Plural value={left} comment="Under a licence length with few keys left" other="Only # left" />;
}
