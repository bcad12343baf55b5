import type { InvoiceLookup } from "~/features/orders/shop-notifications.server";
import type { CheckoutCart, CheckoutResult } from "./checkout";

/** The seam every hosted shop sits behind: our types in and out, the wire format stays inside the provider module. */
export interface CheckoutProvider {
  readonly name: "demo" | "sellauth";
  /** The proof-of-work challenge the checkout widget solves for this provider (JSON, passed to the widget as-is). */
  challenge(): Promise<{ challenge: unknown } | { error: string }>;
  createCheckout(cart: CheckoutCart, captcha: string): Promise<CheckoutResult>;
  /** The shop's own view of an invoice (only when it can be asked, i.e. with an API key). */
  lookupInvoice?(invoiceId: string): Promise<InvoiceLookup>;
}
