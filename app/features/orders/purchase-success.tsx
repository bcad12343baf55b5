import { Link } from "react-router";
import { CheckIcon, ExclamationCircleIcon } from "~/components/icons";
import { buttonStyles } from "~/components/ui/button-styles";
import { openSupportChat } from "~/features/support-chat/open-support-chat";
import { useOrderVerification, type Verification } from "./use-order-verification";

export interface PurchaseSuccessProps {
  orderId: string | null;
  productName: string | null;
  /** The ordered product, for the way back after a payment that did not complete. */
  productId?: number | null;
}

export function VerifyingPurchase() {
  return (
    <div role="status" className="flex flex-col items-center gap-4 py-10">
      <span
        aria-hidden="true"
        className="size-10 animate-spin rounded-full border-4 border-sky-400/30 border-t-sky-400"
      />
      <p className="text-slate-200">Verifying your purchase...</p>
    </div>
  );
}

export function PurchaseCompleted({ orderId, productName }: PurchaseSuccessProps) {
  return (
    <div className="flex flex-col items-center text-center">
      <span
        aria-hidden="true"
        className="flex size-16 items-center justify-center rounded-full bg-emerald-500/15 text-emerald-300 ring-1 ring-emerald-400/40"
      >
        <CheckIcon className="size-8" />
      </span>
      <h1 className="mt-6 text-3xl font-bold tracking-tight text-white sm:text-4xl">Thank you for your purchase!</h1>
      <p className="mt-3 max-w-lg text-slate-300">
        {productName ? `Your ${productName} licence` : "Your licence"} is on its way: the key and download instructions
        are on the checkout receipt and in your email.
      </p>
      <dl className="mt-8 grid w-full max-w-md gap-3 rounded-2xl border border-white/10 bg-slate-900/60 p-5 text-left text-sm">
        {orderId ? (
          <div className="flex justify-between gap-4">
            <dt className="text-slate-300">Order number</dt>
            <dd className="break-all font-mono text-white">{orderId}</dd>
          </div>
        ) : null}
        <div className="flex justify-between gap-4">
          <dt className="text-slate-300">Status</dt>
          <dd className="font-semibold text-emerald-300">Completed</dd>
        </div>
      </dl>
      <div className="mt-8 flex flex-col gap-3 sm:flex-row">
        <Link to="/products" className={buttonStyles.secondary}>
          Continue Shopping
        </Link>
        <Link to="/downloads" className={buttonStyles.primary}>
          Go to Downloads
        </Link>
      </div>
    </div>
  );
}

type NotCompletedState = "waiting" | "confirming" | "not-found" | "failed" | "refunded" | "unverified";

const NOT_COMPLETED_COPY: Record<NotCompletedState, { title: string; body: string }> = {
  waiting: {
    title: "Waiting for payment confirmation",
    body: "The shop has not confirmed your payment yet. What happens next: as soon as it does, this page shows your order as Completed, and the key and download instructions arrive by email. This usually takes a few minutes; this page keeps checking, so you can leave it open.",
  },
  confirming: {
    title: "Waiting for payment confirmation",
    body: "The shop has received your payment and is waiting for the network to confirm it (cryptocurrency payments can take a while). What happens next: once it is confirmed, this page shows your order as Completed, and the key and download instructions arrive by email.",
  },
  "not-found": {
    title: "Order not found",
    body: "We could not find this order. If you have paid, contact support with the receipt from the checkout.",
  },
  failed: {
    title: "Payment not completed",
    body: "The shop reports that this payment was not completed (it failed, was cancelled or expired). No licence was issued. You can try again from the product page, or contact support if you were charged.",
  },
  refunded: {
    title: "Refunded",
    body: "This order was refunded, so its licence is no longer valid. Contact support if you have a question about the refund.",
  },
  unverified: {
    title: "We could not verify your order",
    body: "Checking your order failed. Please contact support with your order number.",
  },
};

/** Every outcome other than completed: what happened, the order number, and a way to reach support (or back to the product). */
export function PurchaseNotCompleted({
  state,
  orderId,
  productId,
}: {
  state: NotCompletedState;
  orderId: string | null;
  productId?: number | null;
}) {
  const copy = NOT_COMPLETED_COPY[state];
  const waiting = state === "waiting" || state === "confirming";
  return (
    <div className="flex flex-col items-center text-center">
      {waiting ? (
        <span
          aria-hidden="true"
          className="size-16 animate-spin rounded-full border-4 border-sky-400/30 border-t-sky-400"
        />
      ) : (
        <span
          aria-hidden="true"
          className="flex size-16 items-center justify-center rounded-full bg-amber-500/15 text-amber-300 ring-1 ring-amber-400/40"
        >
          <ExclamationCircleIcon className="size-8" />
        </span>
      )}
      <div role="status" className="contents">
        <h1 className="mt-6 text-3xl font-bold tracking-tight text-white sm:text-4xl">{copy.title}</h1>
        <p className="mt-3 max-w-lg text-slate-300">{copy.body}</p>
      </div>
      {orderId ? (
        <p className="mt-6 text-sm text-slate-300">
          Order number <span className="break-all font-mono text-white">{orderId}</span>
        </p>
      ) : null}
      <div className="mt-8 flex flex-col gap-3 sm:flex-row">
        {state === "failed" ? (
          <Link to={productId ? `/product/${productId}` : "/products"} className={buttonStyles.primary}>
            Back to the product
          </Link>
        ) : null}
        <button
          type="button"
          onClick={openSupportChat}
          className={state === "failed" ? buttonStyles.secondary : buttonStyles.primary}
        >
          Contact Support
        </button>
        <Link to="/products" className={buttonStyles.secondary}>
          Continue Shopping
        </Link>
      </div>
    </div>
  );
}

function VerificationView({ verification, props }: { verification: Verification; props: PurchaseSuccessProps }) {
  switch (verification.state) {
    case "verifying":
      return (
        <>
          <h1 className="sr-only">Verifying your purchase</h1>
          <VerifyingPurchase />
        </>
      );
    case "completed":
      return <PurchaseCompleted {...props} />;
    case "waiting":
      return (
        <PurchaseNotCompleted state={verification.confirming ? "confirming" : "waiting"} orderId={props.orderId} />
      );
    default:
      return <PurchaseNotCompleted state={verification.state} orderId={props.orderId} productId={props.productId} />;
  }
}

export function PurchaseSuccess(props: PurchaseSuccessProps) {
  const verification = useOrderVerification(props.orderId);
  return (
    <div className="mx-auto max-w-2xl px-4 py-16 sm:py-24" aria-busy={verification.state === "verifying"}>
      <VerificationView verification={verification} props={props} />
    </div>
  );
}
