import { describe, expect, it } from "vitest";
import { LONE_SURROGATE_MESSAGE, supportRequestSchema } from "./support-chat";

describe("support request schema", () => {
  const altcha = "payload";
  it("accepts exactly the category's number of trimmed answers", () => {
    const parsed = supportRequestSchema.parse({
      category: "Key Reset",
      answers: [" Vault ", "new PC", "me@example.com"],
      altcha,
    });
    expect(parsed.answers).toEqual(["Vault", "new PC", "me@example.com"]);
  });

  it.each([
    ["an unknown category", { category: "Billing", answers: ["a"], altcha }],
    ["too few answers", { category: "Key Reset", answers: ["a", "b"], altcha }],
    ["too many answers", { category: "Key Reset", answers: ["a", "b", "c", "d"], altcha }],
    ["a blank answer", { category: "Key Reset", answers: ["a", "  ", "c"], altcha }],
    ["an answer over 900 characters", { category: "Key Reset", answers: ["a", "x".repeat(901), "c"], altcha }],
    ["a missing captcha", { category: "Key Reset", answers: ["a", "b", "c"] }],
    ["an answer with a lone surrogate", { category: "Key Reset", answers: ["x\uD83D end", "b", "c"], altcha }],
  ])("rejects %s", (_name, body) => {
    expect(supportRequestSchema.safeParse(body).success).toBe(false);
  });

  it("says why an answer with a broken character is refused, and accepts whole emoji", () => {
    const broken = supportRequestSchema.safeParse({ category: "Key Reset", answers: ["a", "b\uDE00", "c"], altcha });
    expect(broken.error?.issues[0]?.message).toBe(LONE_SURROGATE_MESSAGE);
    expect(supportRequestSchema.safeParse({ category: "Key Reset", answers: ["a", "b 😀", "c"], altcha }).success).toBe(
      true,
    );
  });

  it("carries the language the visitor chatted in, refuses one the shop does not speak, and accepts none", () => {
    const request = { category: "Key Reset", answers: ["a", "b", "c"], altcha };
    expect(supportRequestSchema.parse({ ...request, locale: "de" }).locale).toBe("de");
    expect(supportRequestSchema.parse({ ...request, locale: "pt-br" }).locale).toBe("pt-br");
    // Clients from before the field existed send no locale.
    expect(supportRequestSchema.parse(request).locale).toBeUndefined();
    for (const locale of ["fr", "DE", "", 1, "__proto__"]) {
      const parsed = supportRequestSchema.safeParse({ ...request, locale });
      expect(parsed.error?.issues[0]?.message, String(locale)).toBe("Unknown locale");
    }
  });
});
