import { useRef, useState } from "react";
import { useRouteLoaderData } from "react-router";
import { buttonStyles } from "~/components/ui/button-styles";
import { useCaptcha } from "~/features/captcha/use-captcha";
import type { Duration, Product } from "~/features/content/content";
import { usePrefetchOnIdle } from "~/lib/prefetch-on-idle";
import { CHECKOUT_MESSAGES } from "./checkout";
import { CHECKOUT_CHALLENGE_URL, requestCheckout } from "./checkout-client";

// The dialog (Radix and its scroll lock) is fetched once the page is idle, not with the page's first JavaScript.
const loadCheckoutModal = () => import("./checkout-modal");
type CheckoutModalComponent = Awaited<ReturnType<typeof loadCheckoutModal>>["CheckoutModal"];

export interface PurchaseButtonProps {
  product: Pick<Product, "id" | "name">;
  duration: Pick<Duration, "label" | "variantId">;
  /** Hosted checkout in a modal (default) or a new tab; defaults to the product loader's `checkout.modal`. */
  modal?: boolean;
}

/** CHECKOUT_MODAL as passed by the product loader (`{ checkout: { modal } }`). */
function useCheckoutModalSetting(): boolean {
  const data = useRouteLoaderData("routes/product") as { checkout?: { modal?: boolean } } | undefined;
  return data?.checkout?.modal ?? true;
}

type Phase = { name: "idle" } | { name: "loading" } | { name: "open"; url: string; startedAt: number };

/** `Purchase Now`: solves the captcha in the background, starts one checkout at a time, shows the hosted checkout. */
export function PurchaseButton({ product, duration, modal }: PurchaseButtonProps) {
  const modalSetting = useCheckoutModalSetting();
  const useModal = modal ?? modalSetting;
  const captcha = useCaptcha(CHECKOUT_CHALLENGE_URL);
  const [phase, setPhase] = useState<Phase>({ name: "idle" });
  const running = useRef(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const loading = phase.name === "loading";
  // Mounted from the first opening on, so closing keeps the dialog's exit and focus return.
  const [CheckoutModal, setCheckoutModal] = useState<CheckoutModalComponent | null>(null);

  usePrefetchOnIdle(loadCheckoutModal, useModal);

  async function purchase() {
    // A ref, not state: a second click in the same frame must see the first one.
    if (running.current) return;
    if (duration.variantId === null) return;
    if (!captcha.payload) {
      window.alert(CHECKOUT_MESSAGES.captchaNotReady);
      captcha.retryIfFailed();
      return;
    }
    running.current = true;
    const startedAt = Date.now();
    // A new tab must be opened inside the click, or popup blockers stop it; it is pointed at the checkout later.
    const tab = useModal ? null : window.open("", "_blank");
    setPhase({ name: "loading" });
    // The dialog's code (usually already fetched while the page was idle) loads alongside the checkout request.
    const [outcome, modalModule] = await Promise.all([
      requestCheckout({ productId: product.id, variantId: duration.variantId, altcha: captcha.payload }),
      useModal ? loadCheckoutModal().catch(() => null) : null,
    ]);
    // Every payload is single-use: solve a fresh one for the next attempt.
    captcha.refresh();
    running.current = false;
    if (outcome.kind === "alert") {
      tab?.close();
      setPhase({ name: "idle" });
      window.alert(outcome.message);
      return;
    }
    if (useModal && modalModule) {
      window.scrollTo({ top: 0, behavior: "smooth" });
      setCheckoutModal(() => modalModule.CheckoutModal);
      setPhase({ name: "open", url: outcome.url, startedAt });
      return;
    }
    if (tab) {
      tab.opener = null;
      tab.location.href = outcome.url;
    } else {
      window.open(outcome.url, "_blank", "noopener");
    }
    setPhase({ name: "idle" });
  }

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        onClick={purchase}
        disabled={loading || duration.variantId === null}
        aria-busy={loading}
        data-captcha={captcha.payload ? "ready" : "solving"}
        className={`${buttonStyles.primary} w-full px-6 py-3 text-base`}
      >
        {loading ? (
          <>
            <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-slate-950/30 border-t-slate-950" />
            Processing...
          </>
        ) : (
          "Purchase Now"
        )}
      </button>
      {captcha.widget}
      {CheckoutModal ? (
        <CheckoutModal
          url={phase.name === "open" ? phase.url : undefined}
          startedAt={phase.name === "open" ? phase.startedAt : undefined}
          productName={`${product.name} (${duration.label})`}
          onClose={() => setPhase({ name: "idle" })}
          returnFocusTo={buttonRef}
        />
      ) : null}
    </>
  );
}
