// The console section of `npm run bench` (alone: BENCH_ONLY=console; left out: BENCH_SKIP_CONSOLE=1), issue 34: the
// dashboard's server time at 100,000 orders and conversations (under tsx, both databases), sign-in requests per second
// against the per-address limit, and the shop pages' documents (what the console must not add to).
import autocannon from "autocannon";
import { startAppServer } from "../../tests/support/app-server.ts";
import { CONNECTIONS, DURATION, documentSize, loadAverage } from "./bench-measure.mjs";
import { runTsxBench } from "./tsx-bench.mjs";

/** POSTs to the sign-in challenge endpoint for DURATION s, from one address or a new one per request. */
async function signInRate(server, oneAddress) {
  let n = 0;
  const result = await autocannon({
    url: server.url,
    connections: CONNECTIONS,
    duration: DURATION,
    requests: [
      {
        method: "POST",
        path: "/api/admin/passkeys/sign-in/options",
        setupRequest: (request) => ({
          ...request,
          headers: {
            origin: `http://localhost:${server.port}`,
            "x-forwarded-for": oneAddress ? "198.51.100.7" : `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n++ & 255}`,
          },
        }),
      },
    ],
  });
  const count = (status) => result.statusCodeStats?.[status]?.count ?? 0;
  return {
    rps: Math.round(result.requests.average),
    ok: count(200),
    limited: count(429),
    total: result.requests.total,
  };
}

export async function benchConsole({ buildDir = "build" } = {}) {
  await runTsxBench("scripts/lib/bench-console-run.ts", "console dashboard");
  const server = await startAppServer({ env: { BUILD_DIR: buildDir, LOG_LEVEL: "silent" } });
  try {
    console.log(`\n## Console sign-in against its limits (${loadAverage()})`);
    const one = await signInRate(server, true);
    console.log(
      `  one client address:   ${one.rps} req/s, ${one.ok} challenges, ${one.limited} answered 429 (30 a minute per address)`,
    );
    const many = await signInRate(server, false);
    console.log(
      `  a new address each:   ${many.rps} req/s, ${many.ok} challenges (each stored for 5 minutes), ${many.limited} answered 429`,
    );
    console.log("\n## Shop documents beside the console (brotli, body + headers)");
    for (const route of ["/", "/products", "/product/446894", "/admin/sign-in"]) {
      const size = await documentSize(`${server.url}${route}`);
      console.log(`  ${route.padEnd(18)} ${String(size.body + size.headers).padStart(7)} B  (status ${size.status})`);
    }
  } finally {
    await server.stop();
  }
}

// Run on its own: node scripts/lib/bench-console.mjs
if (import.meta.url === `file://${process.argv[1]}`) await benchConsole();
