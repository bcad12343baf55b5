/**
 * Which of the Vault's 90 daily bars is the demo's outage: the demo history is laid 12 days before the shared server's
 * first boot, so it is the 78th bar (index 77), one earlier for each UTC midnight since then. The suite's data dir is
 * named after the moment the run started, just before that server booted (playwright.config.ts).
 */
export function demoVaultOutageBarIndex(now = Date.now()): number {
  const startedAt = Number(/-(\d{13})$/.exec(process.env.E2E_DATA_DIR ?? "")?.[1] ?? now);
  const utcDay = (ms: number) => Math.floor(ms / 86_400_000);
  return 77 - (utcDay(now) - utcDay(startedAt));
}
