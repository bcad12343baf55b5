import { describe, expect, it } from "vitest";
import { couponsFileSchema } from "./coupons.content";
import { discountedCents, findApplicableCoupon } from "./coupons";

const coupons = couponsFileSchema.parse([
  { code: "WELCOME10", percentOff: 10 },
  { code: "PRESETS25", percentOff: 25, productIds: [447097] },
  { code: "SPRING2024", percentOff: 30, expires: "2024-05-31" },
]);

describe("findApplicableCoupon", () => {
  it("finds a code whatever its case", () => {
    expect(findApplicableCoupon(coupons, "welcome10", 446894)?.percentOff).toBe(10);
  });

  it("knows nothing of an unknown code", () => {
    expect(findApplicableCoupon(coupons, "NOPE", 446894)).toBeUndefined();
  });

  it("accepts a code through its whole expiry day (UTC) and refuses it after", () => {
    expect(findApplicableCoupon(coupons, "SPRING2024", 446894, new Date("2024-05-31T23:59:59Z"))?.code).toBe(
      "SPRING2024",
    );
    expect(findApplicableCoupon(coupons, "SPRING2024", 446894, new Date("2024-06-01T00:00:00Z"))).toBeUndefined();
  });

  it("applies a product's code to that product only", () => {
    expect(findApplicableCoupon(coupons, "PRESETS25", 447097)?.percentOff).toBe(25);
    expect(findApplicableCoupon(coupons, "PRESETS25", 446894)).toBeUndefined();
  });
});

describe("discountedCents", () => {
  it("takes the percentage off in whole cents, rounding half up", () => {
    // $299.93 less 10% = $269.937 → $269.94.
    expect(discountedCents(29993, 10)).toBe(26994);
    // $0.25 less 10% = $0.225 → $0.23.
    expect(discountedCents(25, 10)).toBe(23);
    expect(discountedCents(1000, 100)).toBe(0);
  });
});

describe("coupons.json schema", () => {
  it("refuses a code with characters outside [A-Za-z0-9_-], and the same code twice", () => {
    expect(couponsFileSchema.safeParse([{ code: "TEN OFF", percentOff: 10 }]).success).toBe(false);
    expect(couponsFileSchema.safeParse([{ code: "A".repeat(65), percentOff: 10 }]).success).toBe(false);
    const twice = couponsFileSchema.safeParse([
      { code: "TEN", percentOff: 10 },
      { code: "ten", percentOff: 20 },
    ]);
    expect(twice.success).toBe(false);
    expect(twice.error?.issues[0]?.message).toBe('duplicate coupon code "ten" (also at [0])');
  });

  it("refuses a percentage outside 1–100 and an unknown field", () => {
    expect(couponsFileSchema.safeParse([{ code: "X", percentOff: 0 }]).success).toBe(false);
    expect(couponsFileSchema.safeParse([{ code: "X", percentOff: 101 }]).success).toBe(false);
    expect(couponsFileSchema.safeParse([{ code: "X", percentOff: 10, amountOff: 5 }]).success).toBe(false);
  });
});
