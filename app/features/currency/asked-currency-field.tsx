import { useAskedCurrency } from "~/features/i18n/use-locale";

/** Inside a GET form: the currency asked for in the URL stays when the form is sent without JavaScript. */
export function AskedCurrencyField() {
  const asked = useAskedCurrency();
  return asked ? <input type="hidden" name="currency" value={asked} /> : null;
}
