import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { discordPayloadProblems } from "../../../tests/fakes/chat-webhook-receiver";
import { buildChatChannelMessage, embedTextLength, escapeMarkdown, retryAfterMs, truncateSafely } from "./chat-channel.server";
import { SUPPORT_QUESTIONS } from "./support-chat";

const base = {
  id: "6f1c1f0e-8d1b-4c52-9a55-0d6f1e9b2f10",
  category: "Product Support",
  questions: SUPPORT_QUESTIONS["Product Support"],
  createdAt: "2026-11-21T09:05:00.000Z",
};

describe("chat channel message", () => {
  it("puts each question in bold above its answer, sections separated by blank lines", () => {
    const message = buildChatChannelMessage({ ...base, answers: ["Kestrel Vault", "It crashes", "Reinstalled", "me@example.com"] });
    expect(message.content).toBe("New Product Support Request");
    expect(message.embeds?.[0]).toEqual({
      title: "Support Request - Product Support",
      description: [
        "**Which product are you having issues with?**\nKestrel Vault",
        "**Please describe the issue you are experiencing.**\nIt crashes",
        "**What steps have you already tried to solve it?**\nReinstalled",
        "**What is your email address or chat username, so we can reach you?**\nme@example.com",
      ].join("\n\n"),
      color: 5793266,
      timestamp: "2026-11-21T09:05:00.000Z",
      footer: { text: `Request ID: ${base.id}` },
    });
    expect(message.allowed_mentions).toEqual({ parse: [] });
  });

  it('writes "No answer provided" for a missing or blank answer', () => {
    const message = buildChatChannelMessage({ ...base, answers: ["Kestrel Vault", "  "] });
    const description = message.embeds?.[0]?.description ?? "";
    expect(description.split("\n\n").map((s) => s.split("\n")[1])).toEqual(["Kestrel Vault", "No answer provided", "No answer provided", "No answer provided"]);
  });

  it("escapes Markdown so answers show literally and cannot ping anyone", () => {
    expect(escapeMarkdown("**bold** _it_ ~~x~~ `code` ||spoiler|| [link](https://x.y) > quote # head - item <@123>")).toBe(
      "\\*\\*bold\\*\\* \\_it\\_ \\~\\~x\\~\\~ \\`code\\` \\|\\|spoiler\\|\\| \\[link\\]\\(https://x.y\\) \\> quote \\# head \\- item \\<@123\\>",
    );
    expect(escapeMarkdown("1. first\n2. second")).toBe("1\\. first\n2\\. second");
    expect(escapeMarkdown("C:\\path")).toBe("C:\\\\path");
    const message = buildChatChannelMessage({ ...base, answers: ["@everyone **now**", "x", "y", "me@example.com"] });
    expect(message.embeds?.[0]?.description).toContain("\n@everyone \\*\\*now\\*\\*\n");
    expect(message.embeds?.[0]?.description).toContain("me@example.com");
  });

  it("keeps every Discord limit with the longest answers, even when escaping doubles them", () => {
    const answers = SUPPORT_QUESTIONS["Product Support"].map(() => "*".repeat(900));
    const message = buildChatChannelMessage({ ...base, answers });
    const embed = message.embeds?.[0];
    expect(embed?.description?.length).toBeLessThanOrEqual(4096);
    expect(embedTextLength(message)).toBeLessThanOrEqual(6000);
    expect(discordPayloadProblems(message)).toEqual([]);
    // Every answer keeps a fair share and ends cleanly (no dangling backslash before the ellipsis).
    for (const section of embed?.description?.split("\n\n") ?? []) {
      expect(section.length).toBeGreaterThan(900);
      expect(section).toMatch(/(\\\*)+…$/);
    }
  });

  it("keeps short answers whole and trims only the long one", () => {
    const answers = ["Vault", "<".repeat(900), "tried", "me@example.com"];
    const description = buildChatChannelMessage({ ...base, answers }).embeds?.[0]?.description ?? "";
    expect(description).toContain("\nVault\n\n");
    expect(description).toContain("\ntried\n\n");
    expect(description.endsWith("\nme@example.com")).toBe(true);
    expect(description.length).toBeLessThanOrEqual(4096);
  });

  it("holds the limits for any answers (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 900, unit: "grapheme" }), { minLength: 0, maxLength: 4 }), (answers) => {
        const message = buildChatChannelMessage({ ...base, answers });
        expect(discordPayloadProblems(message)).toEqual([]);
        const description = message.embeds?.[0]?.description ?? "";
        // No lone surrogate from a cut in the middle of an emoji.
        expect(description.isWellFormed()).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("truncates without splitting a surrogate pair", () => {
    expect(truncateSafely("ab😀cd", 4)).toBe("ab…");
    expect(truncateSafely("abc", 3)).toBe("abc");
  });
});

describe("rate-limit wait", () => {
  it("prefers the body's float retry_after, then the Retry-After header (seconds or date)", () => {
    expect(retryAfterMs({ retry_after: 1.234 }, "5")).toBe(1234);
    expect(retryAfterMs({}, "5")).toBe(5000);
    expect(retryAfterMs(null, new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs(null, null)).toBeUndefined();
  });
});
