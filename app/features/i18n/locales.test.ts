import { describe, expect, it } from "vitest";
import { localeOfPath, localizedPath, pathWithoutLocale } from "./locales";

describe("locale paths", () => {
  it("reads the locale from the first segment, English when there is none", () => {
    expect(localeOfPath("/")).toBe("en");
    expect(localeOfPath("/products")).toBe("en");
    expect(localeOfPath("/de")).toBe("de");
    expect(localeOfPath("/pt-br/product/vault")).toBe("pt-br");
    expect(localeOfPath("/en-xa/faq")).toBe("en-xa");
    // English has no prefix of its own, and a segment that only starts like a locale is not one.
    expect(localeOfPath("/en/products")).toBe("en");
    expect(localeOfPath("/department")).toBe("en");
    expect(localeOfPath("/__proto__")).toBe("en");
  });

  it("adds and removes the prefix", () => {
    expect(localizedPath("/", "de")).toBe("/de");
    expect(localizedPath("/products?page=2", "ar")).toBe("/ar/products?page=2");
    expect(localizedPath("/?currency=EUR", "es")).toBe("/es?currency=EUR");
    expect(localizedPath("/products", "en")).toBe("/products");
    expect(localizedPath("#main", "de")).toBe("#main");
    expect(pathWithoutLocale("/de")).toBe("/");
    expect(pathWithoutLocale("/de/faq")).toBe("/faq");
    expect(pathWithoutLocale("/faq")).toBe("/faq");
  });
});
