import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

// One shared production server for the suite; specs needing other settings start their own (tests/support/app-server.ts).
// Workers inherit the runner's env, so the port and data dir chosen here stay the same in every process.
process.env.E2E_PORT ??= String(3100 + (process.pid % 800));
process.env.E2E_DATA_DIR ??= path.join(os.tmpdir(), `kestrel-e2e-${process.pid}-${Date.now()}`);
const port = Number(process.env.E2E_PORT);
const dataDir = process.env.E2E_DATA_DIR;

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: true,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  // Traces of failed tests go in a folder of their own: Playwright empties it at start, and vitest.json stays beside.
  outputDir: "test-results/e2e",
  use: {
    baseURL: `http://localhost:${port}`,
    // Recording a trace for every test cost a quarter of the suite's CPU (46 s against 35 s over 54 tests) to keep the
    // few that fail: a failure keeps its screenshot and error context; `--trace retain-on-failure` brings traces back.
    trace: "off",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  webServer: {
    command: "node server.ts",
    url: `http://localhost:${port}/healthz`,
    reuseExistingServer: false,
    timeout: 30_000,
    env: {
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://localhost:${port}`,
      LOG_LEVEL: "warn",
      NODE_NO_WARNINGS: "1",
      // The pseudo-locale sweep (tests/e2e/route-sweep.spec.ts) renders every page at /en-xa/….
      PSEUDO_LOCALE: "on",
      BUILD_DIR: process.env.BUILD_DIR ?? "build",
    },
  },
});
