import { describe, expect, it } from "vitest";
import { hashIdentityForLog } from "./log-identity.server";

describe("identities in logs", () => {
  it("gives one address the same short digest whatever its case and surrounding spaces", () => {
    const hashed = hashIdentityForLog("Buyer@Example.com");
    expect(hashed).toMatch(/^id:[0-9a-f]{16}$/);
    expect(hashIdentityForLog(" buyer@example.com ")).toBe(hashed);
  });

  it("gives different addresses different digests and never contains the address", () => {
    const hashed = hashIdentityForLog("buyer@example.com");
    expect(hashIdentityForLog("other@example.com")).not.toBe(hashed);
    expect(hashed).not.toContain("buyer");
    expect(hashed).not.toContain("example");
  });
});
