import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Plural, Trans, useLingui } from "@lingui/react/macro";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Form, Link, useNavigate } from "react-router";
import { ChevronDownIcon, FilterIcon, SearchIcon } from "~/components/icons";
import { buttonStyles } from "~/components/ui/button-styles";
import { AskedCurrencyField } from "~/features/currency/asked-currency-field";
import { useLocale } from "~/features/i18n/use-locale";
import type { CategoryFacet } from "../catalogue-query.server";
import { CATALOG_SORTS, type CatalogFilters, type CatalogSort, catalogSearch, parseFilters } from "../filtering";

/** What each order is called in the `Sort by` list. */
const SORT_LABELS: Record<CatalogSort, MessageDescriptor> = {
  featured: msg({ message: "Featured", comment: "Catalogue order: featured products first" }),
  "price-asc": msg`Price: low to high`,
  "price-desc": msg`Price: high to low`,
  name: msg`Name: A to Z`,
  newest: msg({ message: "Newest", comment: "Catalogue order: the newest products first" }),
  popular: msg({ message: "Most popular", comment: "Catalogue order: the best-selling products first" }),
};

/** Typing pauses this long before the results (and the URL) follow. */
export const FILTER_DEBOUNCE_MS = 300;

const inputClass =
  "w-full rounded-lg border border-foreground/15 bg-surface px-3 py-2 text-foreground placeholder:text-muted focus:border-accent focus-visible:outline-focus";

/** One end of the base-price range (dollars; empty means no bound). */
function PriceBoundInput({
  label,
  name,
  placeholder,
  value,
  onChange,
}: {
  label: string;
  name: "min" | "max";
  placeholder: string;
  value: string;
  onChange(value: string): void;
}) {
  return (
    <label className="text-sm text-soft">
      {label}
      <input
        type="number"
        name={name}
        min={0}
        step="0.01"
        inputMode="decimal"
        placeholder={placeholder}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className={`${inputClass} mt-1`}
      />
    </label>
  );
}

interface Draft {
  q: string;
  categories: string[];
  min: string;
  max: string;
  sort: CatalogSort;
}

function draftFrom(filters: CatalogFilters, sort: CatalogSort): Draft {
  return {
    q: filters.q,
    categories: filters.categories,
    min: filters.min?.toString() ?? "",
    max: filters.max?.toString() ?? "",
    sort,
  };
}

/** The canonical search for the inputs; any change goes back to the first page. */
function searchFrom(draft: Draft, known: readonly string[]): string {
  const params = new URLSearchParams({ q: draft.q, min: draft.min, max: draft.max });
  for (const category of draft.categories) params.append("category", category);
  return catalogSearch({ filters: parseFilters(params, known), sort: draft.sort, page: 1 });
}

/**
 * The catalogue's GET form. Without JavaScript it submits with `Apply` (or `Sort`); with it, results follow the inputs
 * after a short pause (URL replaced, not pushed), a new sort at once, and the `Filters` disclosure closes on Escape or
 * an outside click. Each category shows how many products it would give for the current search and prices.
 */
