import { solveChallengeWorkers } from "altcha-lib";
import { solveChallenge as solveV1Challenge } from "altcha-lib/v1";
import { isV1Challenge, isV2Challenge, v1Payload, v2Payload } from "./captcha-payload";
import ProofOfWorkWorker from "./proof-of-work.worker?worker";

/** Where our own server issues proof-of-work challenges for the support chat. */
export const CAPTCHA_CHALLENGE_URL = "/api/captcha/challenge";

export interface SolvedCaptcha {
  /** What the server verifies, once (the payload the ALTCHA widget would send). */
  payload: string;
  /** When the challenge stops being accepted (seconds since the epoch), if it says. */
  expiresAt?: number;
}

/**
 * Fetches a challenge from `challengeUrl` and solves it off the page's main thread: in a worker for ALTCHA v2 (our
 * server's SHA-256, or PBKDF2; `proof-of-work.worker.ts`), with WebCrypto for a v1 challenge a shop may issue. No
 * widget markup, stylesheet or ~80 KB widget script. Rejects when the challenge cannot be fetched or solved, or when `signal` aborts.
 */
export async function solveCaptcha(challengeUrl = CAPTCHA_CHALLENGE_URL, signal?: AbortSignal): Promise<SolvedCaptcha> {
  const response = await fetch(challengeUrl, { cache: "no-store", signal });
  if (!response.ok) throw new Error(`Captcha challenge answered ${response.status}`);
  const challenge: unknown = await response.json();
  const controller = new AbortController();
  signal?.addEventListener("abort", () => controller.abort(), { once: true });
  if (isV2Challenge(challenge)) {
    const { expiresAt } = challenge.parameters;
    const solution = await solveChallengeWorkers({
      challenge,
      concurrency: 1,
      controller,
      createWorker: () => new ProofOfWorkWorker(),
    });
    if (!solution)
      throw new Error(signal?.aborted ? "Captcha solving was cancelled" : "Captcha challenge has no solution");
    return {
      payload: v2Payload(challenge, solution),
      expiresAt: typeof expiresAt === "number" ? expiresAt : undefined,
    };
  }
  if (isV1Challenge(challenge)) {
    const solving = solveV1Challenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber);
    controller.signal.addEventListener("abort", () => solving.controller.abort(), { once: true });
    const solution = await solving.promise;
    if (!solution)
      throw new Error(signal?.aborted ? "Captcha solving was cancelled" : "Captcha challenge has no solution");
    return { payload: v1Payload(challenge, solution) };
  }
  throw new Error("Captcha challenge is not one this page can solve");
}
