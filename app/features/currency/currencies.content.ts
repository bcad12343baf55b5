import { z } from "zod";
import { isoDate, reportDuplicates } from "~/features/content/content";
import { stepCents } from "./convert";

const decimal = z
  .string()
  .regex(/^\d{1,9}(\.\d{1,8})?$/, { message: 'expected a decimal number as text, e.g. "0.9206"' });
const currencyCode = z.string().regex(/^[A-Z]{3}$/, { message: "expected a currency code like EUR" });

/**
 * content/currencies.json: what one unit of the currency the shop charges (`base`) is worth in each currency prices
 * may be shown in, written as decimal text so no rate is ever a binary fraction, the step shown amounts are rounded to,
 * and the day the operator set the rates.
 */
export const currenciesFileSchema = z
  .object({
    base: currencyCode,
    setOn: isoDate,
    currencies: z
      .array(
        z.object({
          code: currencyCode,
          rate: decimal.refine((rate) => Number(rate) > 0, { message: "expected a rate above 0" }),
          rounding: decimal.refine((step) => stepCents(step) !== null, {
            message: 'expected a rounding step of whole cents, e.g. "0.01" or "0.10"',
          }),
        }),
      )
      .min(1)
      .superRefine((rows, ctx) => reportDuplicates(rows, (row) => row.code, "code", "currency", ctx)),
  })
  .superRefine((file, ctx) => {
    const base = file.currencies.find((row) => row.code === file.base);
    if (!base || Number(base.rate) !== 1)
      ctx.addIssue({ code: "custom", path: ["currencies"], message: `expected ${file.base} (the base) at rate "1"` });
  });

export type CurrenciesFile = z.infer<typeof currenciesFileSchema>;
export type CurrencyRate = CurrenciesFile["currencies"][number];
