// The console-trust section of `npm run bench` (alone: BENCH_ONLY=console-trust; left out: BENCH_SKIP_CONSOLE_TRUST=1),
// issue 42: the inbox's text search at 100,000 conversations before (plain LIKE) and after (the index of migration
// 023), p50/p95, and the audit CSV export of 1,000,000 entries (time, peak RSS), on SQLite and PostgreSQL.
import { runTsxBench } from "./tsx-bench.mjs";

export async function benchConsoleTrust() {
  await runTsxBench("scripts/lib/bench-console-trust-run.ts", "console trust");
}

// Run on its own: node scripts/lib/bench-console-trust.mjs
if (import.meta.url === `file://${process.argv[1]}`) await benchConsoleTrust();
