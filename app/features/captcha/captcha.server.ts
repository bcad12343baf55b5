// Own proof-of-work captcha, reusable by any feature: `issueChallenge()` → challenge JSON for the altcha widget; `verifyPayloadOnce(payload)` → {ok} | {ok:false, reason}, each payload accepted once.
import crypto from "node:crypto";
import { type Challenge, createChallenge, randomInt, verifySolution } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import type { Redis } from "ioredis";
import type { Kysely } from "kysely";
import { getDb } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { getRedis } from "~/platform/redis.server";
import { loadOrCreateLocalSecret } from "~/platform/local-secret.server";
import { logger } from "~/platform/logger.server";
import type { Database } from "../../../db/schema";
import { CHALLENGE_TTL_SECONDS, type CaptchaVerdict, decodeCaptchaPayload } from "./captcha";

/** Records a spent payload; resolves false when it was already spent (the replay case). */
export interface SpentPayloadStore {
  markSpent(signature: string, expiresAt: Date): Promise<boolean>;
}

/** Replay protection in the `captcha_used` table (embedded mode, or PostgreSQL without Redis). */
export function databaseSpentPayloadStore(db: Kysely<Database>, now = () => new Date()): SpentPayloadStore {
  let lastPrune = 0;
  return {
    async markSpent(signature, expiresAt) {
      const current = now();
      // Expired records can never match a still-valid challenge, so they are pruned at most once a minute.
      if (current.getTime() - lastPrune > 60_000) {
        lastPrune = current.getTime();
        await db.deleteFrom("captcha_used").where("expires_at", "<", current.toISOString()).execute();
      }
      const result = await db
        .insertInto("captcha_used")
        .values({ signature, expires_at: expiresAt.toISOString() })
        .onConflict((oc) => oc.column("signature").doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    },
  };
}

/** Replay protection shared by every app instance (SET NX with the challenge's own expiry). */
export function redisSpentPayloadStore(redis: Redis): SpentPayloadStore {
  return {
    async markSpent(signature, expiresAt) {
      const ttlMs = Math.max(1000, expiresAt.getTime() - Date.now());
      return (await redis.set(`kestrel:captcha-used:${signature}`, "1", "PX", ttlMs, "NX")) === "OK";
    },
  };
}

export interface CaptchaOptions {
  hmacKey: string;
  store: SpentPayloadStore;
  /** Proof-of-work size: the solver tries counters up to a random value in this range. */
  counterRange?: [number, number];
  cost?: number;
}

export interface Captcha {
  issueChallenge(): Promise<Challenge>;
  verifyPayloadOnce(payload: unknown): Promise<CaptchaVerdict>;
}

export function createCaptcha({ hmacKey, store, counterRange = [2_000, 10_000], cost = 2 }: CaptchaOptions): Captcha {
  // A second secret signs the derived key so verification needs no key derivation (altcha deterministic mode).
  const keySignatureSecret = crypto.createHmac("sha256", hmacKey).update("altcha-key-signature").digest("hex");
  return {
    issueChallenge() {
      return createChallenge({
        algorithm: "SHA-256",
        cost,
        counter: randomInt(counterRange[1], counterRange[0]),
        deriveKey,
        expiresAt: Math.floor(Date.now() / 1000) + CHALLENGE_TTL_SECONDS,
        hmacSignatureSecret: hmacKey,
        hmacKeySignatureSecret: keySignatureSecret,
      });
    },
    async verifyPayloadOnce(raw) {
      const payload = decodeCaptchaPayload(raw);
      if (!payload) return { ok: false, reason: "malformed" };
      let result: Awaited<ReturnType<typeof verifySolution>>;
      try {
        result = await verifySolution({
          challenge: payload.challenge,
          solution: payload.solution,
          deriveKey,
          hmacSignatureSecret: hmacKey,
          hmacKeySignatureSecret: keySignatureSecret,
        });
      } catch {
        return { ok: false, reason: "invalid" };
      }
      if (result.expired) return { ok: false, reason: "expired" };
      if (!result.verified) return { ok: false, reason: "invalid" };
      const expiresAt = new Date(
        (payload.challenge.parameters.expiresAt ?? Date.now() / 1000 + CHALLENGE_TTL_SECONDS) * 1000,
      );
      // Only verified payloads are recorded, so garbage cannot fill the store.
      return (await store.markSpent(payload.challenge.signature, expiresAt))
        ? { ok: true }
        : { ok: false, reason: "reused" };
    },
  };
}

/** Redis first (shared by every instance); the database when Redis cannot answer, so buyers are never locked out. */
export function redisWithDatabaseFallback(redis: SpentPayloadStore, database: SpentPayloadStore): SpentPayloadStore {
  return {
    async markSpent(signature, expiresAt) {
      try {
        return await redis.markSpent(signature, expiresAt);
      } catch (error) {
        logger.warn(
          { err: { message: (error as Error).message } },
          "captcha replay store: redis unavailable, using the database",
        );
        return database.markSpent(signature, expiresAt);
      }
    },
  };
}

let shared: Captcha | undefined;

/** The process-wide captcha (our HMAC key; Redis or the database against replays). */
export function getSharedCaptcha(): Captcha {
  if (!shared) {
    const env = getEnv();
    const database = databaseSpentPayloadStore(getDb().db);
    const redis = getRedis();
    shared = createCaptcha({
      hmacKey: env.ALTCHA_HMAC_KEY ?? loadOrCreateLocalSecret("altcha-hmac-key"),
      store: redis ? redisWithDatabaseFallback(redisSpentPayloadStore(redis), database) : database,
    });
  }
  return shared;
}

export function issueChallenge(): Promise<Challenge> {
  return getSharedCaptcha().issueChallenge();
}

export function verifyPayloadOnce(payload: unknown): Promise<CaptchaVerdict> {
  return getSharedCaptcha().verifyPayloadOnce(payload);
}
