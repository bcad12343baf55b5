import type { Challenge, Solution } from "altcha-lib";
import type { Challenge as ChallengeV1, Solution as SolutionV1 } from "altcha-lib/v1/types";

/** An ALTCHA v1 challenge (`{algorithm, challenge, salt, signature, maxnumber}`), which a shop may still issue. */
export function isV1Challenge(value: unknown): value is ChallengeV1 {
  const challenge = value as Partial<ChallengeV1> | null;
  return (
    typeof challenge?.challenge === "string" &&
    typeof challenge.salt === "string" &&
    typeof challenge.signature === "string" &&
    /^SHA-(1|256|512)$/.test(String(challenge.algorithm))
  );
}

/** An ALTCHA v2 challenge (`{parameters, signature}`) with an algorithm this page has a worker for. */
export function isV2Challenge(value: unknown): value is Challenge {
  const challenge = value as Partial<Challenge> | null;
  return (
    typeof challenge?.signature === "string" &&
    /^(SHA-(256|384|512)|PBKDF2\/SHA-(256|384|512))$/.test(String(challenge.parameters?.algorithm))
  );
}

const base64Json = (value: unknown) => btoa(JSON.stringify(value));

/** What the widget sent for a solved v2 challenge: base64 JSON `{challenge: {parameters, signature}, solution}`. */
export function v2Payload(challenge: Challenge, solution: Solution): string {
  return base64Json({ challenge: { parameters: challenge.parameters, signature: challenge.signature }, solution });
}

/** What the widget sent for a solved v1 challenge: base64 JSON `{algorithm, challenge, number, salt, signature, took}`. */
export function v1Payload(challenge: ChallengeV1, solution: SolutionV1): string {
  const { algorithm, challenge: hash, salt, signature } = challenge;
  return base64Json({ algorithm, challenge: hash, number: solution.number, salt, signature, took: solution.took });
}
