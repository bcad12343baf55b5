// The emulated shop's invoices for buyers' orders (issue 29), in SellAuth's wire shape: several addresses, every
// status the docs show (and one they do not), more than one page for one address, with and without delivered items,
// and two malformed invoices. GET /v1/shops/{shopId}/invoices?email=&page=&perPage= answers Laravel pages of them.

/** An invoice as the shop's API sends it. */
export type WireInvoice = Record<string, unknown>;

export const BUYERS = {
  /** One invoice in each status, some with delivered items. */
  alice: "alice@example.com",
  /** A completed invoice without delivered items, and two malformed ones. */
  bob: "bob@example.com",
  /** 205 completed invoices: three pages of 100. */
  many: "many@example.com",
  /** Nothing bought. */
  nobody: "nobody@example.com",
} as const;

/** A key that is only ever in a refunded invoice: it must never reach a buyer. */
export const REFUNDED_SECRET = "REFUNDED-KEY-0000-SHOULD-NOT-SHOW";
/** A key of a partly delivered invoice: not shown until the invoice is complete. */
export const PARTIAL_SECRET = "PARTIAL-KEY-1111";

function at(day: number): string {
  return new Date(Date.UTC(2026, 0, 1) + day * 86_400_000).toISOString().replace(".000Z", ".000000Z");
}

function invoice(id: number, email: string, status: string, day: number, extra: WireInvoice = {}): WireInvoice {
  return {
    id,
    unique_id: `inv-${id}`,
    status,
    email,
    price: "14.99",
    currency: "USD",
    gateway: "STRIPE",
    created_at: at(day),
    completed_at: status === "completed" ? at(day) : null,
    product: { id: 446889, name: "Kestrel Vault" },
    variant: { id: 652996, name: "1 Day (One-time)" },
    quantity: 1,
    ...extra,
  };
}

export function buyerInvoices(): WireInvoice[] {
  const alice = BUYERS.alice;
  const list: WireInvoice[] = [
    invoice(5001, alice, "completed", 30, {
      price: 299.93,
      invoice_url: "https://kestrel.mysellauth.com/checkout/inv-5001",
      items: [
        {
          product: { id: 446894, name: "Kestrel Studio" },
          variant: { id: 653023, name: "Lifetime" },
          quantity: 2,
          serials: ["STUDIO-AAAA-1111", { serial: "STUDIO-BBBB-2222" }],
          deliverables: "https://downloads.example.com/studio-setup.exe\nSTUDIO-LICENCE-FILE-LINE",
        },
      ],
    }),
    invoice(5002, alice, "partially_completed", 29, {
      items: [{ product: { name: "Kestrel Vault" }, serials: [PARTIAL_SECRET] }],
    }),
    invoice(5003, alice, "confirming", 28),
    invoice(5004, alice, "pending", 27),
    invoice(5005, alice, "refunded", 26, {
      serials: [REFUNDED_SECRET],
      items: [{ product: { name: "Kestrel Vault" }, serials: [REFUNDED_SECRET] }],
    }),
    invoice(5006, alice, "cancelled", 25),
    invoice(5007, alice, "expired", 24),
    invoice(5008, alice, "failed", 23),
    invoice(5009, alice, "on_hold_review", 22),
    invoice(6001, BUYERS.bob, "completed", 20, { currency: "EUR", price: "9.5" }),
    // Malformed: no status, and a price that is not one. Both are skipped; Bob's other invoice is still shown.
    invoice(6002, BUYERS.bob, "completed", 19, { status: null }),
    invoice(6003, BUYERS.bob, "completed", 18, { price: "free" }),
  ];
  for (let n = 0; n < 205; n++)
    list.push(
      invoice(7000 + n, BUYERS.many, "completed", n % 365, {
        created_at: new Date(Date.UTC(2025, 0, 1) + n * 3_600_000).toISOString(),
        serials: [`MANY-${String(n).padStart(4, "0")}`],
      }),
    );
  return list;
}

/**
 * Recent sales of Kestrel Relay (which shows its sales count over 24 hours), in every status and with country codes,
 * relative to `now`: three completed in the last day (quantities 1, 2 and 1: 4 keys), one completed but refunded, one
 * refunded, one pending, one cancelled, and one completed 30 hours ago. "4 sold in the last 24 hours".
 */
export function recentRelaySales(now = Date.now()): WireInvoice[] {
  const hoursAgo = (h: number) => new Date(now - h * 3_600_000).toISOString().replace(".000Z", ".000000Z");
  const sale = (id: number, status: string, hours: number, extra: WireInvoice = {}): WireInvoice => ({
    id,
    unique_id: `inv-${id}`,
    status,
    email: "relay-buyer@example.com",
    name: "A Buyer",
    price: "9.50",
    currency: "USD",
    country_code: ["DE", "FR", "US", "BR", "EG"][id % 5],
    created_at: hoursAgo(hours),
    completed_at: status === "completed" ? hoursAgo(hours) : null,
    product: { id: 447200, name: "Kestrel Relay" },
    variant: { id: 699000, name: "1 Month" },
    quantity: 1,
    ...extra,
  });
  return [
    sale(7001, "completed", 1),
    sale(7002, "completed", 5, { quantity: 2 }),
    sale(7003, "completed", 20, { items: [{ product: { id: 447200 }, quantity: 1 }] }),
    sale(7004, "completed", 3, { refunded_at: hoursAgo(2) }),
    sale(7005, "refunded", 4),
    sale(7006, "pending", 1),
    sale(7007, "cancelled", 2),
    sale(7008, "completed", 30),
  ];
}
