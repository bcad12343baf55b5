import { Trans, useLingui } from "@lingui/react/macro";
import * as Dialog from "@radix-ui/react-dialog";
import { useCallback, useEffect, useState } from "react";
import { XMarkIcon } from "~/components/icons";
import { shareStyleNonce } from "~/components/ui/style-nonce";
import { CHECKOUT_REMINDER_DELAY_MS, CHECKOUT_REMINDER_SOUND } from "./checkout-api";

/** Plays the reminder chime once, 13 s after the checkout started, if the modal is still open then. */
function useCheckoutReminder(open: boolean, startedAt: number | undefined) {
  useEffect(() => {
    if (!open || startedAt === undefined) return;
    let audio: HTMLAudioElement | undefined;
    const timer = window.setTimeout(
      () => {
        audio = new Audio(CHECKOUT_REMINDER_SOUND);
        audio.volume = 0.6;
        // Browsers may refuse autoplay; the reminder is a nicety, never an error.
        audio.play().catch(() => {});
      },
      Math.max(0, startedAt + CHECKOUT_REMINDER_DELAY_MS - Date.now()),
    );
    return () => {
      window.clearTimeout(timer);
      audio?.pause();
    };
  }, [open, startedAt]);
}

/** How long a framed checkout may take to load before the buyer is offered a new tab instead. */
export const CHECKOUT_FRAME_TIMEOUT_MS = 15_000;

/** Whether a CSP report is about this frame (the browser reports the blocked URL, or only its origin). */
function isAboutFrame(event: SecurityPolicyViolationEvent, url: string): boolean {
  if (!event.effectiveDirective.startsWith("frame-src") && !event.violatedDirective.startsWith("frame-src"))
    return false;
  try {
    return new URL(event.blockedURI, window.location.href).origin === new URL(url, window.location.href).origin;
  } catch {
    return false;
  }
}

/**
 * The hosted checkout page, with a loading note until its first paint (a remote shop can take a moment). A page our
 * CSP blocks, one the shop says refuses framing, or one not loaded within 15 s is replaced by a real link to a new tab.
 */
function CheckoutFrame({
  url,
  title,
  refused,
  onFailed,
}: {
  url: string;
  title: string;
  refused: boolean;
  onFailed(): void;
}) {
  const [state, setState] = useState<"loading" | "loaded" | "failed">(refused ? "failed" : "loading");

  useEffect(() => {
    if (refused) return;
    const fail = () => {
      setState("failed");
      onFailed();
    };
    const onViolation = (event: SecurityPolicyViolationEvent) => {
      if (isAboutFrame(event, url)) fail();
    };
    document.addEventListener("securitypolicyviolation", onViolation);
    const timer = window.setTimeout(
      () => setState((current) => (current === "loading" ? "failed" : current)),
      CHECKOUT_FRAME_TIMEOUT_MS,
    );
    return () => {
      document.removeEventListener("securitypolicyviolation", onViolation);
      window.clearTimeout(timer);
    };
  }, [url, refused, onFailed]);

  useEffect(() => {
    if (state === "failed") onFailed();
  }, [state, onFailed]);

  if (state === "failed") {
    return (
      <div role="alert" className="flex flex-1 flex-col items-center justify-center gap-4 px-6 text-center">
        {/* The fallback's text, word for word in English, is pinned by tests/e2e/checkout.spec.ts. */}
        <p className="text-foreground">
          <Trans>The secure checkout could not be shown here.</Trans>
        </p>
        <a
          href={url}
          target="_blank"
          rel="noopener"
          className="rounded-lg bg-accent px-5 py-3 font-semibold text-on-accent hover:bg-accent-hover focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus"
        >
          <Trans>Open checkout in a new tab</Trans>
        </a>
        <p className="text-sm text-soft">
          <Trans>Keep this page open: it shows your order as soon as the payment is confirmed.</Trans>
        </p>
      </div>
    );
  }
  return (
    <div className="relative flex flex-1">
      {state === "loaded" ? null : (
        <p role="status" className="absolute inset-0 flex items-center justify-center gap-3 text-soft">
          <span
            aria-hidden="true"
            className="size-5 animate-spin rounded-full border-2 border-accent/30 border-t-accent"
          />
          <Trans>Loading secure checkout...</Trans>
        </p>
      )}
      {/* biome-ignore lint/a11y/noNoninteractiveElementInteractions: `load` is the frame's own event, not a user interaction */}
      <iframe
        src={url}
        title={title}
        allow="payment; clipboard-write"
        onLoad={() => setState((current) => (current === "loading" ? "loaded" : current))}
        className="w-full flex-1 border-0 bg-background"
      />
    </div>
  );
}

