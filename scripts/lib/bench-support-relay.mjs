// The support-relay section of `npm run bench` (alone: BENCH_ONLY=support-relay; left out: BENCH_SKIP_SUPPORT_RELAY=1),
// issue 30: the request budget to Discord per open conversation and the read interval the reply reader achieves with
// 10, 100 and 1,000 active conversations and 1,000 and 3,000 idle ones (BENCH_RELAY_ACTIVE, BENCH_RELAY_IDLE,
// BENCH_RELAY_ACTIVE_SECONDS, BENCH_RELAY_IDLE_SECONDS change them). No build needed: the reader runs under tsx
// against the Discord emulator on 127.0.0.1.
import { spawn } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

export async function benchSupportRelay() {
  const tsx = path.join(ROOT, "node_modules/.bin/tsx");
  const child = spawn(
    process.execPath,
    [tsx, "--import", "./scripts/lib/lingui-macros.register.mjs", "scripts/lib/bench-support-relay-run.ts"],
    { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, LOG_LEVEL: "error" } },
  );
  const code = await new Promise((resolve) => child.on("exit", resolve));
  if (code !== 0) throw new Error(`the support-relay bench exited with ${code}`);
}

// Run on its own: node scripts/lib/bench-support-relay.mjs
if (import.meta.url === `file://${process.argv[1]}`) await benchSupportRelay();
