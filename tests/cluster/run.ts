// npm run test:cluster: three instances of the built shop behind nginx, on a PostgreSQL database made for the run and
// Redis, then a second set on a throwaway PostgreSQL that is restarted. One figures line per scenario; exit 1 on any
// failed check. Needs PostgreSQL and Redis on 127.0.0.1 (skipped otherwise) and the build (made when missing).
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { type ChatWebhookReceiver, startChatWebhookReceiver } from "../fakes/chat-webhook-receiver";
import { BUILD_DIR, Checks, Cluster, clientAddressesUsed } from "./cluster";
import { type Nginx, startNginx } from "./nginx";
import { postgresRestart } from "./postgres-restart";
import { startDiscordEmulator } from "../fakes/discord-emulator";
import { startShopEmulator } from "../fakes/shop-emulator";
import { buyerSignInAcrossInstances } from "./buyer-sign-in";
import { consoleAcrossInstances } from "./console";
import { consoleSignOutEverywhere } from "./console-sign-out";
import { consoleInboxAcrossInstances } from "./console-inbox";
import { limitsAcrossInstances, shopNotifications } from "./shop-and-limits";
import { shopCatalogue } from "./shop-catalogue";
import { PROBE_INTERVAL_SECONDS, startProbeTargetRecorder, statusProbes } from "./status-probes";
import { supportConversationsAcrossInstances } from "./support-conversations";
import { supportLoad } from "./support-load";
import { supportRepliesFromDiscord } from "./support-replies-from-discord";
import { canRunThrowawayPostgres, startThrowawayPostgres, type ThrowawayPostgres } from "./throwaway-postgres";

const ROOT = path.resolve(import.meta.dirname, "../..");
const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const INSTANCES = 3;
/** CLUSTER_ONLY=h,g runs only those scenarios (and starts only the sets they need), for work on one of them. */
const ONLY = process.env.CLUSTER_ONLY?.split(",").map((name) => name.trim());
const wanted = (name: string) => ONLY === undefined || ONLY.includes(name);

function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port, timeout: 2000 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
    socket.once("timeout", () => done(false));
  });
}

/** Cleanups run last-in first-out, also when a scenario throws; `from` runs only those registered since that mark. */
const cleanups: Array<() => Promise<unknown> | unknown> = [];
async function cleanUp(from = 0) {
  for (const cleanup of cleanups.splice(from).reverse()) {
    try {
      await cleanup();
    } catch (error) {
      console.error(`cleanup failed: ${(error as Error).message}`);
    }
  }
}

/** A database of the machine's PostgreSQL made for this run, dropped by the cleanups. */
async function createRunDatabase(): Promise<{ name: string; url: string }> {
  const name = `kestrel_cluster_${crypto.randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  cleanups.push(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  });
  return { name, url: POSTGRES_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`) };
}

