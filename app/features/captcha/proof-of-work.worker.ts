// The proof of work, off the page's main thread. altcha-lib's own workers derive keys with node:crypto; these are its
// WebCrypto derivations, behind the same message protocol `solveChallengeWorkers` speaks.
import type { ChallengeParameters } from "altcha-lib";
import { deriveKey as derivePbkdf2Key } from "altcha-lib/algorithms/web/pbkdf2";
import { deriveKey as deriveShaKey } from "altcha-lib/algorithms/web/sha";
import { handler } from "altcha-lib/workers/shared";

handler({
  deriveKey: (parameters: ChallengeParameters, salt: Uint8Array, password: Uint8Array) =>
    parameters.algorithm.startsWith("PBKDF2/")
      ? derivePbkdf2Key(parameters, salt, password)
      : deriveShaKey(parameters, salt, password),
});
