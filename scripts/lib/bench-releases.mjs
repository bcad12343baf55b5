// The releases section of `npm run bench` (issue 45): see bench-releases-run.ts. No build needed.
import { runTsxBench } from "./tsx-bench.mjs";

export function benchReleases() {
  return runTsxBench("scripts/lib/bench-releases-run.ts", "releases");
}

// Run on its own: node scripts/lib/bench-releases.mjs
if (import.meta.url === `file://${process.argv[1]}`) await benchReleases();
