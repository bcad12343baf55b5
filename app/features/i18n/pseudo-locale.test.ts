import { describe, expect, it } from "vitest";
import { pseudoLocalize } from "./pseudo-locale";

describe("pseudoLocalize", () => {
  it("leaves no plain ASCII letter and grows the text by about 40%", () => {
    for (const text of ["Add to cart", "Frequently Asked Questions", "Rhythm", "Kestrel Vault"]) {
      const pseudo = pseudoLocalize(text);
      expect(pseudo).not.toMatch(/[A-Za-z]/);
      const letters = text.replace(/[^A-Za-z]/g, "").length;
      expect([...pseudo].length).toBeGreaterThanOrEqual(text.length + Math.ceil(letters * 0.4));
    }
  });

  it("keeps digits, punctuation and spaces", () => {
    expect(pseudoLocalize("1-2, 3!").replace(/[^\d\-, !]/g, "")).toBe("1-2, 3!");
  });
});
