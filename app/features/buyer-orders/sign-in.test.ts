import { describe, expect, it } from "vitest";
import { cookieValue, emailSchema } from "~/platform/form-input";
import { codeSchema } from "./sign-in";
import { hashSecret, newCode, newToken } from "./sign-in-store.server";

describe("the sign-in's pure parts", () => {
  it("accepts an address lower-cased and trimmed, and refuses a malformed or 10 KB one", () => {
    expect(emailSchema.parse("  Buyer@Example.COM ")).toBe("buyer@example.com");
    expect(emailSchema.safeParse("not an address").success).toBe(false);
    expect(emailSchema.safeParse(`${"a".repeat(10_000)}@example.com`).success).toBe(false);
  });

  it("takes exactly six digits as a code (not seven, not letters)", () => {
    expect(codeSchema.safeParse("012345").success).toBe(true);
    expect(codeSchema.safeParse("0123456").success).toBe(false);
    expect(codeSchema.safeParse("12a456").success).toBe(false);
  });

  it("makes six-digit codes and long random tokens", () => {
    for (let i = 0; i < 200; i++) expect(newCode()).toMatch(/^\d{6}$/);
    const tokens = new Set(Array.from({ length: 100 }, newToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("hashes a code bound to its row, so the same code of two rows hashes apart, and never keeps the code", () => {
    const a = hashSecret("code", "123456", "row-a");
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).not.toContain("123456");
    expect(hashSecret("code", "123456", "row-b")).not.toBe(a);
    expect(hashSecret("code", "123456", "row-a")).toBe(a);
    expect(hashSecret("session", "x")).not.toBe(hashSecret("link", "x"));
  });

  it("reads only plausible token cookies", () => {
    const token = newToken();
    expect(cookieValue(`a=b; kestrel_orders_session=${token}`, "kestrel_orders_session")).toBe(token);
    expect(cookieValue("kestrel_orders_session=short", "kestrel_orders_session")).toBeUndefined();
    expect(cookieValue("kestrel_orders_session=<script>aaaaaaaaaaaaaaaa", "kestrel_orders_session")).toBeUndefined();
    expect(cookieValue(null, "kestrel_orders_session")).toBeUndefined();
  });
});
