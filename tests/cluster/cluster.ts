// The pieces the cluster test drives: app instances on one database and Redis, a client that solves captchas and
// speaks for many client addresses through the load balancer, and the figures line each scenario prints.
import crypto from "node:crypto";
import fs from "node:fs";
import type { Challenge } from "altcha-lib";
import { type AppServer, freePort, makeDataDir, startAppServer } from "../support/app-server";
import { solveCaptchaPayload } from "../support/captcha-solver";

export const BUILD_DIR = process.env.BUILD_DIR ?? "build";

export interface ClusterOptions {
  size: number;
  databaseUrl: string;
  redisUrl: string;
  webhookUrl: string;
  /** Shared by every instance: a captcha issued by one verifies on another, a notification signed once verifies anywhere. */
  altchaKey: string;
  shopWebhookSecret: string;
  /** More configuration for every instance (a connected shop's catalogue). */
  env?: Record<string, string>;
}

/** Instances with fixed ports and data folders, so one can be killed and started again where the balancer expects it. */
export class Cluster {
  readonly ports: number[] = [];
  private readonly servers: Array<AppServer | undefined> = [];
  private readonly dataDirs: string[] = [];

  private constructor(private readonly options: ClusterOptions) {}

  static async start(options: ClusterOptions): Promise<Cluster> {
    const cluster = new Cluster(options);
    for (let i = 0; i < options.size; i++) {
      cluster.ports.push(await freePort());
      cluster.dataDirs.push(makeDataDir("kestrel-cluster-app-"));
    }
    // Booting together is part of the proof: migrations and seeds run once under the advisory lock.
    await Promise.all(cluster.ports.map((_p, i) => cluster.startInstance(i)));
    return cluster;
  }

  url(i: number): string {
    return `http://127.0.0.1:${this.ports[i]}`;
  }

  async startInstance(i: number): Promise<void> {
    const o = this.options;
    this.servers[i] = await startAppServer({
      port: this.ports[i],
      dataDir: this.dataDirs[i],
      env: {
        BUILD_DIR,
        DATABASE_URL: o.databaseUrl,
        REDIS_URL: o.redisUrl,
        SUPPORT_WEBHOOK_URL: o.webhookUrl,
        ALTCHA_HMAC_KEY: o.altchaKey,
        SHOP_WEBHOOK_SECRET: o.shopWebhookSecret,
        CHECKOUT_PROVIDER: "demo",
        // nginx runs on this machine: only loopback proxies are believed, as docs/deploy.md advises for that setup.
        TRUST_PROXY: "loopback",
        METRICS_PORT: "",
        LOG_LEVEL: "warn",
        ...o.env,
      },
    });
  }

  /** The process id of instance i (while it runs). */
  pid(i: number): number | undefined {
    return this.servers[i]?.process.pid;
  }

  /** SIGKILL, as a crash or the OOM killer would. */
  async kill(i: number): Promise<void> {
    await this.servers[i]?.kill();
    this.servers[i] = undefined;
  }

  logs(): string {
    return this.servers
      .map(
        (s, i) =>
          `--- instance ${i} (port ${this.ports[i]})\n${(s?.logs() ?? "(not running)").split("\n").slice(-40).join("\n")}`,
      )
      .join("\n");
  }

