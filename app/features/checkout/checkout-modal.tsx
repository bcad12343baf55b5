import * as Dialog from "@radix-ui/react-dialog";
import { useEffect, useState } from "react";
import { CHECKOUT_REMINDER_DELAY_MS, CHECKOUT_REMINDER_SOUND } from "./checkout-client";

declare global {
  // Read by get-nonce, which Radix's scroll lock uses to stamp its <style> element (CSP: style-src carries the nonce).
  var __webpack_nonce__: string | undefined;
}

/** Hands the page's CSP nonce (as stamped on our scripts) to the dialog's scroll-lock style element. */
function shareStyleNonce() {
  if (globalThis.__webpack_nonce__) return;
  const nonce = document.querySelector<HTMLScriptElement>("script[nonce]")?.nonce;
  if (nonce) globalThis.__webpack_nonce__ = nonce;
}

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

/** The hosted checkout page, with a loading note until its first paint (a remote shop can take a moment). */
function CheckoutFrame({ url, title }: { url: string; title: string }) {
  const [loaded, setLoaded] = useState(false);
  return (
    <div className="relative flex flex-1">
      {loaded ? null : (
        <p role="status" className="absolute inset-0 flex items-center justify-center gap-3 text-slate-300">
          <span aria-hidden="true" className="size-5 animate-spin rounded-full border-2 border-sky-400/30 border-t-sky-400" />
          Loading secure checkout...
        </p>
      )}
      {/* biome-ignore lint/a11y/noNoninteractiveElementInteractions: `load` is the frame's own event, not a user interaction */}
      <iframe src={url} title={title} allow="payment; clipboard-write" onLoad={() => setLoaded(true)} className="w-full flex-1 border-0 bg-slate-950" />
    </div>
  );
}

export interface CheckoutModalProps {
  /** The hosted checkout page; the modal is open while this is set. */
  url: string | undefined;
  productName: string;
  /** When the buyer pressed Purchase Now (Date.now()), for the reminder sound. */
  startedAt: number | undefined;
  onClose(): void;
  /** Where focus goes back to when the modal closes (the Purchase Now button). */
  returnFocusTo: React.RefObject<HTMLElement | null>;
}

export function CheckoutModal({ url, productName, startedAt, onClose, returnFocusTo }: CheckoutModalProps) {
  const open = url !== undefined;
  if (open && typeof document !== "undefined") shareStyleNonce();
  useCheckoutReminder(open, startedAt);
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-950/80 backdrop-blur-sm" />
        <Dialog.Content
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusTo.current?.focus();
          }}
          className="fixed top-1/2 left-1/2 z-50 flex h-[min(44rem,calc(100dvh-2rem))] w-[min(34rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 flex-col overflow-hidden rounded-2xl border border-white/10 bg-slate-950 shadow-2xl shadow-black/60 focus:outline-none"
        >
          <div className="flex items-center justify-between gap-4 border-b border-white/10 px-4 py-3">
            <Dialog.Title className="truncate text-base font-semibold text-slate-100">Checkout: {productName}</Dialog.Title>
            <Dialog.Close
              aria-label="Close checkout"
              className="rounded-md p-1.5 text-slate-300 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-sky-300"
            >
              <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5" fill="currentColor">
                <path d="M5.3 5.3a1 1 0 0 1 1.4 0L10 8.6l3.3-3.3a1 1 0 1 1 1.4 1.4L11.4 10l3.3 3.3a1 1 0 0 1-1.4 1.4L10 11.4l-3.3 3.3a1 1 0 0 1-1.4-1.4L8.6 10 5.3 6.7a1 1 0 0 1 0-1.4Z" />
              </svg>
            </Dialog.Close>
          </div>
          {url ? <CheckoutFrame key={url} url={url} title={`Secure checkout for ${productName}`} /> : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
