// How long a duration's licence runs (issue 45): content says `days`; a connected shop's variant only has a name.

const UNIT_DAYS: Record<string, number> = { day: 1, week: 7, month: 30, year: 365 };
const ADVERBS: Record<string, number> = { daily: 1, weekly: 7, monthly: 30, yearly: 365, annual: 365, annually: 365 };
const LIFETIME = /\b(lifetime|life-time|forever|permanent|perpetual)\b/;

/**
 * Days from a variant's name, in any case: "1 Day", "7 Days", "1 Week", "Monthly", "Lifetime" (0), "3 months",
 * "1 Day (One-time)". Undefined when the name says no length we can tell ("Standard", "Pro"): never a guess.
 */
export function daysFromVariantName(name: string): number | undefined {
  const text = name.toLowerCase();
  if (LIFETIME.test(text)) return 0;
  const counted = /\b(\d{1,4})[\s-]*(day|week|month|year)s?\b/.exec(text);
  if (counted) return Number(counted[1]) * UNIT_DAYS[counted[2]!]!;
  const adverb = /\b(daily|weekly|monthly|yearly|annual|annually)\b/.exec(text);
  if (adverb) return ADVERBS[adverb[1]!];
  const single = /^\s*(?:a|one)?\s*(day|week|month|year)\b/.exec(text);
  if (single) return UNIT_DAYS[single[1]!];
  return undefined;
}

/**
 * A connected shop's duration length: the overlay's `days` for that variant when it gives one (the owner's
 * correction), else the name parsed, else `null` (unknown).
 */
export function shopDurationDays(variantName: string, overlayDays: number | null | undefined): number | null {
  if (overlayDays !== undefined && overlayDays !== null) return overlayDays;
  return daysFromVariantName(variantName) ?? null;
}
