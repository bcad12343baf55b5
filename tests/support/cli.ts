import { spawn } from "node:child_process";
import path from "node:path";
import { expect } from "@playwright/test";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * Runs `npm run cli -- ...args` (the same entry, via tsx) against the SQLite database in `dataDir`, as an operator
 * would beside the running server; expects exit 0 and returns what it printed. `{ dataDir, env }` adds to the
 * environment (a spec's own CONTENT_DIR). Asynchronous, so fakes in the test's own process keep answering meanwhile.
 */
export async function runCli(
  where: string | { dataDir: string; env?: Record<string, string> },
  ...args: string[]
): Promise<string> {
  const { dataDir, env = {} } = typeof where === "string" ? { dataDir: where, env: {} } : where;
  const child = spawn(
    path.join(root, "node_modules/.bin/tsx"),
    ["--import", "./scripts/lib/lingui-macros.register.mjs", "cli/index.ts", ...args],
    {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "warn", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const status = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve(code));
  });
  expect(status, stderr).toBe(0);
  return stdout;
}