export function CatalogFilterForm({
  filters,
  sort,
  popular = false,
  categories,
}: {
  filters: CatalogFilters;
  sort: CatalogSort;
  /** The catalogue offers `Most popular` (the shop counts sales). */
  popular?: boolean;
  categories: readonly CategoryFacet[];
}) {
  const sorts = popular ? CATALOG_SORTS : CATALOG_SORTS.filter((s) => s !== "popular");
  const { t, i18n } = useLingui();
  const { path } = useLocale();
  const navigate = useNavigate();
  const known = categories.map((c) => c.value);
  const urlSearch = catalogSearch({ filters, sort, page: 1 });
  const [draft, setDraft] = useState(() => draftFrom(filters, sort));
  const [syncedSearch, setSyncedSearch] = useState(urlSearch);
  // The searches we navigated to that the URL has not settled on yet, the newest last: while the URL passes through
  // them (a sort's navigation landing after the search typed next), the inputs already show more than it does.
  const ownSearches = useRef<string[]>([]);
  const timer = useRef<number | undefined>(undefined);
  const details = useRef<HTMLDetailsElement>(null);

  if (urlSearch !== syncedSearch) {
    setSyncedSearch(urlSearch);
    const own = ownSearches.current;
    // A link such as the footer's `/products?category=creator` changed the URL: show what it asks for.
    if (!own.includes(urlSearch)) setDraft(draftFrom(filters, sort));
    // Settled on the newest: the ones before it are behind us.
    if (own.at(-1) === urlSearch) ownSearches.current = [urlSearch];
  }

  useEffect(() => () => window.clearTimeout(timer.current), []);

  useEffect(() => {
    const onPointerDown = (event: PointerEvent) => {
      const el = details.current;
      if (el?.open && !el.contains(event.target as Node)) el.open = false;
    };
    const onKeyDown = (event: KeyboardEvent) => {
      const el = details.current;
      if (event.key !== "Escape" || !el?.open || !el.contains(document.activeElement)) return;
      el.open = false;
      el.querySelector("summary")?.focus();
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, []);

  function go(next: Draft, replace: boolean) {
    window.clearTimeout(timer.current);
    const search = searchFrom(next, known);
    ownSearches.current = [...ownSearches.current, search];
    navigate({ pathname: path("/products"), search }, { replace, preventScrollReset: true });
  }

  function update(next: Draft) {
    setDraft(next);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => go(next, true), FILTER_DEBOUNCE_MS);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    go(draft, false);
    if (details.current) details.current.open = false;
  }

  function toggleCategory(value: string, checked: boolean) {
    const chosen = new Set(draft.categories);
    if (checked) chosen.add(value);
    else chosen.delete(value);
    // Keep the catalogue's order so equal selections give equal URLs.
    update({ ...draft, categories: known.filter((c) => chosen.has(c)) });
  }

  function changeSort(value: string) {
    const next = { ...draft, sort: CATALOG_SORTS.find((s) => s === value) ?? "featured" };
    setDraft(next);
    go(next, false);
  }

  const activeCount = filters.categories.length + (filters.min !== null ? 1 : 0) + (filters.max !== null ? 1 : 0);
  return (
    <Form
      method="get"
      action={path("/products")}
      role="search"
      aria-label={t`Filter products`}
      onSubmit={onSubmit}
      className="flex flex-col gap-3 sm:flex-row sm:items-start"
    >
      <AskedCurrencyField />
      <div className="relative flex-1">
        <label htmlFor="catalog-search" className="sr-only">
          <Trans>Search products</Trans>
        </label>
        <SearchIcon className="pointer-events-none absolute start-3 top-1/2 size-4 -translate-y-1/2 text-muted" />
        <input
          id="catalog-search"
          type="search"
          name="q"
          value={draft.q}
          onChange={(e) => update({ ...draft, q: e.target.value })}
          dir="auto"
          placeholder={t`Search products...`}
          maxLength={100}
          autoComplete="off"
          className={`${inputClass} py-2.5 ps-9`}
        />
      </div>
      <div className="flex items-center gap-2">
        <label htmlFor="catalog-sort" className="shrink-0 text-sm text-soft">
          <Trans>Sort by</Trans>
        </label>
        <select
          id="catalog-sort"
          name="sort"
          value={draft.sort}
          onChange={(e) => changeSort(e.target.value)}
          className={`${inputClass} py-2.5 sm:w-auto`}
        >
          {sorts.map((value) => (
            <option key={value} value={value}>
              {value === "featured" && draft.q.trim()
                ? t({ message: "Best match", comment: "Catalogue order while searching: the best matches first" })
                : i18n._(SORT_LABELS[value])}
            </option>
          ))}
        </select>
        {/* Without JavaScript a new sort needs a submit; with it the select applies itself. */}
        <button type="submit" className={`${buttonStyles.secondary} hidden py-2.5 noscript:inline-flex`}>
          <Trans comment="Button (without JavaScript) that applies the chosen order">Sort</Trans>
        </button>
      </div>
      <details ref={details} className="group relative">
        <summary
          className={`${buttonStyles.secondary} cursor-pointer list-none py-2.5 [&::-webkit-details-marker]:hidden`}
        >
          <FilterIcon className="size-4" />
          <span>
            <Trans>Filters</Trans>
          </span>
          {activeCount > 0 ? (
            <span className="rounded-full bg-accent px-1.5 text-xs font-bold text-on-accent">
              <Plural
                value={activeCount}
                comment="How many filters are in use; the word after the number is for screen readers only"
                other={
                  <Trans>
                    #<span className="sr-only"> active</span>
                  </Trans>
                }
              />
            </span>
          ) : null}
          <ChevronDownIcon className="size-4 transition-transform group-open:rotate-180" />
        </summary>
        <div className="z-30 mt-2 w-full rounded-xl border border-foreground/15 bg-surface p-4 shadow-2xl shadow-shadow/50 sm:absolute sm:end-0 sm:w-80">
          <fieldset>
            <legend className="mb-2 text-sm font-semibold text-foreground">
              <Trans comment="Heading of the catalogue's category checkboxes">Category</Trans>
            </legend>
            <div className="space-y-1">
              {categories.map(({ value, label, count }) => (
                <label
                  key={value}
                  className="flex cursor-pointer items-center gap-3 rounded-md px-2 py-1.5 text-foreground hover:bg-foreground/5"
                >
                  <input
                    type="checkbox"
                    name="category"
                    value={value}
                    checked={draft.categories.includes(value)}
                    onChange={(e) => toggleCategory(value, e.target.checked)}
                    className="size-4 accent-accent"
                  />
                  {label}
                  <span className={`ms-auto text-xs tabular-nums ${count === 0 ? "text-muted" : "text-muted"}`}>
                    <Plural
                      value={count}
                      comment="Products a category checkbox would give; the word after the number is for screen readers only"
                      one={
                        <Trans>
                          #<span className="sr-only"> product</span>
                        </Trans>
                      }
                      other={
                        <Trans>
                          #<span className="sr-only"> products</span>
                        </Trans>
                      }
                    />
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset className="mt-4">
            <legend className="mb-2 text-sm font-semibold text-foreground">
              <Trans comment="Heading of the catalogue's price range fields">Price (USD)</Trans>
            </legend>
            <div className="grid grid-cols-2 gap-3">
              <PriceBoundInput
                label={t`Min price`}
                name="min"
                placeholder="0"
                value={draft.min}
                onChange={(min) => update({ ...draft, min })}
              />
              <PriceBoundInput
                label={t`Max price`}
                name="max"
                placeholder={t({ message: "Any", comment: "Placeholder of the empty maximum price: no upper bound" })}
                value={draft.max}
                onChange={(max) => update({ ...draft, max })}
              />
            </div>
          </fieldset>
          <div className="mt-4 flex items-center justify-between gap-3">
            <Link to={path("/products")} className="rounded text-sm text-link underline-offset-4 hover:underline">
              <Trans>Clear filters</Trans>
            </Link>
            <button type="submit" className={buttonStyles.primary}>
              <Trans comment="Button that applies the catalogue's filters">Apply</Trans>
            </button>
          </div>
        </div>
      </details>
    </Form>
  );
}
