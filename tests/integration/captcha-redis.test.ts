import { type ChildProcess, spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createCaptcha,
  databaseSpentPayloadStore,
  redisSpentPayloadStore,
  redisWithDatabaseFallback,
} from "~/features/captcha/captcha.server";
import { freePort } from "../support/app-server";
import { solveCaptchaPayload } from "../support/captcha-solver";
import { createTestDatabase, type TestDatabase } from "../support/databases";

const REDIS_SERVER = "/usr/bin/redis-server";
const hasRedis = fs.existsSync(REDIS_SERVER);

describe.skipIf(!hasRedis)("captcha replay protection in Redis (skipped without /usr/bin/redis-server)", () => {
  let server: ChildProcess;
  let redis: Redis;
  let database: TestDatabase;
  const hmacKey = crypto.randomBytes(32).toString("hex");

  beforeAll(async () => {
    const port = await freePort();
    server = spawn(REDIS_SERVER, ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
      stdio: "ignore",
    });
    redis = new Redis({
      port,
      host: "127.0.0.1",
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
    // Connection refusals while redis-server starts surface through connect() below, not as stray error events.
    redis.on("error", () => {});
    for (let i = 0; i < 50; i++) {
      try {
        await redis.connect();
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    database = await createTestDatabase("sqlite");
  });
  afterAll(async () => {
    redis?.disconnect();
    server?.kill();
    await database?.drop();
  });

  it("accepts a payload once across instances sharing Redis", async () => {
    const first = createCaptcha({ hmacKey, store: redisSpentPayloadStore(redis), counterRange: [20, 50] });
    const second = createCaptcha({ hmacKey, store: redisSpentPayloadStore(redis) });
    const payload = await solveCaptchaPayload(await first.issueChallenge());
    const verdicts = await Promise.all([first.verifyPayloadOnce(payload), second.verifyPayloadOnce(payload)]);
    expect(verdicts.filter((v) => v.ok)).toHaveLength(1);
    const key = (await redis.keys("kestrel:captcha-used:*"))[0] ?? "";
    // The record lives as long as the challenge (10 minutes), not forever.
    expect(await redis.pttl(key)).toBeGreaterThan(9 * 60 * 1000);
  });

  it("falls back to the database while Redis is down", async () => {
    const downRedis = new Redis({
      port: 1,
      host: "127.0.0.1",
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    downRedis.on("error", () => {});
    const captcha = createCaptcha({
      hmacKey,
      store: redisWithDatabaseFallback(
        redisSpentPayloadStore(downRedis),
        databaseSpentPayloadStore(database.handle.db),
      ),
      counterRange: [20, 50],
    });
    const payload = await solveCaptchaPayload(await captcha.issueChallenge());
    expect(await captcha.verifyPayloadOnce(payload)).toEqual({ ok: true });
    expect(await captcha.verifyPayloadOnce(payload)).toEqual({ ok: false, reason: "reused" });
    downRedis.disconnect();
  });
});
