// What a signed-in buyer sees of their orders at /orders (issue 29): our own types, whichever shop they come from.

/** An order's state in plain words; `unknown` keeps the shop's own spelling for a status it does not document. */
export type BuyerOrderStatus =
  | { kind: "paid" | "waiting" | "partly-delivered" | "refunded" | "cancelled" | "expired" | "pending" }
  | { kind: "unknown"; shopSpelling: string };

/** One thing the shop delivered for a completed order. */
export interface DeliveredItem {
  kind: "key" | "serial" | "link";
  value: string;
  /** What the item is for, when the shop says (e.g. the product it belongs to). */
  label?: string;
}

export interface BuyerOrder {
  /** The order number the buyer knows (the shop's invoice id, or the demo order's id). */
  id: string;
  /** ISO 8601. */
  createdAt: string;
  items: Array<{ productName: string; durationLabel: string | null; quantity: number }>;
  /** The amount as charged, a decimal string ("299.93"), in `currency` (ISO 4217). */
  amount: string;
  currency: string;
  status: BuyerOrderStatus;
  /** The shop's own invoice page, when it has one. */
  invoiceUrl: string | null;
  /** Empty unless the order is complete; never anything for a refunded order. Secrets: no cache, log or metric. */
  delivered: DeliveredItem[];
  /**
   * True when the order is complete but what it delivered could not be read (the shop's single invoice did not
   * answer): the page says the key could not be loaded and offers to try again, never an empty key.
   */
  deliveredUnreadable?: boolean;
  /**
   * Releases this order downloads (issue 45): on /orders its product's latest, with what its button does (Download,
   * or Renew to get it); on the order's page every release it may download. Absent for orders of no release.
   */
  releases?: OrderRelease[];
}

/** A release as an order's card shows it (built by features/releases). */
export interface OrderRelease {
  id: string;
  productName: string;
  version: string;
  date: string;
  files: Array<{ name: string; size: number; sha256: string; action: { kind: string; href: string } }>;
}

/** Where a buyer's orders come from: the connected shop's invoices, or the demo checkout's own records. */
export interface BuyerOrderSource {
  /** Every order of this (already proven, lower-cased) address, newest first. */
  ordersOf(email: string): Promise<BuyerOrder[]>;
  /**
   * False when this source cannot read orders at all (SellAuth without SHOP_API_KEY): `ordersOf` then answers an empty
   * list, and the page should say `unavailableReason` instead of "no orders". Absent means true.
   */
  readonly ordersAvailable?: boolean;
  /** Why orders cannot be read, for the owner (English, no secrets). */
  readonly unavailableReason?: string;
}
