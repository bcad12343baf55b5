/** Exponential backoff with jitter: attempt n waits between half and all of base·2^(n-1), capped at `maxMs`. */
export function backoffMs(attempt: number, random: () => number, baseMs: number, maxMs = 10 * 60_000): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
