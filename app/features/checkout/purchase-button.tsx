import type { I18n } from "@lingui/core";
import { Trans, useLingui } from "@lingui/react/macro";
import { useEffect, useRef, useState } from "react";
import { Link, useNavigate, useRouteLoaderData } from "react-router";
import { buttonStyles } from "~/components/ui/button-styles";
import { useCaptcha } from "~/features/captcha/use-captcha";
import type { Duration, Product } from "~/features/catalog/catalog.content";
import { useLocale } from "~/features/i18n/use-locale";
import { useEarlyClick } from "~/features/layout/early-clicks";
import { toast } from "~/features/layout/toasts";
import { useOrderWatch } from "~/features/orders/use-order-watch";
import { CHECKOUT_CHALLENGE_URL, loadCheckoutSchemas, requestCheckout } from "./checkout-api";
import { CHECKOUT_MESSAGES } from "./checkout-messages";
import { COUPON_CODE_PATTERN, COUPON_MESSAGES } from "./coupons";

// The dialog (Radix and its scroll lock) is fetched once the page is idle, not with the page's first JavaScript.
const loadCheckoutModal = () => import("./checkout-modal");
// Only a refused checkout needs the alerts' translations: they come when the buyer heads for the button.
const loadCheckoutAlert = () => import("./checkout-alert");

/** Tells the buyer one of our checkout texts (or a reason as it came) in the page's language; as it is if that cannot load. */
function alertBuyer(message: string, i18n: I18n) {
  loadCheckoutAlert().then(
    ({ checkoutAlert }) => window.alert(checkoutAlert(message, i18n)),
    () => window.alert(message),
  );
}
type CheckoutModalComponent = Awaited<ReturnType<typeof loadCheckoutModal>>["CheckoutModal"];

/** What the checkout modal repeats above the shop's page: the volume discount taken off, and the total. */
export interface CheckoutSummary {
  discount?: { percent: number; amount: string };
  total: string;
}

export interface PurchaseButtonProps {
  product: Pick<Product, "id" | "name">;
  duration: Pick<Duration, "label" | "variantId">;
  /** Keys to buy; the server checks it against the product's maximum. */
  quantity?: number;
  /** A coupon code for the shop to apply (blank: none). */
  coupon?: string;
  /** Hosted checkout in a modal (default) or a new tab; defaults to the product loader's `checkout.modal`. */
  modal?: boolean;
  summary?: CheckoutSummary;
}

/** CHECKOUT_MODAL as passed by the product loader (`{ checkout: { modal } }`). */
function useCheckoutModalSetting(): boolean {
  const data = useRouteLoaderData("routes/product") as { checkout?: { modal?: boolean } } | undefined;
  return data?.checkout?.modal ?? true;
}

type Phase =
  | { name: "idle" }
  | { name: "loading" }
  | { name: "open"; url: string; startedAt: number; frameRefused?: boolean };

/** How long a click made before the page was ready waits for the captcha before it gives up. */
const EARLY_CLICK_CAPTCHA_WAIT_MS = 30_000;

export const successPagePath = (orderId: string) => `/purchase/success?order_id=${encodeURIComponent(orderId)}`;

/**
 * While a checkout is open (modal or new tab), watches its order and goes to the success page once it is paid: the
 * shop's notification reaches our server, the page learns of it here, whatever page the shop itself shows.
 */
function usePaymentDetection(orderId: string | null, watching: boolean, onPaid: () => void) {
  const navigate = useNavigate();
  const { path } = useLocale();
  const watch = useOrderWatch(orderId, watching);
  const paid = watching && watch.state === "found" && watch.status === "completed";
  useEffect(() => {
    if (!paid || !orderId) return;
    onPaid();
    navigate(path(successPagePath(orderId)));
  }, [paid, orderId, navigate, onPaid, path]);
}

