import type {} from "altcha/types/react";
import { useCallback, useEffect, useRef, useState } from "react";
import { loadCaptchaWidget } from "./captcha-widget.client";

export interface CaptchaHandle {
  /** The solved payload (base64), or undefined while the proof of work is still running. */
  payload: string | undefined;
  /** Throws the current payload away and solves a fresh challenge (payloads are single-use). */
  refresh(): void;
  /** Starts over if solving failed (e.g. the challenge could not be fetched); a solve in progress is left alone. */
  retryIfFailed(): void;
  /** The hidden widget; render it once, anywhere on the page. */
  widget: React.ReactNode;
}

/** A hidden ALTCHA widget that solves `challengeUrl` as soon as the page is open; the script loads only here. */
export function useCaptcha(challengeUrl: string): CaptchaHandle {
  const [loaded, setLoaded] = useState(false);
  const [generation, setGeneration] = useState(0);
  const [payload, setPayload] = useState<string | undefined>();
  const widgetRef = useRef<HTMLElement | null>(null);
  const lastState = useRef<string | undefined>(undefined);

  useEffect(() => {
    let active = true;
    loadCaptchaWidget()
      .then(() => active && setLoaded(true))
      .catch(() => {
        // Without the widget the button says "Captcha not ready"; nothing else to do.
      });
    return () => {
      active = false;
    };
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new generation mounts a new widget element to listen to
  useEffect(() => {
    const widget = widgetRef.current;
    if (!loaded || !widget) return;
    const onStateChange = (event: Event) => {
      const detail = (event as CustomEvent<{ state?: string; payload?: string }>).detail;
      setPayload(detail?.state === "verified" && detail.payload ? detail.payload : undefined);
      lastState.current = detail?.state;
      // A solved challenge expires after 10 minutes on an idle page: solve a new one before the buyer needs it.
      if (detail?.state === "expired") setGeneration((g) => g + 1);
    };
    widget.addEventListener("statechange", onStateChange);
    return () => widget.removeEventListener("statechange", onStateChange);
  }, [loaded, generation]);

  const refresh = useCallback(() => {
    lastState.current = undefined;
    setPayload(undefined);
    setGeneration((g) => g + 1);
  }, []);

  // After a failure the widget reports "error" and then falls back to "unverified"; both mean nothing is running.
  const retryIfFailed = useCallback(() => {
    if (lastState.current === "error" || lastState.current === "unverified") refresh();
  }, [refresh]);

  const widget = loaded ? (
    <div hidden key={generation}>
      <altcha-widget ref={widgetRef} challenge={challengeUrl} auto="onload" display="invisible" name="altcha" />
    </div>
  ) : null;

  return { payload, refresh, retryIfFailed, widget };
}
