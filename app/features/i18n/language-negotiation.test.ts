import { describe, expect, it } from "vitest";
import { negotiateLocale, preferredLanguages } from "./language-negotiation";

describe("Accept-Language", () => {
  it("orders languages by weight, then by position", () => {
    expect(preferredLanguages("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5")).toEqual(["fr-ch", "fr", "en", "de"]);
    expect(preferredLanguages("de;q=0.5, ar")).toEqual(["ar", "de"]);
    expect(preferredLanguages("es;q=0, pt-BR")).toEqual(["pt-br"]);
  });

  it("picks the first language the shop speaks, in any region", () => {
    expect(negotiateLocale("de-AT,de;q=0.9,en;q=0.8")).toBe("de");
    expect(negotiateLocale("pt-PT")).toBe("pt-br");
    expect(negotiateLocale("pt-BR,pt;q=0.9")).toBe("pt-br");
    expect(negotiateLocale("fr-FR, es-MX;q=0.8")).toBe("es");
    expect(negotiateLocale("ar-EG")).toBe("ar");
    expect(negotiateLocale("en-GB,en;q=0.9,de;q=0.5")).toBe("en");
    expect(negotiateLocale("fr, ja")).toBeNull();
    expect(negotiateLocale("")).toBeNull();
    expect(negotiateLocale(undefined)).toBeNull();
    expect(negotiateLocale("de;q=abc, es")).toBe("es");
  });
});
