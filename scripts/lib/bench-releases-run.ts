// The releases section of `npm run bench` (alone: BENCH_ONLY=releases; left out: BENCH_SKIP_RELEASES=1), issue 45:
// a BENCH_RELEASE_MB (256) file uploaded with `releases add` (streamed into the disk storage, hashed on the way) into
// the built server's DATA_DIR, then downloaded through GET /downloads/… (a release for anyone) against a plain static
// file server of the same file, as a ratio, with the RSS of the CLI during the upload and of the server during the
// downloads. Everything on 127.0.0.1; needs the build in ./build.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { startAppServer } from "../../tests/support/app-server";

const MB = Number(process.env.BENCH_RELEASE_MB ?? 256);
const RUNS = Number(process.env.BENCH_RELEASE_RUNS ?? 3);
const ROOT = path.resolve(import.meta.dirname, "../..");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kestrel-bench-releases-"));
const NAME = "Kestrel-Bench-1.0.0.bin";

/** The resident memory of a process, from /proc (0 once it is gone). */
function rssOf(pid: number | undefined): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

function sampling(pid: number | undefined) {
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 20);
  return () => {
    clearInterval(timer);
    return peak;
  };
}

const mib = (bytes: number) => (bytes / 1_048_576).toFixed(0);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

async function main() {
  const source = path.join(dir, NAME);
  const block = crypto.randomBytes(1_048_576);
  const out = fs.createWriteStream(source);
  for (let i = 0; i < MB; i++) if (!out.write(block)) await new Promise<void>((r) => out.once("drain", () => r()));
  await new Promise<void>((r) => out.end(() => r()));

  const server = await startAppServer({ env: { LOG_LEVEL: "error" } });
  try {
    const start = process.hrtime.bigint();
    const cli = spawn(
      path.join(ROOT, "node_modules/.bin/tsx"),
      [
        "--import",
        "./scripts/lib/lingui-macros.register.mjs",
        "cli/index.ts",
        "releases",
        "add",
        "--product",
        "vault",
        "--version",
        "9.0.0",
        "--file",
        source,
        "--anyone",
        "--publish",
      ],
      {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: "", LOG_LEVEL: "error" },
        stdio: "ignore",
      },
    );
    // tsx runs the CLI in a child of its own: sample the whole group's largest member.
    const stopCli = sampling(cli.pid);
    let childPeak = 0;
    const children = setInterval(() => {
      for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
        try {
          if (fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(" ")[3] === String(cli.pid))
            childPeak = Math.max(childPeak, rssOf(Number(pid)));
        } catch {}
      }
    }, 50);
    const code = await new Promise<number | null>((resolve) => cli.on("exit", resolve));
    clearInterval(children);
    const cliPeak = Math.max(stopCli(), childPeak);
    if (code !== 0) throw new Error(`releases add exited with ${code}`);
    const uploadSeconds = Number(process.hrtime.bigint() - start) / 1e9;

    const statics = http.createServer((_req, res) => {
      res.writeHead(200, {
        "Content-Length": String(fs.statSync(source).size),
        "Content-Type": "application/octet-stream",
      });
      fs.createReadStream(source).pipe(res);
    });
    await new Promise<void>((resolve) => statics.listen(0, "127.0.0.1", resolve));
    const plainUrl = `http://127.0.0.1:${(statics.address() as AddressInfo).port}/${NAME}`;
    const download = async (url: string) => {
      const begin = process.hrtime.bigint();
      const res = await fetch(url);
      let bytes = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
      if (bytes !== MB * 1_048_576) throw new Error(`${url}: ${res.status}, ${bytes} bytes`);
      return Number(process.hrtime.bigint() - begin) / 1e9;
    };
    const stopServer = sampling(server.process.pid);
    const rssIdle = rssOf(server.process.pid);
    const ours: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      ours.push(await download(`${server.url}/downloads/vault/9.0.0/${NAME}`));
      plain.push(await download(plainUrl));
    }
    const serverPeak = stopServer();
    statics.close();
    const ourRate = MB / median(ours);
    const plainRate = MB / median(plain);
    console.log(`\n## Releases (${MB} MB file, ${RUNS} downloads each, median)`);
    console.log(
      `upload with releases add (tsx start, SHA-256 + SHA-512, disk): ${(MB / uploadSeconds).toFixed(0)} MB/s over ${uploadSeconds.toFixed(1)} s, CLI RSS peak ${mib(cliPeak)} MiB`,
    );
    console.log(
      `download GET /downloads/… ${ourRate.toFixed(0)} MB/s; plain Node static server ${plainRate.toFixed(0)} MB/s; ratio ${(ourRate / plainRate).toFixed(2)}`,
    );
    console.log(`server RSS ${mib(rssIdle)} MiB before the downloads, peak ${mib(serverPeak)} MiB during them`);
  } finally {
    await server.stop();
  }
}

try {
  await main();
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
