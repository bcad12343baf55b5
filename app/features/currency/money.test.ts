import { describe, expect, it } from "vitest";
import { type DisplayCurrency, shownPrice } from "./money";

const euro: DisplayCurrency = { code: "EUR", rate: "0.9206", rounding: "0.01", base: "USD", choices: ["USD", "EUR"] };

describe("shownPrice", () => {
  it("says what the checkout charges beside the buyer's currency, in the page's language", () => {
    const price = shownPrice(1499, "USD", euro, "de");
    expect(price.charged).toBe("$14.99");
    expect(price.approximate?.replace(/\s/g, " ")).toBe("13,80 €");
    expect(shownPrice(1499, "USD", euro, "en").approximate).toBe("€13.80");
  });

  it("shows only the charged amount when the buyer's currency is the shop's, or rates are for another base", () => {
    expect(shownPrice(1499, "USD", { ...euro, code: "USD", rate: "1" }, "en")).toEqual({
      charged: "$14.99",
      approximate: null,
    });
    expect(shownPrice(1499, "CAD", euro, "en")).toEqual({ charged: "CA$14.99", approximate: null });
    expect(shownPrice(1499, undefined, null, "en")).toEqual({ charged: "$14.99", approximate: null });
  });
});
