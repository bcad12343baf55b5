// The delivery section of `npm run bench` (alone: BENCH_ONLY=delivery; left out: BENCH_SKIP_DELIVERY=1), issue 33:
// support requests, mail and visitor messages per second through the delivery engine, against the chat webhook
// receiver, the SMTP receiver and the Discord emulator on 127.0.0.1, on SQLite and PostgreSQL (BENCH_DELIVERY_COUNT
// items each). No build needed: the workers run under tsx.
import { spawn } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

export async function benchDelivery() {
  const tsx = path.join(ROOT, "node_modules/.bin/tsx");
  const child = spawn(
    process.execPath,
    [tsx, "--import", "./scripts/lib/lingui-macros.register.mjs", "scripts/lib/bench-delivery-run.ts"],
    { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, LOG_LEVEL: "error" } },
  );
  const code = await new Promise((resolve) => child.on("exit", resolve));
  if (code !== 0) throw new Error(`the delivery bench exited with ${code}`);
}

// Run on its own: node scripts/lib/bench-delivery.mjs
if (import.meta.url === `file://${process.argv[1]}`) await benchDelivery();
