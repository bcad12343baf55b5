import { BARE_PAGE_HEADING_ID } from "~/features/layout/layout";
import { Select, Trans } from "@lingui/react/macro";
import { useLocale } from "~/features/i18n/use-locale";
import type { DemoCheckoutView } from "./demo-checkout.server";

/** The order summary's discount line: `Volume discount (5 or more: 10% off)  -$22.50`. */
function VolumeDiscountRow({ quantity, percent, amount }: { quantity: number; percent: number; amount: string }) {
  return (
    <div className="flex justify-between gap-4 px-4 py-3">
      <dt className="text-soft">
        <Trans comment="Demo checkout: the volume discount's line; {quantity} keys or more, {percent} percent off">
          Volume discount ({quantity} or more: {percent}% off)
        </Trans>
      </dt>
      <dd className="text-end font-medium text-success-soft tabular-nums">{amount}</dd>
    </div>
  );
}

/**
 * The built-in demo shop's invoice page (shown inside the checkout modal, or in its own tab), in the buyer's language:
 * its way back to the shop leads to pages in that language too.
 */
export function DemoCheckoutPage({
  view,
  invalidEmail = null,
}: {
  view: DemoCheckoutView;
  /** The address a Pay came back with because it was not one; null before any attempt. */
  invalidEmail?: string | null;
}) {
  const { status, productId, variantId } = view;
  const { path } = useLocale();
  const payable = status === "pending";
  return (
    <div className="mx-auto max-w-md px-4 py-8">
      <p className="text-sm font-semibold tracking-wide text-link uppercase">
        <Trans>Demo checkout</Trans>
      </p>
      <h1 id={BARE_PAGE_HEADING_ID} className="mt-1 text-2xl font-bold text-foreground">
        <Trans>Complete your purchase</Trans>
      </h1>
      <p className="mt-2 text-sm text-soft">
        <Trans>This is the built-in demo shop: no payment is taken and no card is needed.</Trans>
      </p>
      <dl className="mt-6 divide-y divide-border rounded-xl border border-border bg-surface/60">
        <div className="flex justify-between gap-4 px-4 py-3">
          <dt className="text-soft">
            <Trans comment="Demo checkout: the product being bought">Item</Trans>
          </dt>
          <dd className="text-end font-medium text-foreground">
            {view.productName ?? (
              <Trans comment="Demo checkout: a product the catalogue no longer has, by its number">
                Product {productId}
              </Trans>
            )}
          </dd>
        </div>
        <div className="flex justify-between gap-4 px-4 py-3">
          <dt className="text-soft">
            <Trans comment="Demo checkout: the licence length being bought">Duration</Trans>
          </dt>
          <dd className="text-end font-medium text-foreground">
            {view.durationLabel ?? (
              <Trans comment="Demo checkout: a licence length the catalogue no longer has, by its number">
                Variant {variantId}
              </Trans>
            )}
          </dd>
        </div>
        {view.quantity > 1 ? (
          <div className="flex justify-between gap-4 px-4 py-3">
            <dt className="text-soft">
              <Trans comment="How many keys to buy">Quantity</Trans>
            </dt>
            <dd className="text-end font-medium text-foreground">{view.quantity}</dd>
          </div>
        ) : null}
        {view.coupon || view.volumeDiscount ? (
          <div className="flex justify-between gap-4 px-4 py-3">
            <dt className="text-soft">
              <Trans comment="Demo checkout: the list price before the coupon">Price</Trans>
            </dt>
            <dd className="text-end text-soft tabular-nums">
              {view.volumeDiscount?.listTotal ?? view.coupon?.listTotal}
            </dd>
          </div>
        ) : null}
        {view.volumeDiscount ? <VolumeDiscountRow {...view.volumeDiscount} /> : null}
        {view.coupon ? (
          <div className="flex justify-between gap-4 px-4 py-3">
            <dt className="text-soft">
              <Trans comment="Demo checkout: the coupon code applied">Coupon</Trans>
            </dt>
            <dd className="text-end font-medium text-success-soft">{view.coupon.code}</dd>
          </div>
        ) : null}
        <div className="flex justify-between gap-4 px-4 py-3">
          <dt className="text-soft">
            <Trans comment="The price of the chosen licence and quantity">Total</Trans>
          </dt>
          <dd className="text-end text-lg font-bold text-foreground">{view.total}</dd>
        </div>
      </dl>
      {payable ? (
        <div className="mt-6">
          {/* The form stays in the frame, as a real shop's would: the product page sees the payment by watching the order. */}
          <form method="post" id="demo-pay">
            <label htmlFor="demo-email" className="block text-sm font-medium text-foreground">
              <Trans comment="Demo checkout: the buyer's email address, where the key is delivered">
                Email address
              </Trans>
            </label>
            <input
              id="demo-email"
              name="email"
              type="email"
              autoComplete="email"
              required
              maxLength={254}
              defaultValue={invalidEmail ?? undefined}
              aria-invalid={invalidEmail !== null}
              aria-describedby={invalidEmail !== null ? "demo-email-error demo-email-hint" : "demo-email-hint"}
              className="mt-1 block w-full rounded-lg border border-border-strong bg-background px-3 py-2 text-foreground focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus"
            />
            <p id="demo-email-hint" className="mt-1 text-sm text-muted">
              <Trans comment="Demo checkout: under the email field">
                Your key is delivered to this address: sign in with it to see your orders and keys.
              </Trans>
            </p>
            {invalidEmail !== null ? (
              <p id="demo-email-error" role="alert" className="mt-1 text-sm text-danger-soft">
                <Trans comment="Demo checkout: the email field holds something that is not an email address">
                  Enter a valid email address, like name@example.com.
                </Trans>
              </p>
            ) : null}
          </form>
          <div className="mt-4 flex gap-3">
            <button
              type="submit"
              form="demo-pay"
              className="flex-1 rounded-lg bg-accent px-5 py-3 font-semibold text-on-accent hover:bg-accent-hover focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus"
            >
              <Trans comment="Demo checkout: pays the invoice (nothing is charged)">Pay</Trans>
            </button>
            {/* Its own form, so leaving never carries the address into a URL. */}
            <form>
              <button
                type="submit"
                formMethod="get"
                formAction={path(`/product/${productId}`)}
                formTarget="_top"
                formNoValidate
                className="rounded-lg border border-border-strong px-5 py-3 font-semibold text-foreground hover:bg-raised focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus"
              >
                <Trans comment="Demo checkout: leaves the checkout for the product page">Cancel</Trans>
              </button>
            </form>
          </div>
        </div>
      ) : (
        <div className="mt-6">
          <p role="status" className="text-soft">
            <Trans comment="Demo checkout: the state of an invoice that can no longer be paid">
              This invoice is{" "}
              <Select
                value={status}
                _pending="pending"
                _completed="completed"
                _failed="failed"
                _refunded="refunded"
                other="closed"
              />
              .
            </Trans>
          </p>
          {status === "completed" ? (
            <p className="mt-2 text-sm text-soft">
              <Trans comment="Demo checkout: after paying, where the delivered demo key can be seen">
                Your demo key has been delivered: sign in with your email address to see it with your orders.
              </Trans>
            </p>
          ) : null}
          <a
            href={path(`/purchase/success?order_id=${encodeURIComponent(view.orderId)}`)}
            target="_top"
            className="mt-3 inline-block font-semibold text-link underline hover:text-accent-soft"
          >
            <Trans>View your order</Trans>
          </a>
        </div>
      )}
    </div>
  );
}
