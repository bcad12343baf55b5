import { describe, expect, it } from "vitest";
import { flagEmoji, roundedToHour, timeAgo } from "./recent-sales";

describe("the recent-sales notice's words", () => {
  it("draws a country's flag from its code, and nothing for what is not one", () => {
    expect(flagEmoji("DE")).toBe("🇩🇪");
    expect(flagEmoji("BR")).toBe("🇧🇷");
    expect(flagEmoji("de")).toBe("");
    expect(flagEmoji("DEU")).toBe("");
  });

  it("rounds a sale's time down to the hour", () => {
    expect(roundedToHour(Date.parse("2026-11-20T10:59:59.999Z"))).toBe("2026-11-20T10:00:00.000Z");
  });

  it("says how long ago in hours, then in days, in the page's language", () => {
    const now = Date.parse("2026-11-20T12:30:00Z");
    expect(timeAgo("2026-11-20T10:00:00.000Z", now, "en")).toBe("2 hours ago");
    expect(timeAgo("2026-11-17T12:00:00.000Z", now, "en")).toBe("3 days ago");
    expect(timeAgo("2026-11-20T10:00:00.000Z", now, "de")).toBe("vor 2 Stunden");
  });
});
