import { Trans } from "@lingui/react/macro";
import { useId } from "react";
import { Form, useLocation } from "react-router";
import { useLocale } from "~/features/i18n/use-locale";
import type { DisplayCurrency } from "./money";

/**
 * The buyer's currency, as a GET form (it works without JavaScript, and the choice is part of the page's URL, so shared
 * pages stay shared). The page's other query parameters (search, sort, page) are kept.
 */
export function CurrencySwitch({ display }: { display: DisplayCurrency }) {
  const { tag } = useLocale();
  const { search } = useLocation();
  const id = useId();
  const names = new Intl.DisplayNames([tag], { type: "currency" });
  const kept = [...new URLSearchParams(search)].filter(([name]) => name !== "currency");
  return (
    <Form method="get" className="flex flex-wrap items-center gap-2 text-sm text-soft">
      {kept.map(([name, value]) => (
        <input key={`${name}=${value}`} type="hidden" name={name} value={value} />
      ))}
      <label htmlFor={id}>
        <Trans>Show prices in</Trans>
      </label>
      <select
        id={id}
        name="currency"
        defaultValue={display.code}
        className="rounded-md border border-border-strong bg-surface px-2 py-1 text-foreground"
      >
        {display.choices.map((code) => (
          <option key={code} value={code}>
            {`${code} · ${names.of(code)}`}
          </option>
        ))}
      </select>
      <button
        type="submit"
        className="rounded-md border border-border-strong px-3 py-1 font-medium text-foreground hover:bg-raised"
      >
        <Trans>Show</Trans>
      </button>
    </Form>
  );
}
