import { describe, expect, it } from "vitest";
import { parseContent } from "~/features/content/content";
import { plansFileSchema } from "./reseller.content";

describe("content/plans.json rules", () => {
  const plan = {
    id: "starter",
    name: "Reseller Starter",
    price: "$175/month",
    priceDetail: "Monthly.",
    description: "Start.",
    features: ["Priority support"],
  };
  const parse = (plans: unknown[]) => () =>
    parseContent("content/plans.json", plansFileSchema, { intro: "Resell.", plans });

  it("accepts $N, $N/month and Custom prices", () => {
    expect(
      parse([
        plan,
        { ...plan, id: "single", price: "$60" },
        { ...plan, id: "bulk", price: "Custom", custom: true },
      ])().plans.map((p) => p.price),
    ).toEqual(["$175/month", "$60", "Custom"]);
  });

  it("rejects a price that is not $N, $N/month or Custom", () => {
    expect(parse([{ ...plan, price: "175 dollars" }])).toThrow(
      'content/plans.json: plans[0].price: expected a price like "$60", "$175/month" or "Custom"',
    );
  });

  it('rejects a custom plan whose price is not "Custom" (and the reverse)', () => {
    expect(parse([{ ...plan, custom: true }])).toThrow(
      'content/plans.json: plans[0].price: expected "Custom" exactly when the plan is marked custom',
    );
    expect(parse([{ ...plan, price: "Custom" }])).toThrow(
      'content/plans.json: plans[0].price: expected "Custom" exactly when the plan is marked custom',
    );
  });

  it("rejects a plan without features", () => {
    expect(parse([{ ...plan, features: [] }])).toThrow(
      "content/plans.json: plans[0].features: expected at least one feature",
    );
  });

  it("rejects duplicate plan ids", () => {
    expect(parse([plan, plan])).toThrow('content/plans.json: plans[1].id: duplicate plan id "starter" (also at [0])');
  });
});
