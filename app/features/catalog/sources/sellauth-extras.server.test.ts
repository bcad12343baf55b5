import { describe, expect, it } from "vitest";
import { EMULATED_DASHBOARD } from "../../../../tests/fakes/shop-catalogue";
import { readShopExtras } from "./sellauth-extras.server";
import { readShopProduct } from "./sellauth.server";

const product = (fields: Record<string, unknown>) => ({
  id: 762,
  name: "My Product",
  variants: [{ id: 1368, name: "My Variant", price: "9.99", stock: -1 }],
  ...fields,
});

describe("the dashboard's fields of a shop product, each read alone", () => {
  it("reads volume discounts as {quantity, percentage} and as {qty, percent}, numbers or strings, sorted", () => {
    expect(
      readShopExtras(
        {
          volume_discounts: [
            { quantity: "10", percentage: "15.00" },
            { qty: 5, percent: 10 },
          ],
        },
        1,
      ).extras.volumeDiscounts,
    ).toEqual([
      { quantity: 5, percent: 10 },
      { quantity: 10, percent: 15 },
    ]);
  });

  it("reads a list sent as JSON text, and skips each malformed entry with its reason, keeping the rest", () => {
    const { extras, skipped } = readShopExtras(
      {
        volume_discounts: JSON.stringify([{ qty: 3, percent: 5 }, null, { quantity: "lots", percentage: 5 }]),
      },
      1,
    );
    expect(extras.volumeDiscounts).toEqual([{ quantity: 3, percent: 5 }]);
    expect(skipped).toHaveLength(2);
    expect(skipped[0]).toMatch(/^volume_discounts\[1\]: /);
  });

  it("refuses tiers that are not volume discounts (one key, 0% or 100% and more)", () => {
    const { extras, skipped } = readShopExtras(
      {
        volume_discounts: [
          { qty: 1, percent: 10 },
          { qty: 5, percent: 0 },
          { qty: 5, percent: 100 },
        ],
      },
      1,
    );
    expect(extras.volumeDiscounts).toBeUndefined();
    expect(skipped).toHaveLength(3);
  });

  it("reads the coupon switch and the quantity bounds (0: no bound; a maximum below the minimum is skipped)", () => {
    expect(
      readShopExtras({ disable_volume_discounts_if_coupon: "1", quantity_min: "2", quantity_max: 10 }, 1).extras,
    ).toEqual({ disableVolumeDiscountsWithCoupon: true, quantityMin: 2, quantityMax: 10 });
    expect(readShopExtras({ quantity_min: 0, quantity_max: 0 }, 1).extras).toEqual({});
    const inverted = readShopExtras({ quantity_min: 5, quantity_max: 2 }, 1);
    expect(inverted.extras).toEqual({ quantityMin: 5 });
    expect(inverted.skipped).toEqual(["quantity_max: 2 is below quantity_min 5"]);
  });

  it("reads the emulator's tabs, badges, status line, upsells and sales count, skipping the malformed entries", () => {
    const { extras, skipped } = readShopExtras(EMULATED_DASHBOARD, 446894);
    expect(extras.tabs?.map((t) => t.title)).toEqual(["Requirements", "Changelog"]);
    expect(extras.badges).toEqual([
      { label: "Staff pick", color: "#22c55e" },
      { label: "Low contrast", color: "#1e293b" },
      { label: "Creator favourite", color: null },
    ]);
    expect(extras.statusText).toBe("Undetected");
    expect(extras.statusColor).toBe("#16a34a");
    expect(extras.upsells).toEqual([447097, 446893, 447201]);
    expect(extras.showSalesCount).toBe(true);
    expect(extras.salesCountHours).toBe(24);
    expect(skipped.map((s) => s.split(":")[0])).toEqual(["product_tabs[2]", "product_badges[3]", "product_upsells[3]"]);
  });

  it("never costs the product its place: a product with every field broken is still read", () => {
    const read = readShopProduct(
      product({
        volume_discounts: "not json",
        quantity_min: "many",
        product_tabs: 7,
        product_badges: { 0: 42 },
        status_text: ["x"],
        product_upsells: "[",
        show_sales_count: "maybe",
      }),
    );
    expect("product" in read && read.product.id).toBe(762);
    expect("product" in read && read.product.extras).toBeUndefined();
  });

  it("reads no *_offset field", () => {
    expect(readShopExtras({ products_sold_offset: 1000, total_customers_offset: 50 }, 1).extras).toEqual({});
  });
});
