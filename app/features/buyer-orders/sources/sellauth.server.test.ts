import { describe, expect, it } from "vitest";
import { buyerOrderStatus, readDeliveredInvoice, readShopInvoice } from "./sellauth.server";

const invoice = (fields: Record<string, unknown> = {}) => ({
  id: 1234567,
  status: "completed",
  email: "Buyer@Example.com",
  price: "299.93",
  currency: "usd",
  created_at: "2026-01-31T10:00:00.000000Z",
  product: { id: 446894, name: "Kestrel Studio" },
  variant: { id: 653023, name: "Lifetime" },
  quantity: 1,
  ...fields,
});
const order = (fields: Record<string, unknown> = {}) => {
  const read = readShopInvoice(invoice(fields));
  if ("skipped" in read) throw new Error(read.skipped);
  return read.order;
};

describe("SellAuth invoice statuses in our words", () => {
  it.each([
    ["completed", "paid"],
    ["paid", "paid"],
    ["processed", "paid"],
    ["confirming", "waiting"],
    ["partially_completed", "partly-delivered"],
    ["refunded", "refunded"],
    ["cancelled", "cancelled"],
    ["canceled", "cancelled"],
    ["failed", "cancelled"],
    ["expired", "expired"],
    ["pending", "pending"],
    ["COMPLETED", "paid"],
  ])("reads %s as %s", (shop, kind) => {
    expect(buyerOrderStatus(shop)).toEqual({ kind });
  });

  it("keeps the shop's own spelling of a status it does not document", () => {
    expect(buyerOrderStatus(" on_hold_review ")).toEqual({ kind: "unknown", shopSpelling: "on_hold_review" });
  });
});

describe("one SellAuth invoice, read defensively", () => {
  it("reads the order number, date, item, amount, currency and status", () => {
    const read = readShopInvoice(invoice());
    expect(read).toEqual({
      email: "buyer@example.com",
      order: {
        id: "1234567",
        createdAt: "2026-01-31T10:00:00.000Z",
        items: [{ productName: "Kestrel Studio", durationLabel: "Lifetime", quantity: 1 }],
        amount: "299.93",
        currency: "USD",
        status: { kind: "paid" },
        invoiceUrl: null,
        delivered: [],
      },
    });
  });

  it("reads every line of `items`, with its delivered serials, keys and download links", () => {
    const read = order({
      items: [
        {
          product: { name: "Kestrel Studio" },
          variant: { name: "Lifetime" },
          quantity: "2",
          serials: ["AAAA-1111", { serial: "BBBB-2222" }],
          deliverables: "https://downloads.example.com/setup.exe\nLICENCE-LINE\n",
        },
        { product: { name: "Preset Packs" }, variant: null, quantity: 1, delivered: [{ value: "PRESET-KEY" }] },
      ],
    });
    expect(read.items).toEqual([
      { productName: "Kestrel Studio", durationLabel: "Lifetime", quantity: 2 },
      { productName: "Preset Packs", durationLabel: null, quantity: 1 },
    ]);
    expect(read.delivered).toEqual([
      { kind: "serial", value: "AAAA-1111", label: "Kestrel Studio" },
      { kind: "serial", value: "BBBB-2222", label: "Kestrel Studio" },
      { kind: "link", value: "https://downloads.example.com/setup.exe", label: "Kestrel Studio" },
      { kind: "key", value: "LICENCE-LINE", label: "Kestrel Studio" },
      { kind: "key", value: "PRESET-KEY", label: "Preset Packs" },
    ]);
  });

  it.each(["refunded", "partially_completed", "confirming", "pending", "cancelled", "expired", "on_hold_review"])(
    "shows no delivered item for a %s invoice",
    (status) => {
      expect(
        order({ status, serials: ["SECRET"], items: [{ product: { name: "X" }, serials: ["SECRET"] }] }).delivered,
      ).toEqual([]);
    },
  );

  it("reads a number price, and a price under `total` when `price` is absent", () => {
    expect(order({ price: 9.5 }).amount).toBe("9.50");
    expect(order({ price: undefined, total: "12" }).amount).toBe("12.00");
  });

  it("keeps the shop's invoice page only when it is an https URL without credentials", () => {
    expect(order({ invoice_url: "https://shop.mysellauth.com/checkout/abc" }).invoiceUrl).toBe(
      "https://shop.mysellauth.com/checkout/abc",
    );
    expect(order({ invoice_url: "javascript:alert(1)" }).invoiceUrl).toBeNull();
    expect(order({ invoice_url: "http://shop.example.com/checkout/abc" }).invoiceUrl).toBeNull();
    expect(order({ url: "https://gateway.example.com/pay/1" }).invoiceUrl).toBeNull();
    expect(order({ invoice_url: "https://user:pw@shop.example.com/" }).invoiceUrl).toBeNull();
  });

  it("reads malformed optional fields as absent: currency, product, quantity, items, delivered", () => {
    const read = order({
      currency: 42,
      product: "Studio",
      variant: 7,
      quantity: -3,
      items: "none",
      serials: { a: [] },
    });
    expect(read).toMatchObject({
      currency: "USD",
      items: [{ productName: "", durationLabel: null, quantity: 1 }],
      delivered: [],
    });
  });

  it.each([
    ["no id", { id: undefined }],
    ["no status", { status: null }],
    ["an unreadable date", { created_at: "yesterday" }],
    ["an unreadable price", { price: "free" }],
    ["an id that is not one", { id: "1; drop" }],
  ])("skips an invoice with %s, saying why without its contents", (_what, fields) => {
    const read = readShopInvoice(invoice({ serials: ["SECRET-IN-SKIPPED"], ...fields }));
    expect(read).toHaveProperty("skipped");
    expect(JSON.stringify(read)).not.toContain("SECRET-IN-SKIPPED");
    expect(JSON.stringify(read)).not.toContain("buyer@example.com");
  });

  it("skips something that is not an invoice at all", () => {
    expect(readShopInvoice("nope")).toHaveProperty("skipped");
    expect(readShopInvoice(null)).toHaveProperty("skipped");
  });
});

