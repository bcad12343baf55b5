// Numbers and dates on the status pages, written the way the page's language writes them (docs/i18n.md).

const percentFormats = new Map<string, Intl.NumberFormat>();

/**
 * A percentage given as a decimal string ("99.90", which `formatUptime` has already rounded down to hundredths) in the
 * page's language, with `decimals` places: "99.90%", "99,90 %", "100%". The string is formatted as written, never
 * through a float that could round it.
 */
export function formatPercent(value: string, tag: string, decimals = 2): string {
  const key = `${tag} ${decimals}`;
  let format = percentFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(tag, {
      style: "unit",
      unit: "percent",
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    percentFormats.set(key, format);
  }
  return format.format(value as `${number}`);
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** A UTC day as its month and day ("Nov 12", "12. Nov."): the bars cover the last 90 days, so no year. */
export function formatDay(date: Date, tag: string): string {
  let format = dayFormats.get(tag);
  if (!format) {
    format = new Intl.DateTimeFormat(tag, { month: "short", day: "numeric", timeZone: "UTC" });
    dayFormats.set(tag, format);
  }
  return format.format(date);
}
