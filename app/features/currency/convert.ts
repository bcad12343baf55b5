/** A decimal written as text, as exact digits × 10^-scale ("0.9206" → 9206n, 4). */
function decimalParts(text: string): { digits: bigint; scale: number } {
  const [whole = "0", fraction = ""] = text.split(".");
  return { digits: BigInt(whole + fraction), scale: fraction.length };
}

/** A rounding step ("0.05", "1") in cents, or null when it is not a whole number of cents. */
export function stepCents(rounding: string): bigint | null {
  const { digits, scale } = decimalParts(rounding);
  const scaled = digits * 100n;
  const divisor = 10n ** BigInt(scale);
  return scaled % divisor === 0n && scaled > 0n ? scaled / divisor : null;
}

/**
 * `cents` of the base currency in cents of a currency worth `rate` per base unit, rounded half-up to a multiple of
 * `rounding` (a step such as "0.01" or "0.10"), in exact decimal arithmetic: 1499 × 0.9206 = 1379.9794 → 1380.
 */
export function convertCents(cents: number, rate: string, rounding: string): number {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`expected whole cents, got ${cents}`);
  const step = stepCents(rounding);
  if (step === null) throw new RangeError(`rounding step ${rounding} is not a whole number of cents`);
  const r = decimalParts(rate);
  // cents × rate ÷ step, as one fraction of integers.
  const numerator = BigInt(cents) * r.digits;
  const denominator = step * 10n ** BigInt(r.scale);
  let steps = numerator / denominator;
  if ((numerator % denominator) * 2n >= denominator) steps += 1n;
  return Number(steps * step);
}
