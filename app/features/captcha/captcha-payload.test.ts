import { solveChallenge } from "altcha-lib";
import { deriveKey } from "altcha-lib/algorithms/sha";
import {
  createChallenge as createV1Challenge,
  solveChallenge as solveV1Challenge,
  verifySolution as verifyV1Solution,
} from "altcha-lib/v1";
import { describe, expect, it } from "vitest";
import { isV1Challenge, isV2Challenge, v1Payload, v2Payload } from "./captcha-payload";
import { createCaptcha } from "./captcha.server";

describe("captcha payloads built in the page", () => {
  it("a solved v2 challenge of our server is accepted once, as the widget's payload was", async () => {
    const spent = new Set<string>();
    const captcha = createCaptcha({
      hmacKey: "test-key",
      counterRange: [50, 200],
      store: { markSpent: async (signature) => !spent.has(signature) && Boolean(spent.add(signature)) },
    });
    const challenge = await captcha.issueChallenge();
    expect(isV2Challenge(challenge)).toBe(true);
    expect(isV1Challenge(challenge)).toBe(false);
    const solution = await solveChallenge({ challenge, deriveKey });
    if (!solution) throw new Error("no solution");
    const payload = v2Payload(challenge, solution);
    expect(await captcha.verifyPayloadOnce(payload)).toEqual({ ok: true });
    expect(await captcha.verifyPayloadOnce(payload)).toEqual({ ok: false, reason: "reused" });
  });

  it("a solved v1 challenge (a shop's) verifies with ALTCHA v1", async () => {
    const challenge = await createV1Challenge({ hmacKey: "shop-key", maxnumber: 500 });
    expect(isV1Challenge(challenge)).toBe(true);
    expect(isV2Challenge(challenge)).toBe(false);
    const solution = await solveV1Challenge(
      challenge.challenge,
      challenge.salt,
      challenge.algorithm,
      challenge.maxnumber,
    ).promise;
    if (!solution) throw new Error("no solution");
    expect(await verifyV1Solution(v1Payload(challenge, solution), "shop-key")).toBe(true);
  });

  it("anything else is no challenge this page can solve", () => {
    for (const value of [
      null,
      {},
      "x",
      { parameters: { algorithm: "ARGON2ID" }, signature: "s" },
      { challenge: "c", salt: "s", signature: "x", algorithm: "MD5" },
    ]) {
      expect(isV2Challenge(value) || isV1Challenge(value)).toBe(false);
    }
  });
});
