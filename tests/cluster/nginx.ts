// nginx from Debian's packages as the cluster test's load balancer: the deploy kit's own config template, rendered
// into a temporary folder with its own pid, logs and temp paths, so the machine's nginx service is never touched.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../support/app-server";

export const NGINX_TEMPLATE = path.resolve(import.meta.dirname, "../../deploy/nginx.conf.template");
const NGINX_PATHS = ["/usr/sbin/nginx", "/usr/bin/nginx"];

/** The nginx binary; installed with apt when missing and this process is root (as Chromium is for end-to-end tests). */
export function ensureNginx(): string {
  const found = () => {
    try {
      return execFileSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" }).trim() || undefined;
    } catch {
      return NGINX_PATHS.find((candidate) => fs.existsSync(candidate));
    }
  };
  const existing = found();
  if (existing) return existing;
  if (process.getuid?.() !== 0) throw new Error("nginx not found. Install it with: sudo apt-get install -y nginx");
  console.log("Installing nginx with apt (first run on this machine)...");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  try {
    execFileSync("apt-get", ["install", "-y", "-qq", "nginx"], { stdio: "inherit", env });
  } catch {
    execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
    execFileSync("apt-get", ["install", "-y", "-qq", "nginx"], { stdio: "inherit", env });
  }
  const installed = found();
  if (!installed) throw new Error("apt-get finished but nginx is still missing");
  return installed;
}

/**
 * Fills the template's ${NAME} placeholders the way the nginx image's envsubst step does: only the given names,
 * so nginx's own $variables stay. Throws when the template asks for a name not given.
 */
export function renderNginxTemplate(template: string, values: Record<string, string>): string {
  const missing = [...template.matchAll(/\$\{([A-Z_][A-Z0-9_]*)\}/g)]
    .map((m) => m[1] as string)
    .filter((name) => !(name in values));
  if (missing.length > 0) throw new Error(`nginx template needs ${[...new Set(missing)].join(", ")}`);
  return template.replace(/\$\{([A-Z_][A-Z0-9_]*)\}/g, (_all, name: string) => values[name] as string);
}

export interface Nginx {
  url: string;
  port: number;
  stop(): Promise<void>;
  logs(): string;
}

/** Starts nginx in the foreground on a free 127.0.0.1 port, balancing over the given instance ports. */
export async function startNginx(upstreamPorts: number[]): Promise<Nginx> {
  const binary = ensureNginx();
  const port = await freePort();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "kestrel-cluster-nginx-"));
  // Worker processes run as an unprivileged user when started by root; they need to reach the temp folders.
  fs.chmodSync(root, 0o755);
  const temps = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((name) => {
    const dir = path.join(root, name);
    fs.mkdirSync(dir, { mode: 0o777 });
    fs.chmodSync(dir, 0o777);
    return `    ${name}_temp_path ${dir};`;
  });
  const site = renderNginxTemplate(fs.readFileSync(NGINX_TEMPLATE, "utf8"), {
    STOREFRONT_SERVERS: upstreamPorts.map((p) => `server 127.0.0.1:${p};`).join(" "),
    LISTEN_PORT: `127.0.0.1:${port}`,
  });
  fs.writeFileSync(path.join(root, "storefront.conf"), site);
  const mainConf = [
    "worker_processes 1;",
    `pid ${root}/nginx.pid;`,
    `error_log ${root}/error.log warn;`,
    "daemon off;",
    "events { worker_connections 1024; }",
    "http {",
    `    access_log ${root}/access.log;`,
    ...temps,
    `    include ${root}/storefront.conf;`,
    "}",
    "",
  ].join("\n");
  const confFile = path.join(root, "nginx.conf");
  fs.writeFileSync(confFile, mainConf);
  let output = "";
  const child: ChildProcess = spawn(binary, ["-p", root, "-e", `${root}/error.log`, "-c", confFile], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`nginx exited (${child.exitCode}): ${output}${readIfExists(`${root}/error.log`)}`);
    try {
      await fetch(`${url}/healthz`);
      break;
    } catch {}
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`nginx did not listen on ${url}: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    port,
    logs: () => output + readIfExists(`${root}/error.log`),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        // SIGQUIT: nginx's graceful stop.
        child.kill("SIGQUIT");
        await exited;
      }
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

function readIfExists(file: string): string {
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
}
