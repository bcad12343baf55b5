// A PostgreSQL server of the cluster test's own (initdb + pg_ctl as the postgres OS user, data in a temporary folder),
// so it can be stopped and started without touching the machine's PostgreSQL that other tests use.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../support/app-server";

const BIN = process.env.POSTGRES_BIN_DIR ?? "/usr/lib/postgresql/15/bin";

export interface ThrowawayPostgres {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  port: number;
  /** Fast shutdown: open connections are ended, as when the server is restarted or fails over. */
  stop(): void;
  start(): void;
  /** Stops the server and removes its data folder. */
  remove(): void;
}

/** Whether this machine can run one: root (to act as the postgres user) and the server binaries. */
export function canRunThrowawayPostgres(): string | undefined {
  if (process.getuid?.() !== 0) return "not running as root (needed to run PostgreSQL as the postgres user)";
  if (!fs.existsSync(path.join(BIN, "pg_ctl"))) return `no PostgreSQL server binaries in ${BIN} (set POSTGRES_BIN_DIR)`;
  return undefined;
}

function asPostgres(command: string, args: string[]) {
  return execFileSync("runuser", ["-u", "postgres", "--", path.join(BIN, command), ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
  });
}

export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const port = await freePort();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "kestrel-cluster-pg-"));
  const dataDir = path.join(root, "data");
  const socketDir = path.join(root, "socket");
  fs.mkdirSync(socketDir);
  execFileSync("chown", ["-R", "postgres:postgres", root]);
  asPostgres("initdb", ["-D", dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const options = `-p ${port} -k ${socketDir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100`;
  const logFile = path.join(root, "server.log");
  let running = false;
  const start = () => {
    asPostgres("pg_ctl", ["-D", dataDir, "-l", logFile, "-o", options, "-w", "-t", "30", "start"]);
    running = true;
  };
  const stop = () => {
    asPostgres("pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "-t", "30", "stop"]);
    running = false;
  };
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start,
    stop,
    remove() {
      try {
        if (running) stop();
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
      }
    },
  };
}
