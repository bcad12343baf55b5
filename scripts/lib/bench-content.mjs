// The content section of `npm run bench` (alone: BENCH_ONLY=content), issue 44: a publish until this instance shows
// it, and reading and checking the published content with none and with 500 published revisions, on SQLite and
// PostgreSQL. No build needed: it runs under tsx. (Publish to visible across instances: scenario j of test:cluster.)
import { runTsxBench } from "./tsx-bench.mjs";

export function benchContent() {
  return runTsxBench("scripts/lib/bench-content-run.ts", "content");
}

// Run on its own: node scripts/lib/bench-content.mjs
if (import.meta.url === `file://${process.argv[1]}`) await benchContent();
