// The support-relay section of `npm run bench` (alone: BENCH_ONLY=support-relay; left out: BENCH_SKIP_SUPPORT_RELAY=1),
// issue 30: the request budget to Discord per open conversation and the read interval the reply reader achieves with
// 10, 100 and 1,000 active conversations and 1,000 and 3,000 idle ones (BENCH_RELAY_ACTIVE, BENCH_RELAY_IDLE,
// BENCH_RELAY_ACTIVE_SECONDS, BENCH_RELAY_IDLE_SECONDS change them). No build needed: the reader runs under tsx
// against the Discord emulator on 127.0.0.1.
import { runTsxBench } from "./tsx-bench.mjs";

export function benchSupportRelay() {
  return runTsxBench("scripts/lib/bench-support-relay-run.ts", "support-relay");
}

// Run on its own: node scripts/lib/bench-support-relay.mjs
if (import.meta.url === `file://${process.argv[1]}`) await benchSupportRelay();
