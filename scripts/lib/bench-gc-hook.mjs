// Preloaded into the server only by `npm run bench` (NODE_OPTIONS=--expose-gc --import ...): SIGUSR2 runs a full GC
// and prints memory use, so idle memory can be measured after collection, as the idle-RSS target asks.
import v8 from "node:v8";

process.on("SIGUSR2", () => {
  globalThis.gc?.();
  const mb = (n) => Math.round(n / 1048576);
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  console.error(
    `[memory] rss=${mb(rss)}MB heapUsed=${mb(heapUsed)}MB heapTotal=${mb(heapTotal)}MB external=${mb(external)}MB arrayBuffers=${mb(arrayBuffers)}MB`,
  );
  if (process.env.BENCH_HEAP_SPACES)
    for (const s of v8.getHeapSpaceStatistics())
      console.error(`[memory]   ${s.space_name}: size=${mb(s.space_size)}MB used=${mb(s.space_used_size)}MB`);
});
