import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "react-router";
import { CheckIcon, ExclamationCircleIcon } from "~/components/icons";
import { buttonStyles } from "~/components/ui/button-styles";
import { useLocale } from "~/features/i18n/use-locale";
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
        className="size-10 animate-spin rounded-full border-4 border-accent/30 border-t-accent"
      />
      <p className="text-foreground">
        <Trans>Verifying your purchase...</Trans>
      </p>
    </div>
  );
}

export function PurchaseCompleted({ orderId, productName }: PurchaseSuccessProps) {
  const { path } = useLocale();
  return (
    <div className="flex flex-col items-center text-center">
      <span
        aria-hidden="true"
        className="flex size-16 items-center justify-center rounded-full bg-success/15 text-success-soft ring-1 ring-success/40"
      >
        <CheckIcon className="size-8" />
      </span>
      <h1 className="mt-6 text-3xl font-bold tracking-tight text-foreground sm:text-4xl">
        <Trans>Thank you for your purchase!</Trans>
      </h1>
      <p className="mt-3 max-w-lg text-soft">
        {productName ? (
          <Trans>
            Your {productName} licence is on its way: the key and download instructions are on the checkout receipt and
            in your email.
          </Trans>
        ) : (
          <Trans>
            Your licence is on its way: the key and download instructions are on the checkout receipt and in your email.
          </Trans>
        )}
      </p>
      <dl className="mt-8 grid w-full max-w-md gap-3 rounded-2xl border border-foreground/10 bg-surface/60 p-5 text-left text-sm">
        {orderId ? (
          <div className="flex justify-between gap-4">
            <dt className="text-soft">
              <Trans>Order number</Trans>
            </dt>
            <dd className="break-all font-mono text-foreground">{orderId}</dd>
          </div>
        ) : null}
        <div className="flex justify-between gap-4">
          <dt className="text-soft">
            <Trans comment="Label of the order's status (the value is Completed)">Status</Trans>
          </dt>
          <dd className="font-semibold text-success-soft">
            <Trans comment="An order's status: paid, the licence issued">Completed</Trans>
          </dd>
        </div>
      </dl>
      <div className="mt-8 flex flex-col gap-3 sm:flex-row">
        <Link to={path("/products")} className={buttonStyles.secondary}>
          <Trans>Continue Shopping</Trans>
        </Link>
        <Link to={path("/downloads")} className={buttonStyles.primary}>
          <Trans>Go to Downloads</Trans>
        </Link>
      </div>
      <p className="mt-6 text-sm text-soft">
        <Trans>
          Every order of your email address, with its keys:{" "}
          <Link to={path("/orders")} className="text-link underline">
            Your orders
          </Link>
        </Trans>
      </p>
    </div>
  );
}

type NotCompletedState = "waiting" | "confirming" | "not-found" | "failed" | "refunded" | "unverified";

const WAITING_TITLE = msg`Waiting for payment confirmation`;

const NOT_COMPLETED_COPY: Record<NotCompletedState, { title: MessageDescriptor; body: MessageDescriptor }> = {
  waiting: {
    title: WAITING_TITLE,
    body: msg`The shop has not confirmed your payment yet. What happens next: as soon as it does, this page shows your order as Completed, and the key and download instructions arrive by email. This usually takes a few minutes; this page keeps checking, so you can leave it open.`,
  },
  confirming: {
    title: WAITING_TITLE,
    body: msg`The shop has received your payment and is waiting for the network to confirm it (cryptocurrency payments can take a while). What happens next: once it is confirmed, this page shows your order as Completed, and the key and download instructions arrive by email.`,
  },
  "not-found": {
    title: msg`Order not found`,
    body: msg`We could not find this order. If you have paid, contact support with the receipt from the checkout.`,
  },
  failed: {
    title: msg`Payment not completed`,
    body: msg`The shop reports that this payment was not completed (it failed, was cancelled or expired). No licence was issued. You can try again from the product page, or contact support if you were charged.`,
  },
  refunded: {
    title: msg({ message: "Refunded", comment: "Heading of the page for an order whose payment was given back" }),
    body: msg`This order was refunded, so its licence is no longer valid. Contact support if you have a question about the refund.`,
  },
  unverified: {
    title: msg`We could not verify your order`,
    body: msg`Checking your order failed. Please contact support with your order number.`,
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
  const { i18n } = useLingui();
  const { path } = useLocale();
  const copy = NOT_COMPLETED_COPY[state];
  const waiting = state === "waiting" || state === "confirming";
  return (
    <div className="flex flex-col items-center text-center">
      {waiting ? (
        <span
          aria-hidden="true"
          className="size-16 animate-spin rounded-full border-4 border-accent/30 border-t-accent"
        />
      ) : (
        <span
          aria-hidden="true"
          className="flex size-16 items-center justify-center rounded-full bg-warning/15 text-warning ring-1 ring-warning/40"
        >
          <ExclamationCircleIcon className="size-8" />
        </span>
      )}
      <div role="status" className="contents">
        <h1 className="mt-6 text-3xl font-bold tracking-tight text-foreground sm:text-4xl">{i18n._(copy.title)}</h1>
        <p className="mt-3 max-w-lg text-soft">{i18n._(copy.body)}</p>
      </div>
      {orderId ? (
        <p className="mt-6 text-sm text-soft">
          <Trans>
            Order number <span className="break-all font-mono text-foreground">{orderId}</span>
          </Trans>
        </p>
      ) : null}
      <div className="mt-8 flex flex-col gap-3 sm:flex-row">
        {state === "failed" ? (
          <Link to={path(productId ? `/product/${productId}` : "/products")} className={buttonStyles.primary}>
            <Trans>Back to the product</Trans>
          </Link>
        ) : null}
        <button
          type="button"
          onClick={openSupportChat}
          className={state === "failed" ? buttonStyles.secondary : buttonStyles.primary}
        >
          <Trans>Contact Support</Trans>
        </button>
        <Link to={path("/products")} className={buttonStyles.secondary}>
          <Trans>Continue Shopping</Trans>
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
          <h1 className="sr-only">
            <Trans>Verifying your purchase</Trans>
          </h1>
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
