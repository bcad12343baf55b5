import { describe, expect, it } from "vitest";
import { getLegalPage } from "./legal.server";
import { isLegalSlug, LEGAL_SLUGS } from "./legal-pages";

describe("legal pages", () => {
  it.each(LEGAL_SLUGS)("renders %s from Markdown to HTML with its title and date", (slug) => {
    const page = getLegalPage(slug);
    expect(page).toBeDefined();
    expect(page?.lastUpdated).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(page?.html).toContain("<h2>");
    expect(page?.html).toContain("Kestrel Software");
    // No Markdown syntax survives rendering.
    expect(page?.html).not.toMatch(/^#{1,6} |\*\*/m);
  });

  it("renders the refund policy's rules", () => {
    const html = getLegalPage("refund")?.html ?? "";
    expect(html).toContain("<strong>within 24 hours of your purchase</strong>");
    expect(html).toContain("<strong>7–10 business days</strong>");
    expect(html).toContain('<a href="/terms">Terms of Service</a>');
  });

  it("renders each language's own page once, its links to the shop's pages kept in that language", () => {
    const german = getLegalPage("refund", "de");
    expect(german?.title).toBe("Rückerstattungsrichtlinie");
    expect(german?.html).toContain('<a href="/de/terms">');
    expect(getLegalPage("refund", "de")).toBe(german);
    expect(getLegalPage("refund")?.html).toContain('<a href="/terms">');
  });

  it("knows only the four legal slugs", () => {
    expect(LEGAL_SLUGS.map(isLegalSlug)).toEqual([true, true, true, true]);
    expect(isLegalSlug("refund.data")).toBe(false);
    expect(isLegalSlug("cookies")).toBe(false);
  });
});
