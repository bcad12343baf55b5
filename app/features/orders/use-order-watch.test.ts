import { describe, expect, it } from "vitest";
import { nextOrderCheckDelay } from "./use-order-watch";

describe("nextOrderCheckDelay", () => {
  it("checks every 2 s for the first minute, then every 10 s", () => {
    expect(nextOrderCheckDelay(0)).toBe(2_000);
    expect(nextOrderCheckDelay(59_999)).toBe(2_000);
    expect(nextOrderCheckDelay(60_000)).toBe(10_000);
  });

  it("waits as long as a 429's Retry-After asks (capped at 5 minutes), never less than the regular pace", () => {
    expect(nextOrderCheckDelay(0, 7)).toBe(7_000);
    expect(nextOrderCheckDelay(90_000, 1)).toBe(10_000);
    expect(nextOrderCheckDelay(0, 86_400)).toBe(300_000);
    expect(nextOrderCheckDelay(0, Number.NaN)).toBe(2_000);
  });
});
