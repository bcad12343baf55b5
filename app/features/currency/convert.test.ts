import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { convertCents, stepCents } from "./convert";

describe("convertCents", () => {
  it("converts exactly and rounds half-up to the step", () => {
    expect(convertCents(1499, "0.9206", "0.01")).toBe(1380); // 1379.9794
    expect(convertCents(1499, "5.812", "0.10")).toBe(8710); // 8712.188 → 871.2188 steps
    expect(convertCents(1499, "1", "0.01")).toBe(1499);
    expect(convertCents(250, "0.5", "0.01")).toBe(125);
    expect(convertCents(1, "0.5", "0.01")).toBe(1); // 0.5 of a cent rounds up
    expect(convertCents(1499, "0.7893", "1")).toBe(1200); // 1183.1607 → nearest whole unit
    expect(convertCents(0, "0.9206", "0.05")).toBe(0);
  });

  it("gives what decimal arithmetic gives, never a binary-fraction error", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 1, max: 99_999 }),
        (cents, rateTenThousandths) => {
          const rate = (rateTenThousandths / 10_000).toFixed(4);
          const exact = BigInt(cents) * BigInt(rateTenThousandths); // in 10^-4 cents
          const expected = exact / 10_000n + ((exact % 10_000n) * 2n >= 10_000n ? 1n : 0n);
          expect(convertCents(cents, rate, "0.01")).toBe(Number(expected));
        },
      ),
    );
  });

  it("refuses steps that are not whole cents", () => {
    expect(stepCents("0.005")).toBeNull();
    expect(stepCents("0")).toBeNull();
    expect(stepCents("0.10")).toBe(10n);
    expect(() => convertCents(100, "1", "0.005")).toThrow(RangeError);
  });
});
