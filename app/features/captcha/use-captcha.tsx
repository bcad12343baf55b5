import { useCallback, useEffect, useRef, useState } from "react";
import { solveCaptcha } from "./captcha-solver.client";

export interface CaptchaHandle {
  /** The solved payload (base64), or undefined while the proof of work is still running. */
  payload: string | undefined;
  /** Throws the current payload away and solves a fresh challenge (payloads are single-use). */
  refresh(): void;
  /** Starts over if solving failed (e.g. the challenge could not be fetched); a solve in progress is left alone. */
  retryIfFailed(): void;
}

/** How long before its challenge expires a solved payload is replaced, so a click never sends a stale one. */
const RENEW_BEFORE_EXPIRY_MS = 30_000;

/** Solves `challengeUrl` in a worker as soon as the page is ready, and again after each use or before it expires. */
export function useCaptcha(challengeUrl: string): CaptchaHandle {
  const [generation, setGeneration] = useState(0);
  const [payload, setPayload] = useState<string | undefined>();
  const failed = useRef(false);

  const refresh = useCallback(() => {
    setPayload(undefined);
    setGeneration((g) => g + 1);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new generation is what asks for a fresh challenge
  useEffect(() => {
    const controller = new AbortController();
    let renewTimer: number | undefined;
    failed.current = false;
    solveCaptcha(challengeUrl, controller.signal).then(
      (solved) => {
        if (controller.signal.aborted) return;
        setPayload(solved.payload);
        // A solved challenge expires after 10 minutes on an idle page: solve a new one before the buyer needs it.
        if (solved.expiresAt !== undefined)
          renewTimer = window.setTimeout(
            refresh,
            Math.max(0, solved.expiresAt * 1000 - Date.now() - RENEW_BEFORE_EXPIRY_MS),
          );
      },
      () => {
        if (!controller.signal.aborted) failed.current = true;
      },
    );
    return () => {
      controller.abort();
      window.clearTimeout(renewTimer);
    };
  }, [challengeUrl, generation]);

  const retryIfFailed = useCallback(() => {
    if (failed.current) refresh();
  }, [refresh]);

  return { payload, refresh, retryIfFailed };
}