/** `Purchase Now`: solves the captcha in the background, starts one checkout at a time, shows the hosted checkout. */
export function PurchaseButton({ product, duration, quantity = 1, coupon = "", modal, summary }: PurchaseButtonProps) {
  const { t, i18n } = useLingui();
  const { path, locale } = useLocale();
  const modalSetting = useCheckoutModalSetting();
  const useModal = modal ?? modalSetting;
  const captcha = useCaptcha(CHECKOUT_CHALLENGE_URL);
  const [phase, setPhase] = useState<Phase>({ name: "idle" });
  // The order of the checkout last opened, watched while its modal (or new tab) may still be open.
  const [watchedOrder, setWatchedOrder] = useState<string | null>(null);
  const onPaid = useRef(() => setPhase({ name: "idle" })).current;
  usePaymentDetection(watchedOrder, watchedOrder !== null, onPaid);
  const running = useRef(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  // A click before hydration (modal checkout only: a new tab must open inside the click) runs once the captcha is solved.
  const [earlyClick, earlyClickHandled] = useEarlyClick(useModal ? "purchase" : null);
  const loading = phase.name === "loading" || earlyClick;
  // Mounted from the first opening on, so closing keeps the dialog's exit and focus return.
  const [CheckoutModal, setCheckoutModal] = useState<CheckoutModalComponent | null>(null);

  // The dialog and the answer's schemas load when the buyer heads for the button: on idle they were a long task
  // inside every product page's start-up, for code only a click needs.
  const prefetchCheckout = () => {
    if (useModal) void loadCheckoutModal().catch(() => {});
    void loadCheckoutSchemas().catch(() => {});
    void loadCheckoutAlert().catch(() => {});
  };

  const purchaseRef = useRef<() => Promise<void>>(async () => {});
  useEffect(() => {
    if (!earlyClick) return;
    if (captcha.payload) {
      earlyClickHandled();
      void purchaseRef.current();
      return;
    }
    // The captcha usually takes a second or two; if it cannot be solved, say so as a click on a ready page would.
    const timer = window.setTimeout(() => {
      earlyClickHandled();
      alertBuyer(CHECKOUT_MESSAGES.captchaNotReady, i18n);
    }, EARLY_CLICK_CAPTCHA_WAIT_MS);
    return () => window.clearTimeout(timer);
  }, [earlyClick, earlyClickHandled, captcha.payload, i18n]);

  async function purchase() {
    // A ref, not state: a second click in the same frame must see the first one.
    if (running.current) return;
    if (duration.variantId === null) return;
    const couponCode = coupon.trim();
    // Checked here too, so a typo does not spend the solved captcha.
    if (couponCode && !COUPON_CODE_PATTERN.test(couponCode)) {
      alertBuyer(COUPON_MESSAGES.malformed, i18n);
      return;
    }
    if (!captcha.payload) {
      alertBuyer(CHECKOUT_MESSAGES.captchaNotReady, i18n);
      captcha.retryIfFailed();
      return;
    }
    running.current = true;
    const startedAt = Date.now();
    // A new tab must be opened inside the click, or popup blockers stop it; it is pointed at the checkout later.
    const tab = useModal ? null : window.open("", "_blank");
    setPhase({ name: "loading" });
    // The dialog's code (usually already fetched when the pointer or focus reached the button) loads alongside the request.
    const [outcome, modalModule] = await Promise.all([
      requestCheckout({
        productId: product.id,
        variantId: duration.variantId,
        quantity,
        coupon: couponCode || undefined,
        altcha: captcha.payload,
        locale,
      }),
      useModal ? loadCheckoutModal().catch(() => null) : null,
    ]);
    // Every payload is single-use: solve a fresh one for the next attempt.
    captcha.refresh();
    running.current = false;
    if (outcome.kind === "alert") {
      tab?.close();
      setPhase({ name: "idle" });
      alertBuyer(outcome.message, i18n);
      return;
    }
    if (useModal && modalModule) {
      window.scrollTo({ top: 0, behavior: "smooth" });
      setCheckoutModal(() => modalModule.CheckoutModal);
      setPhase({ name: "open", url: outcome.url, startedAt, frameRefused: outcome.frameRefused });
      setWatchedOrder(outcome.orderId ?? null);
      return;
    }
    if (tab) {
      tab.opener = null;
      tab.location.href = outcome.url;
    } else {
      window.open(outcome.url, "_blank", "noopener");
    }
    setWatchedOrder(outcome.orderId ?? null);
    setPhase({ name: "idle" });
  }

  purchaseRef.current = purchase;

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        data-early-click={useModal ? "purchase" : undefined}
        onClick={purchase}
        onPointerEnter={prefetchCheckout}
        onFocus={prefetchCheckout}
        onTouchStart={prefetchCheckout}
        disabled={loading || duration.variantId === null}
        aria-busy={loading}
        data-captcha={captcha.payload ? "ready" : "solving"}
        className={`${buttonStyles.primary} w-full px-6 py-3 text-base`}
      >
        {loading ? (
          <>
            <span
              aria-hidden="true"
              className="size-4 animate-spin rounded-full border-2 border-on-accent/30 border-t-on-accent"
            />
            <Trans comment="On the purchase button while the checkout is being prepared">Processing...</Trans>
          </>
        ) : (
          <Trans>Purchase Now</Trans>
        )}
      </button>
      {CheckoutModal ? (
        <CheckoutModal
          url={phase.name === "open" ? phase.url : undefined}
          startedAt={phase.name === "open" ? phase.startedAt : undefined}
          productName={`${product.name} (${duration.label})`}
          summary={summary}
          frameRefused={phase.name === "open" ? phase.frameRefused : undefined}
          onClose={() => {
            setPhase({ name: "idle" });
            if (watchedOrder)
              showPaymentInProgress(watchedOrder, {
                // Word for word in English, pinned by tests/e2e/checkout.spec.ts.
                title: t`Payment in progress — we will show your order here`,
                link: t`View your order`,
                href: path(successPagePath(watchedOrder)),
              });
            setWatchedOrder(null);
          }}
          returnFocusTo={buttonRef}
        />
      ) : null}
    </>
  );
}

/** Closing an unpaid checkout: the payment may still arrive, and the success page keeps watching for it. */
function showPaymentInProgress(orderId: string, text: { title: string; link: string; href: string }) {
  toast.success(text.title, {
    id: `payment-in-progress-${orderId}`,
    duration: 15_000,
    description: (
      <Link to={text.href} className="font-semibold underline">
        {text.link}
      </Link>
    ),
  });
}
