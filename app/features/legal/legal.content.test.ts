import { describe, expect, it } from "vitest";
import { checkLegalMarkdown } from "./legal.content";

describe("legal Markdown rules", () => {
  it("rejects an empty file", () => {
    expect(checkLegalMarkdown("content/legal/terms.md", "  \n", "Kestrel Software")).toEqual([
      "content/legal/terms.md: expected Markdown text, got an empty file",
    ]);
  });

  it("rejects template placeholders", () => {
    expect(
      checkLegalMarkdown("content/legal/privacy.md", "Kestrel Software, [Company Address].", "Kestrel Software"),
    ).toEqual(['content/legal/privacy.md: contains the placeholder "[Company Address]"']);
    expect(
      checkLegalMarkdown("content/legal/privacy.md", "Kestrel Software since {{year}}.", "Kestrel Software"),
    ).toEqual(['content/legal/privacy.md: contains the placeholder "{{"']);
    expect(
      checkLegalMarkdown("content/legal/privacy.md", "Kestrel Software. TODO: address.", "Kestrel Software"),
    ).toEqual(['content/legal/privacy.md: contains the placeholder "TODO"']);
  });

  it("reads the markers in capitals only: Spanish and Portuguese write todo for all", () => {
    expect(
      checkLegalMarkdown(
        "content/locales/es/legal/refund.md",
        "Kestrel Software revisa todo pedido.",
        "Kestrel Software",
      ),
    ).toEqual([]);
  });

  it("accepts ordinary Markdown links", () => {
    expect(
      checkLegalMarkdown(
        "content/legal/terms.md",
        "Kestrel Software: see the [Refund Policy](/refund).",
        "Kestrel Software",
      ),
    ).toEqual([]);
  });

  it("rejects a page that never names the company", () => {
    expect(checkLegalMarkdown("content/legal/dmca.md", "We respect copyright.", "Kestrel Software")).toEqual([
      'content/legal/dmca.md: expected the company name "Kestrel Software" in the text',
    ]);
  });
});