export interface CheckoutModalProps {
  /** The hosted checkout page; the modal is open while this is set. */
  url: string | undefined;
  /** The shop's page is known to refuse being framed: offer the new tab straight away. */
  frameRefused?: boolean;
  productName: string;
  /** When the buyer pressed Purchase Now (Date.now()), for the reminder sound. */
  startedAt: number | undefined;
  onClose(): void;
  /** Where focus goes back to when the modal closes (the Purchase Now button). */
  returnFocusTo: React.RefObject<HTMLElement | null>;
  /** The volume discount the page took off, repeated as a line above the shop's page. */
  summary?: { discount?: { percent: number; amount: string }; total: string };
}

export function CheckoutModal({
  url,
  frameRefused = false,
  productName,
  startedAt,
  onClose,
  returnFocusTo,
  summary,
}: CheckoutModalProps) {
  const { t, i18n } = useLingui();
  const open = url !== undefined;
  if (open && typeof document !== "undefined") shareStyleNonce();
  const [failedUrl, setFailedUrl] = useState<string | undefined>(undefined);
  const frameFailed = url !== undefined && failedUrl === url;
  const onFrameFailed = useCallback(() => setFailedUrl(url), [url]);
  // A chime over an error message would call the buyer back to a checkout that is not there.
  useCheckoutReminder(open && !frameFailed, startedAt);
  const off = summary?.discount
    ? i18n.number(summary.discount.percent / 100, { style: "percent", maximumFractionDigits: 2 })
    : "";
  const amount = summary?.discount?.amount ?? "";
  const total = summary?.total ?? "";
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-background/80 backdrop-blur-sm" />
        <Dialog.Content
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusTo.current?.focus();
          }}
          className="fixed top-1/2 left-1/2 z-50 flex h-[min(44rem,calc(100dvh-2rem))] w-[min(34rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-2xl border border-foreground/10 bg-background shadow-2xl shadow-shadow/60 focus:outline-none"
        >
          <div className="flex items-center justify-between gap-4 border-b border-foreground/10 px-4 py-3">
            <Dialog.Title className="truncate text-base font-semibold text-foreground">
              <Trans comment="Title of the checkout dialog, then the product and its licence">
                Checkout: {productName}
              </Trans>
            </Dialog.Title>
            <Dialog.Close
              aria-label={t`Close checkout`}
              className="rounded-md p-1.5 text-soft hover:bg-foreground/10 hover:text-foreground focus-visible:outline-2 focus-visible:outline-focus"
            >
              <XMarkIcon className="size-5" />
            </Dialog.Close>
          </div>
          {summary?.discount ? (
            <p
              data-testid="checkout-discount-line"
              className="flex justify-between gap-4 border-b border-foreground/10 px-4 py-2 text-sm text-soft"
            >
              <span className="font-medium text-success-soft">
                <Trans comment="In the checkout dialog: the volume discount taken off; {off} is a percentage, {amount} money">
                  Volume discount ({off} off): −{amount}
                </Trans>
              </span>
              <span className="tabular-nums">
                <Trans comment="In the checkout dialog: the total the shop charges">Total: {total}</Trans>
              </span>
            </p>
          ) : null}
          {url ? (
            <CheckoutFrame
              key={url}
              url={url}
              refused={frameRefused}
              onFailed={onFrameFailed}
              title={t({
                message: `Secure checkout for ${productName}`,
                comment: "Names the frame that holds the shop's checkout page",
              })}
            />
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
