import { describe, expect, it } from "vitest";
import { demoBuyerEmailSchema } from "./demo-checkout.server";
import { generateDemoKey } from "./providers/demo.server";

describe("the demo checkout's buyer address", () => {
  it("takes one address, trimmed and lower-cased", () => {
    expect(demoBuyerEmailSchema.parse("  Ann.Lee+keys@Example.COM ")).toBe("ann.lee+keys@example.com");
  });

  it.each([
    ["", "empty"],
    ["ann", "no domain"],
    ["ann@", "no host"],
    ["a b@example.com", "a space"],
    [null, "no field"],
    [`${"a".repeat(250)}@example.com`, "too long"],
    ["ann@example.com, bob@example.com", "two addresses"],
  ] as Array<[string | null, string]>)("refuses %j (%s)", (value) => {
    expect(demoBuyerEmailSchema.safeParse(value).success).toBe(false);
  });
});

describe("the demo key", () => {
  it("reads KESTREL-XXXX-XXXX-XXXX-XXXX in letters and digits that cannot be mistaken", () => {
    expect(generateDemoKey()).toMatch(/^KESTREL(-[A-HJKMNP-Z2-9]{4}){4}$/);
  });

  it("is different every time", () => {
    const keys = new Set(Array.from({ length: 200 }, generateDemoKey));
    expect(keys.size).toBe(200);
  });
});