describe("the single invoice: what a completed order delivered", () => {
  const expected = { id: "1234567", email: "buyer@example.com" };
  const single = invoice({ items: [{ product: { name: "Kestrel Studio" }, serials: ["KEY-1"] }], delivered: true });

  it("reads each item's delivered serials, bare or under `data` (a `delivered: true` flag is no key)", () => {
    const keys = [{ kind: "serial", value: "KEY-1", label: "Kestrel Studio" }];
    expect(readDeliveredInvoice(single, expected)).toEqual({ delivered: keys });
    expect(readDeliveredInvoice({ data: single }, expected)).toEqual({ delivered: keys });
  });

  it("is unreadable when it is another invoice, another address's, or not an invoice", () => {
    expect(readDeliveredInvoice(single, { ...expected, id: "1" })).toHaveProperty("unreadable");
    expect(readDeliveredInvoice(single, { ...expected, email: "other@example.com" })).toHaveProperty("unreadable");
    expect(readDeliveredInvoice("<html>", expected)).toHaveProperty("unreadable");
  });

  it("shows nothing for an invoice refunded since the list was read", () => {
    expect(readDeliveredInvoice({ ...single, refunded_at: "2026-02-01T00:00:00Z" }, expected)).toEqual({
      delivered: [],
    });
    expect(readDeliveredInvoice({ ...single, status: "refunded" }, expected)).toEqual({ delivered: [] });
  });

  it("reads a completed invoice in the list that carries `refunded_at` as refunded, without its keys", () => {
    expect(order({ refunded_at: "2026-02-01T00:00:00Z", serials: ["SECRET"] })).toMatchObject({
      status: { kind: "refunded" },
      delivered: [],
    });
  });
});
