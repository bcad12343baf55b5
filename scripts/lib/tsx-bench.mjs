// Bench sections written in TypeScript with the app's `~/` paths run in a child process under tsx.
import { spawn } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** Runs `script` (relative to the repository root) under tsx with Lingui's macros; throws if it fails. */
export async function runTsxBench(script, name) {
  const tsx = path.join(ROOT, "node_modules/.bin/tsx");
  const child = spawn(process.execPath, [tsx, "--import", "./scripts/lib/lingui-macros.register.mjs", script], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, LOG_LEVEL: "error" },
  });
  const code = await new Promise((resolve) => child.on("exit", resolve));
  if (code !== 0) throw new Error(`the ${name} bench exited with ${code}`);
}
