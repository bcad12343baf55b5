import { describe, expect, it } from "vitest";
import { overlayTranslation, type TranslationReport } from "./localized-content";

describe("overlayTranslation", () => {
  it("keeps English and reports each string of an element the translation lacks, lists inside it included", () => {
    const english = [
      { id: 1, name: "Vault", features: ["Shredding"] },
      { id: 2, name: "Studio", features: ["Timeline", "Grading"], images: [{ alt: "Main window" }] },
    ];
    const report: TranslationReport = { missing: [], ignored: [] };
    const merged = overlayTranslation(english, [{ id: 1, name: "Tresor", features: ["Schreddern"] }], report);
    expect(merged).toEqual([
      { id: 1, name: "Tresor", features: ["Schreddern"] },
      { id: 2, name: "Studio", features: ["Timeline", "Grading"], images: [{ alt: "Main window" }] },
    ]);
    expect(report.missing).toEqual(["[1].name", "[1].features[0]", "[1].features[1]", "[1].images[0].alt"]);
  });
});

describe("overlayTranslation of coloured badges (issue 36)", () => {
  it("takes a bare translated label for a {label, color} badge, and never a colour from a translation", () => {
    const report: TranslationReport = { missing: [], ignored: [] };
    const merged = overlayTranslation(
      [{ id: 1, badges: [{ label: "Popular", color: "#f59e0b" }, "New"] }],
      [{ id: 1, badges: ["Beliebt", "Neu"] }],
      report,
    );
    expect(merged).toEqual([{ id: 1, badges: [{ label: "Beliebt", color: "#f59e0b" }, "Neu"] }]);
    expect(report.ignored).toEqual([]);
    const recoloured = overlayTranslation(
      [{ label: "Popular", color: "#f59e0b" }],
      [{ label: "Beliebt", color: "#000000" }],
      { missing: [], ignored: [] },
    );
    expect(recoloured).toEqual([{ label: "Beliebt", color: "#f59e0b" }]);
  });
});
