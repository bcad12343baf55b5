import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export interface AppServer {
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  /** Graceful stop (SIGTERM) and wait for exit. */
  stop(): Promise<void>;
  /** Hard kill (SIGKILL), as a crash would. */
  kill(): Promise<void>;
  logs(): string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      srv.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port"))));
    });
  });
}

export function makeDataDir(prefix = "kestrel-test-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Starts the built production server (`node server.ts`) on 127.0.0.1 with its own data dir and env. */
export async function startAppServer(
  options: { env?: Record<string, string>; dataDir?: string; port?: number } = {},
): Promise<AppServer> {
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? makeDataDir();
  const root = path.resolve(import.meta.dirname, "../..");
  let output = "";
  const child = spawn(process.execPath, ["server.ts"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://localhost:${port}`,
      LOG_LEVEL: "warn",
      NODE_NO_WARNINGS: "1",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  // A shared 2-core machine under load has taken more than 20 s to boot one; the test's own timeout still bounds it.
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {}
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not become healthy:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const waitExit = () =>
    new Promise<void>((resolve) =>
      child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve()),
    );
  return {
    url,
    port,
    dataDir,
    process: child,
    logs: () => output,
    async stop() {
      child.kill("SIGTERM");
      await waitExit();
    },
    async kill() {
      child.kill("SIGKILL");
      await waitExit();
    },
  };
}
