// The delivery section of `npm run bench` (alone: BENCH_ONLY=delivery; left out: BENCH_SKIP_DELIVERY=1), issue 33:
// support requests, mail and visitor messages per second through the delivery engine, against the chat webhook
// receiver, the SMTP receiver and the Discord emulator on 127.0.0.1, on SQLite and PostgreSQL (BENCH_DELIVERY_COUNT
// items each). No build needed: the workers run under tsx.
import { runTsxBench } from "./tsx-bench.mjs";

export function benchDelivery() {
  return runTsxBench("scripts/lib/bench-delivery-run.ts", "delivery");
}

// Run on its own: node scripts/lib/bench-delivery.mjs
if (import.meta.url === `file://${process.argv[1]}`) await benchDelivery();
