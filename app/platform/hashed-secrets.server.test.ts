import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { hashSecret, isSecretToken, newSecretToken, sameHash } from "./hashed-secrets.server";

describe("hashed secrets", () => {
  it("makes 256-bit URL-safe tokens, each one new", () => {
    const tokens = new Set(Array.from({ length: 200 }, newSecretToken));
    expect(tokens.size).toBe(200);
    for (const token of tokens) {
      expect(isSecretToken(token)).toBe(true);
      expect(Buffer.from(token, "base64url")).toHaveLength(32);
    }
  });

  it("looks up only what has a token's shape", () => {
    for (const value of [
      undefined,
      42,
      "",
      "short",
      `${newSecretToken()}x`,
      `${newSecretToken().slice(1)}/`,
      "é".repeat(43),
    ])
      expect(isSecretToken(value)).toBe(false);
  });

  it("hashes with SHA-256 under a domain, so the hashes already stored keep matching", () => {
    const sha256 = (text: string) => crypto.createHash("sha256").update(text).digest("hex");
    expect(hashSecret("kestrel-support-conversation", "abc")).toBe(sha256("kestrel-support-conversation:abc"));
    expect(hashSecret("kestrel-orders-code", "123456", "row")).toBe(sha256("kestrel-orders-code:row:123456"));
    expect(hashSecret("kestrel-orders-session", "abc", "")).toBe(sha256("kestrel-orders-session::abc"));
    expect(hashSecret("kestrel-orders-link", "abc")).not.toBe(hashSecret("kestrel-orders-session", "abc"));
    expect(hashSecret("kestrel-orders-code", "123456", "a")).not.toBe(hashSecret("kestrel-orders-code", "123456", "b"));
  });

  it("compares hashes whole", () => {
    const hash = hashSecret("d", "secret");
    expect(sameHash(hash, hashSecret("d", "secret"))).toBe(true);
    expect(sameHash(hash, hashSecret("d", "secreT"))).toBe(false);
    expect(sameHash(hash, hash.slice(0, -1))).toBe(false);
  });
});