  /** Graceful stop of every instance (SIGTERM), then their data folders go. */
  async stop(): Promise<void> {
    await Promise.all(this.servers.map((s) => s?.stop()));
    for (const dir of this.dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Waits until `check` returns a value, polling; throws `what` at the deadline. */
export async function waitFor<T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs: number,
  what: string,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(everyMs);
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every client address the run spoke for, so their rate-limit counters can be removed from Redis afterwards. */
export const clientAddressesUsed = new Set<string>();
let nextClientAddress = crypto.randomInt(0, 131_072);

/** Distinct client addresses from the benchmarking range (198.18.0.0/15), starting at a random point per run. */
export function clientAddresses() {
  return () => {
    const n = nextClientAddress++ % 131_072;
    const address = `198.${18 + (n >> 16)}.${(n >> 8) & 255}.${n & 255}`;
    clientAddressesUsed.add(address);
    return address;
  };
}

export interface Reply {
  status: number;
  body: unknown;
  text: string;
  ms: number;
  contentType: string;
}

/** One HTTP request as a client at `client` (X-Forwarded-For, which TRUST_PROXY=loopback believes from nginx and from us). */
export async function send(
  url: string,
  init: { method?: string; json?: unknown; client?: string; headers?: Record<string, string>; raw?: string } = {},
): Promise<Reply> {
  const started = performance.now();
  const headers: Record<string, string> = {
    ...(init.client ? { "X-Forwarded-For": init.client } : {}),
    ...init.headers,
  };
  let body: string | undefined = init.raw;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers["Content-Type"] = "application/json";
  }
  const res = await fetch(url, {
    method: init.method ?? (body ? "POST" : "GET"),
    headers,
    body,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  const contentType = res.headers.get("content-type") ?? "";
  let parsed: unknown;
  if (contentType.includes("json")) {
    try {
      parsed = JSON.parse(text);
    } catch {}
  }
  return { status: res.status, body: parsed, text, ms: performance.now() - started, contentType };
}

/** A solved captcha payload from `base`'s challenge endpoint (retried: the instance behind the balancer may just have died). */
export async function solvedCaptcha(base: string, path = "/api/captcha/challenge"): Promise<string> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const reply = await send(`${base}${path}`);
      if (reply.status === 200) return await solveCaptchaPayload(reply.body as Challenge);
      lastError = new Error(`challenge answered ${reply.status}`);
    } catch (error) {
      lastError = error;
    }
    await sleep(100);
  }
  throw lastError;
}

const CATEGORIES = [
  {
    category: "Product Support",
    answers: (n: number) => [
      "Kestrel Vault",
      `Cluster request ${n}: it **stops** at launch — ünïcødé ✓`,
      "Reinstalled twice",
      `user${n}@example.test`,
    ],
  },
  {
    category: "Purchase Support",
    answers: (n: number) => [
      "Kestrel Studio",
      "Card",
      `Cluster request ${n}: the payment <did not> finish`,
      `@buyer_${n}`,
    ],
  },
  {
    category: "Key Reset",
    answers: (n: number) => [`KEY-${n}-ABCD`, `Cluster request ${n}: new PC`, `reset${n}@example.test`],
  },
] as const;

/** A valid support request body, numbered so its text is its own. */
export function supportRequest(n: number, altcha: string) {
  const kind = CATEGORIES[n % CATEGORIES.length] as (typeof CATEGORIES)[number];
  return { category: kind.category, answers: kind.answers(n), altcha };
}

/** The support request id a chat message carries in its last embed's footer ("Request ID: …"). */
export function requestIdOf(body: { embeds?: Array<{ footer?: { text?: string } }> }): string | undefined {
  const footer = body.embeds?.at(-1)?.footer?.text ?? "";
  return /Request ID: ([0-9a-f-]{36})/.exec(footer)?.[1];
}

export interface Figures {
  submitted: number;
  acknowledged: number;
  delivered: number;
  duplicates: number;
  lost: number;
  drainSeconds?: number;
  recoverySeconds?: number;
}

/** The one line a scenario prints. */
export function figuresLine(name: string, f: Figures, extra: Record<string, string | number> = {}): string {
  const seconds = (s: number | undefined) => (s === undefined ? "-" : s.toFixed(1));
  const extras = Object.entries(extra).map(([k, v]) => ` ${k}=${v}`);
  return `${name}: submitted=${f.submitted} acknowledged=${f.acknowledged} delivered=${f.delivered} duplicates=${f.duplicates} lost=${f.lost} drain_s=${seconds(f.drainSeconds)} recovery_s=${seconds(f.recoverySeconds)}${extras.join("")}`;
}

/** Failed assertions of the run; the script exits non-zero when any. */
export class Checks {
  readonly failures: string[] = [];
  that(condition: boolean, message: string) {
    if (!condition) {
      this.failures.push(message);
      console.log(`FAIL ${message}`);
    }
  }
}

/** Runs `task` for 0..count-1 with at most `concurrency` at once. */
export async function forEachConcurrently(
  count: number,
  concurrency: number,
  task: (n: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await task(next++);
    }),
  );
}
