import type { Locale } from "~/features/i18n/locales";
import type { InvoiceLookupResult } from "~/features/orders/orders";
import type { CheckoutCart, CheckoutResult } from "./checkout";

/** What the shop's invoice API says about an invoice (our type), or why it could not be asked. */
export type InvoiceLookup = InvoiceLookupResult;

/** What we know of the buyer beyond the cart. */
export interface BuyerContext {
  /** For the shop's fraud checks, and nothing more: the client address as seen through the trusted proxies. */
  ip?: string;
  userAgent?: string;
  /** The language the buyer shops in, for a checkout page that speaks ours (the demo shop's); English when absent. */
  locale?: Locale;
}

/** The seam every hosted shop sits behind: our types in and out, the wire format stays inside the provider module. */
export interface CheckoutProvider {
  readonly name: "demo" | "sellauth";
  /** The proof-of-work challenge the checkout widget solves for this provider (JSON, passed to the widget as-is). */
  challenge(): Promise<{ challenge: unknown } | { error: string }>;
  createCheckout(cart: CheckoutCart, captcha: string, buyer?: BuyerContext): Promise<CheckoutResult>;
  /** The shop's own view of an invoice (only when it can be asked, i.e. with an API key). */
  lookupInvoice?(invoiceId: string): Promise<InvoiceLookup>;
}