async function main(): Promise<number> {
  if (!(await reachable(5432)) || !(await reachable(6379))) {
    console.log("skipped: PostgreSQL/Redis not reachable");
    return 0;
  }
  process.chdir(ROOT);
  if (!fs.existsSync(path.join(BUILD_DIR, "server/index.js"))) {
    console.log(`No build in ${BUILD_DIR}/: building...`);
    execFileSync("node_modules/.bin/react-router", ["build"], { stdio: "inherit" });
  }
  const throwawayProblem = wanted("d") ? canRunThrowawayPostgres() : undefined;
  if (throwawayProblem) throw new Error(`scenario d cannot run: ${throwawayProblem}`);

  const started = Date.now();
  const checks = new Checks();
  // The machine's Redis is shared with other tests: the counters kept for this run's client addresses go with it.
  cleanups.push(async () => {
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await redis.connect();
    const keys = [...clientAddressesUsed].flatMap((address) =>
      [
        "support",
        "checkout",
        "orderStatus",
        "orders-sign-in",
        "support-conversation-read",
        "support-conversation-stream",
        "support-message-address",
        "staffSignIn",
        "staffSetup",
      ].map((limit) => `kestrel:rl:${limit}:${address}`),
    );
    for (let i = 0; i < keys.length; i += 500) await redis.del(...keys.slice(i, i + 500));
    await redis.quit();
  });
  const secrets = {
    altchaKey: crypto.randomBytes(32).toString("hex"),
    shopWebhookSecret: crypto.randomBytes(32).toString("hex"),
  };

  // a-c, g, h, j, l: the machine's PostgreSQL, one database made for the run.
  const firstSet = cleanups.length;
  const { name: dbName, url: databaseUrl } = await createRunDatabase();
  const receiver: ChatWebhookReceiver = await startChatWebhookReceiver();
  cleanups.push(() => receiver.close());
  const cluster = await Cluster.start({
    size: INSTANCES,
    databaseUrl,
    redisUrl: REDIS_URL,
    webhookUrl: receiver.url,
    ...secrets,
  });
  cleanups.push(() => cluster.stop());
  const nginx: Nginx = await startNginx(cluster.ports);
  cleanups.push(() => nginx.stop());
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  cleanups.push(() => db.end());
  console.log(
    `cluster: ${INSTANCES} instances on ${cluster.ports.join(", ")} behind nginx at ${nginx.url}, database ${dbName}, ${((Date.now() - started) / 1000).toFixed(1)} s to start`,
  );

  const before = checks.failures.length;
  const scenario = async (name: string, run: () => Promise<void>) => {
    if (!wanted(name)) return;
    try {
      await run();
    } catch (error) {
      checks.that(false, `${name}: ${(error as Error).message}`);
    }
  };
  await scenario("a", () => supportLoad({ cluster, balancer: nginx.url, receiver, db, checks }));
  await scenario("b", () =>
    shopNotifications({ cluster, balancer: nginx.url, db, secret: secrets.shopWebhookSecret, checks }),
  );
  await scenario("c", () => limitsAcrossInstances({ cluster, balancer: nginx.url, receiver, checks }));
  await scenario("g", () => buyerSignInAcrossInstances({ cluster, balancer: nginx.url, db, databaseUrl, checks }));
  await scenario("h", () =>
    supportConversationsAcrossInstances({ cluster, balancer: nginx.url, databaseUrl, redisUrl: REDIS_URL, checks }),
  );
  await scenario("j", () => consoleAcrossInstances({ cluster, db, databaseUrl, checks }));
  await scenario("l", () => consoleSignOutEverywhere({ cluster, db, checks }));
  if (checks.failures.length > before)
    console.log(`${cluster.logs()}\n--- nginx\n${nginx.logs().split("\n").slice(-20).join("\n")}`);
  await cleanUp(firstSet);

  // e: a third set reading a connected shop's catalogue (the emulator), on a database of its own.
  if (wanted("e")) {
    const catalogueSet = cleanups.length;
    const catalogueDb = await createRunDatabase();
    const shop = await startShopEmulator();
    cleanups.push(() => shop.close());
    const receiverE = await startChatWebhookReceiver();
    cleanups.push(() => receiverE.close());
    const shopEnv = {
      CATALOG_SOURCE: "sellauth",
      SHOP_API_BASE: shop.url,
      SHOP_ID: shop.shopId,
      SHOP_API_KEY: shop.apiKey,
    };
    const clusterE = await Cluster.start({
      size: INSTANCES,
      databaseUrl: catalogueDb.url,
      redisUrl: REDIS_URL,
      webhookUrl: receiverE.url,
      ...secrets,
      env: shopEnv,
    });
    cleanups.push(() => clusterE.stop());
    const nginxE = await startNginx(clusterE.ports);
    cleanups.push(() => nginxE.stop());
    const beforeE = checks.failures.length;
    await scenario("e", () =>
      shopCatalogue({ cluster: clusterE, balancer: nginxE.url, shop, secret: secrets.shopWebhookSecret, checks }),
    );
    if (checks.failures.length > beforeE) console.log(clusterE.logs());
    await cleanUp(catalogueSet);
  }

  // f: a fourth set with a probe on one product (content/ copied with the probe added), on a database of its own.
  if (wanted("f")) {
    const probeSet = cleanups.length;
    const probeDb = await createRunDatabase();
    const target = await startProbeTargetRecorder();
    cleanups.push(() => target.close());
    const probeContent = fs.mkdtempSync(path.join(os.tmpdir(), "kestrel-cluster-content-"));
    cleanups.push(() => fs.rmSync(probeContent, { recursive: true, force: true }));
    fs.cpSync(path.join(ROOT, "content"), probeContent, { recursive: true });
    const statusRows = JSON.parse(fs.readFileSync(path.join(probeContent, "status.json"), "utf8")) as Array<
      Record<string, unknown>
    >;
    statusRows[0] = {
      ...statusRows[0],
      probe: { url: target.url, expectStatus: 200, intervalSeconds: PROBE_INTERVAL_SECONDS, timeoutSeconds: 1 },
    };
    fs.writeFileSync(path.join(probeContent, "status.json"), JSON.stringify(statusRows));
    const receiverF = await startChatWebhookReceiver();
    cleanups.push(() => receiverF.close());
    const probeEnv = { CONTENT_DIR: probeContent, STATUS_PROBE_MIN_INTERVAL_SECONDS: "1" };
    const clusterF = await Cluster.start({
      size: INSTANCES,
      databaseUrl: probeDb.url,
      redisUrl: REDIS_URL,
      webhookUrl: receiverF.url,
      ...secrets,
      env: probeEnv,
    });
    cleanups.push(() => clusterF.stop());
    const dbF = new pg.Client({ connectionString: probeDb.url });
    await dbF.connect();
    cleanups.push(() => dbF.end());
    const beforeF = checks.failures.length;
    await scenario("f", () => statusProbes({ cluster: clusterF, target, db: dbF, checks }));
    if (checks.failures.length > beforeF) console.log(clusterF.logs());
    await cleanUp(probeSet);
  }

  // i: a set whose instances post requests with the Discord bot (the emulator) and read replies under the lease.
  if (wanted("i") || wanted("k")) {
    const discordSet = cleanups.length;
    const discordDb = await createRunDatabase();
    const emulator = await startDiscordEmulator();
    cleanups.push(() => emulator.close());
    const channel = emulator.addChannel({ kind: "text", name: "support" });
    const receiverI = await startChatWebhookReceiver();
    cleanups.push(() => receiverI.close());
    const clusterI = await Cluster.start({
      size: INSTANCES,
      databaseUrl: discordDb.url,
      redisUrl: REDIS_URL,
      webhookUrl: receiverI.url,
      ...secrets,
      env: {
        DISCORD_BOT_TOKEN: emulator.token,
        DISCORD_SUPPORT_CHANNEL_ID: channel,
        DISCORD_API_BASE: emulator.apiBase,
      },
    });
    cleanups.push(() => clusterI.stop());
    const nginxI = await startNginx(clusterI.ports);
    cleanups.push(() => nginxI.stop());
    const dbI = new pg.Client({ connectionString: discordDb.url });
    await dbI.connect();
    cleanups.push(() => dbI.end());
    const beforeI = checks.failures.length;
    await scenario("i", () =>
      supportRepliesFromDiscord({ cluster: clusterI, balancer: nginxI.url, db: dbI, emulator, checks }),
    );
    await scenario("k", () =>
      consoleInboxAcrossInstances({ cluster: clusterI, balancer: nginxI.url, db: dbI, emulator, checks }),
    );
    if (checks.failures.length > beforeI) console.log(clusterI.logs());
    await cleanUp(discordSet);
  }

  // d: a second set of instances on a throwaway PostgreSQL that is stopped and started.
  if (wanted("d")) {
    const secondSet = cleanups.length;
    const postgres: ThrowawayPostgres = await startThrowawayPostgres();
    cleanups.push(() => postgres.remove());
    const receiverD = await startChatWebhookReceiver();
    cleanups.push(() => receiverD.close());
    const clusterD = await Cluster.start({
      size: INSTANCES,
      databaseUrl: postgres.url,
      redisUrl: REDIS_URL,
      webhookUrl: receiverD.url,
      ...secrets,
    });
    cleanups.push(() => clusterD.stop());
    const nginxD = await startNginx(clusterD.ports);
    cleanups.push(() => nginxD.stop());
    const beforeD = checks.failures.length;
    await scenario("d", () =>
      postgresRestart({ cluster: clusterD, balancer: nginxD.url, receiver: receiverD, postgres, checks }),
    );
    if (checks.failures.length > beforeD) console.log(clusterD.logs());
    await cleanUp(secondSet);
  }

  console.log(
    `cluster test: ${checks.failures.length === 0 ? "passed" : `${checks.failures.length} check(s) failed`} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return checks.failures.length === 0 ? 0 : 1;
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void cleanUp().finally(() => process.exit(1));
  });
}

main()
  .then(async (code) => {
    await cleanUp();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    console.error(`cluster test: ${error instanceof Error ? error.message : String(error)}`);
    await cleanUp();
    process.exit(1);
  });
