import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SUPPORT_CATEGORIES, SUPPORT_QUESTIONS, supportRequestSchema } from "~/features/support-chat/support-chat";
import { discordPayloadProblems } from "../../../tests/fakes/chat-webhook-receiver";
import { STATUS_ALERT_FIELDS } from "./support-outbox.server";
import {
  buildChatChannelMessage,
  type ChatChannelMessage,
  embedTextLength,
  escapeMarkdown,
  languageName,
  markHiddenCharacters,
  renderAnswer,
  retryAfterMs,
  STATUS_ALERT_CATEGORY,
  STATUS_ALERT_COLORS,
  truncateSafely,
} from "./chat-channel.server";

const base = {
  id: "6f1c1f0e-8d1b-4c52-9a55-0d6f1e9b2f10",
  category: "Product Support",
  questions: SUPPORT_QUESTIONS["Product Support"],
  createdAt: "2026-11-21T09:05:00.000Z",
};

/** Each answer as the channel shows it, read back from the descriptions of every embed in order. */
function answersAsPosted(message: ChatChannelMessage, questions: readonly string[]): string[] {
  const text = (message.embeds ?? []).map((e) => e.description ?? "").join("");
  const headings = questions.map((q) => `**${escapeMarkdown(q)}**\n`);
  const starts = headings.map((h) => text.indexOf(h));
  return headings.map((h, i) => text.slice((starts[i] ?? 0) + h.length, starts[i + 1]).replace(/\n\n$/, ""));
}

describe("chat channel message", () => {
  it("puts each question in bold above its answer, sections separated by blank lines", () => {
    const message = buildChatChannelMessage({
      ...base,
      answers: ["Kestrel Vault", "It crashes", "Reinstalled", "me@example.com"],
    });
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
    expect(description.split("\n\n").map((s) => s.split("\n")[1])).toEqual([
      "Kestrel Vault",
      "No answer provided",
      "No answer provided",
      "No answer provided",
    ]);
  });

  it("escapes Markdown so answers show literally and cannot ping anyone", () => {
    expect(
      escapeMarkdown("**bold** _it_ ~~x~~ `code` ||spoiler|| [link](https://x.y) > quote # head - item <@123>"),
    ).toBe(
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
    for (const embed of message.embeds ?? []) expect(embed.description?.length).toBeLessThanOrEqual(4096);
    expect(embedTextLength(message)).toBeLessThanOrEqual(6000);
    expect(discordPayloadProblems(message)).toEqual([]);
    // 7,200 escaped characters cannot fit 6,000: each answer keeps a fair share and ends cleanly (no dangling backslash).
    for (const answer of answersAsPosted(message, base.questions)) {
      expect(answer.length).toBeGreaterThan(1300);
      expect(answer).toMatch(/^(\\\*)+…$/);
    }
  });

  it("delivers four 900-character answers full of Markdown whole, over two embeds", () => {
    const answers = ["*a", "_b", "[c", "`d"].map((pair) => pair.repeat(450));
    const message = buildChatChannelMessage({ ...base, answers });
    expect(discordPayloadProblems(message)).toEqual([]);
    expect(answersAsPosted(message, base.questions)).toEqual(answers.map(escapeMarkdown));
    const [first, second] = message.embeds ?? [];
    expect(message.embeds).toHaveLength(2);
    expect(first?.title).toBe("Support Request - Product Support");
    expect(first?.footer).toBeUndefined();
    expect(second).toMatchObject({
      color: 5793266,
      timestamp: base.createdAt,
      footer: { text: `Request ID: ${base.id}` },
    });
    expect(second?.title).toBeUndefined();
    // Whole sections stay together: the second embed starts with a question.
    expect(second?.description).toMatch(/^\*\*What steps have you already tried to solve it\?\*\*\n/);
  });

  it("keeps short answers whole and trims only the one that cannot fit", () => {
    const answers = ["Vault", "\u200B".repeat(900), "tried", "me@example.com"];
    const message = buildChatChannelMessage({ ...base, answers });
    const posted = answersAsPosted(message, base.questions);
    expect([posted[0], posted[2], posted[3]]).toEqual(["Vault", "tried", "me@example.com"]);
    expect(posted[1]).toMatch(/^(\\\[U\+200B\\\])+.*…$/);
    expect(embedTextLength(message)).toBeGreaterThan(5900);
    expect(discordPayloadProblems(message)).toEqual([]);
  });

  it("splits an answer too long for one description where no escape or surrogate pair breaks", () => {
    // 900 characters that the channel shows as 4,320: marks, emoji and escaped backslashes where a split could land.
    const long = "\u200B\u200B😀\\".repeat(180);
    const message = buildChatChannelMessage({ ...base, answers: ["a", long, "b", "c"] });
    expect(discordPayloadProblems(message)).toEqual([]);
    expect(message.embeds?.length).toBeGreaterThan(1);
    expect(answersAsPosted(message, base.questions)[1]).toBe(renderAnswer(long));
    for (const embed of message.embeds ?? []) {
      expect(embed.description?.isWellFormed()).toBe(true);
      // An odd run of backslashes at the end would escape nothing and leave the next embed's first character bare.
      expect(/\\+$/.exec(embed.description ?? "")?.[0].length ?? 0).toSatisfy((n: number) => n % 2 === 0);
    }
  });

  it("holds the limits for any answers (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 900, unit: "grapheme" }), { minLength: 0, maxLength: 4 }),
        (answers) => {
          const message = buildChatChannelMessage({ ...base, answers });
          expect(discordPayloadProblems(message)).toEqual([]);
          const description = message.embeds?.[0]?.description ?? "";
          // No lone surrogate from a cut in the middle of an emoji.
          expect(description.isWellFormed()).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("holds the limits for any request the API accepts, and delivers it whole whenever it fits (property)", () => {
    const piece = fc.oneof(
      fc.constantFrom(..."\\*_~`|[]()<>#-@.1 \n\t"),
      fc.constantFrom(
        "\u202E",
        "\u202A",
        "\u2066",
        "\u2069",
        "\u200B",
        "\u200D",
        "\u200F",
        "\u061C",
        "\uFEFF",
        "\u2060",
        "\u00AD",
        "\r",
        "\u0000",
        "\u3164",
      ),
      fc.constantFrom("😀", "👨‍👩‍👧", "❤️", "1️⃣", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "👩🏽‍💻"),
      fc.string({ unit: "grapheme", minLength: 1, maxLength: 3 }),
    );
    const answer = fc
      .array(piece, { minLength: 1, maxLength: 900, size: "max" })
      .map((pieces) => pieces.join("").slice(0, 900));
    const request = fc
      .constantFrom(...SUPPORT_CATEGORIES)
      .chain((category) =>
        fc.tuple(
          fc.constant(category),
          fc.array(answer, {
            minLength: SUPPORT_QUESTIONS[category].length,
            maxLength: SUPPORT_QUESTIONS[category].length,
          }),
        ),
      )
      .map(([category, answers]) => supportRequestSchema.safeParse({ category, answers, altcha: "x" }))
      .filter((parsed) => parsed.success)
      .map((parsed) => parsed.data);
    fc.assert(
      fc.property(request, ({ category, answers }) => {
        const questions = SUPPORT_QUESTIONS[category];
        const message = buildChatChannelMessage({ ...base, category, questions, answers });
        expect(discordPayloadProblems(message)).toEqual([]);
        const shown = (message.embeds ?? []).map((e) => e.description ?? "").join("");
        expect(
          [...shown].filter(
            (c) =>
              c === "\r" ||
              c === "\u0000" ||
              /[\u202A-\u202E\u2066-\u2069\u200B\u200E\u200F\u061C\uFEFF\u2060-\u2064\u00AD\u3164]/.test(c),
          ),
        ).toEqual([]);
        const rendered = answers.map(renderAnswer);
        const posted = answersAsPosted(message, questions);
        const fixed =
          `Support Request - ${category}`.length +
          `Request ID: ${base.id}`.length +
          questions.reduce((sum, q) => sum + `**${escapeMarkdown(q)}**\n`.length, 0) +
          2 * (questions.length - 1);
        if (fixed + rendered.reduce((sum, r) => sum + r.length, 0) <= 6000) expect(posted).toEqual(rendered);
        else
          for (const [i, text] of posted.entries())
            expect(text === rendered[i] || (text.endsWith("…") && rendered[i]?.startsWith(text.slice(0, -1)))).toBe(
              true,
            );
      }),
      { numRuns: 150 },
    );
  });

  it("truncates without splitting a surrogate pair", () => {
    expect(truncateSafely("ab😀cd", 4)).toBe("ab…");
    expect(truncateSafely("abc", 3)).toBe("abc");
  });

  it("truncates between graphemes: a joined emoji or an accented letter stays whole or goes whole", () => {
    expect(truncateSafely("ab👨‍👩‍👧cd", 9)).toBe("ab…");
    expect(truncateSafely("ab👨‍👩‍👧cd", 11)).toBe("ab👨‍👩‍👧…");
    expect(truncateSafely("abe\u0301cd", 4)).toBe("ab…");
  });

  it("splits a long answer only between graphemes (property)", () => {
    const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });
    // No spaces or line breaks, so the split may fall anywhere; zero-width spaces (12 characters each when marked and escaped) make the answer overflow one description.
    const piece = fc
      .tuple(fc.constantFrom("👨‍👩‍👧", "🏴󠁧󠁢󠁳󠁣󠁴󠁿", "e\u0301", "👩🏽‍💻", "a", "*"), fc.integer({ min: 8, max: 12 }))
      .map(([text, spaces]) => "\u200B".repeat(spaces) + text);
    const answer = fc
      .array(piece, { minLength: 100, maxLength: 100 })
      .map((pieces) => pieces.reduce((text, p) => (text.length + p.length <= 900 ? text + p : text), ""));
    fc.assert(
      fc.property(answer, (long) => {
        const message = buildChatChannelMessage({ ...base, answers: ["a", long, "b", "c"] });
        expect(message.embeds?.length).toBeGreaterThan(1);
        expect(discordPayloadProblems(message)).toEqual([]);
        const descriptions = (message.embeds ?? []).map((e) => e.description ?? "");
        const whole = [...graphemes.segment(descriptions.join(""))].map((g) => g.index);
        let at = 0;
        for (const description of descriptions.slice(0, -1)) {
          at += description.length;
          expect(whole).toContain(at);
        }
      }),
      { numRuns: 50 },
    );
  });
});

describe("hidden characters", () => {
  it.each([
    ["a right-to-left override", "me@\u202Emoc.elpmaxe", "me@[U+202E]moc.elpmaxe"],
    [
      "embeddings, isolates and marks",
      "\u202Aa\u202Bb\u202Cc\u202Dd\u2066e\u2067f\u2068g\u2069h\u200Ei\u200Fj\u061Ck",
      "[U+202A]a[U+202B]b[U+202C]c[U+202D]d[U+2066]e[U+2067]f[U+2068]g[U+2069]h[U+200E]i[U+200F]j[U+061C]k",
    ],
    [
      "zero-width and invisible characters",
      "p\u200Ba\u200Cy\uFEFFp\u2060a\u2061l\u2062.\u2063c\u2064o\u00ADm\u3164",
      "p[U+200B]a[U+200C]y[U+FEFF]p[U+2060]a[U+2061]l[U+2062].[U+2063]c[U+2064]o[U+00AD]m[U+3164]",
    ],
    [
      "control characters other than line breaks and tabs",
      "a\u0000b\rc\u007Fd\u2028e",
      "a[U+0000]b[U+000D]c[U+007F]d[U+2028]e",
    ],
    ["a joiner or selector outside an emoji", "me\u200D@ex\uFE0Fample.com", "me[U+200D]@ex[U+FE0F]ample.com"],
  ])("marks %s visibly", (_name, text, marked) => {
    expect(markHiddenCharacters(text)).toBe(marked);
  });

  it("keeps emoji whole (joined families, skin tones, presentation selectors, keycaps, subdivision flags), line breaks and tabs", () => {
    const text = "👨‍👩‍👧 👩🏽‍💻 🏳️‍🌈 ❤️ 1️⃣ 🏴󠁧󠁢󠁳󠁣󠁴󠁿 葛\u{E0100}\nline\ttab";
    expect(markHiddenCharacters(text)).toBe(text);
  });

  it("shows a marked contact address in the message, escaped so the brackets stay literal", () => {
    const message = buildChatChannelMessage({ ...base, answers: ["Vault", "x", "y", "me@\u202Emoc.elpmaxe"] });
    expect(message.embeds?.[0]?.description?.endsWith("\nme@\\[U+202E\\]moc.elpmaxe")).toBe(true);
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

describe("status alert message", () => {
  const alert = (headline: string) =>
    buildChatChannelMessage({
      id: "8c0e7d7e-0000-4000-8000-000000000001",
      category: STATUS_ALERT_CATEGORY,
      questions: STATUS_ALERT_FIELDS,
      answers: [
        headline,
        "3 checks in a row failed; last: HTTP 503, expected 200.",
        "https://shop.example/status/incidents/7",
      ],
      createdAt: "2026-11-24T10:03:00.000Z",
    });

  it("reads as an alert: the headline as title, the probe's findings and the incident's link", () => {
    const message = alert("Kestrel Vault is down");
    expect(message.content).toBe("Status alert: Kestrel Vault is down");
    expect(message.embeds?.[0]).toMatchObject({
      title: "Kestrel Vault is down",
      color: STATUS_ALERT_COLORS.outage,
      footer: { text: "Alert ID: 8c0e7d7e-0000-4000-8000-000000000001" },
    });
    expect(message.embeds?.[0]?.description).toBe(
      "**What the probe saw**\n3 checks in a row failed; last: HTTP 503, expected 200.\n\n**Incident**\nhttps://shop.example/status/incidents/7",
    );
    expect(message.allowed_mentions).toEqual({ parse: [] });
    expect(discordPayloadProblems(message)).toEqual([]);
  });

  it("is green when the product is back", () => {
    expect(alert("Kestrel Vault is back up").embeds?.[0]?.color).toBe(STATUS_ALERT_COLORS.operational);
  });
});

describe("the visitor's language", () => {
  it("is named in English in a field of its own, so the description stays the seed's exactly", () => {
    const answers = ["Kestrel Vault", "Es stürzt ab", "Neu installiert", "ich@example.com"];
    const message = buildChatChannelMessage({ ...base, locale: "de", answers });
    const english = buildChatChannelMessage({ ...base, locale: "en", answers });
    expect(message.content).toBe("New Product Support Request");
    expect(message.embeds?.[0]?.title).toBe("Support Request - Product Support");
    expect(message.embeds?.[0]?.fields).toEqual([{ name: "Language", value: "German (de)", inline: true }]);
    const seed = [
      "**Which product are you having issues with?**\nKestrel Vault",
      "**Please describe the issue you are experiencing.**\nEs stürzt ab",
      "**What steps have you already tried to solve it?**\nNeu installiert",
      "**What is your email address or chat username, so we can reach you?**\nich@example.com",
    ].join("\n\n");
    expect(message.embeds?.[0]?.description).toBe(seed);
    // English adds nothing at all.
    expect(english.embeds?.[0]?.description).toBe(seed);
    expect(english.embeds?.[0]?.fields).toBeUndefined();
  });

  it("names every language the shop speaks, and leaves a code it does not know as it is", () => {
    expect(["en", "de", "es", "pt-br", "ar"].map(languageName)).toEqual([
      "English (en)",
      "German (de)",
      "Spanish (es)",
      "Brazilian Portuguese (pt-br)",
      "Arabic (ar)",
    ]);
    expect(languageName("xx-unknown")).toBe("xx-unknown");
  });

  it("still keeps every Discord limit with the longest answers", () => {
    const answers = SUPPORT_QUESTIONS["Product Support"].map(() => "*".repeat(900));
    const message = buildChatChannelMessage({ ...base, locale: "pt-br", answers });
    expect(embedTextLength(message)).toBeLessThanOrEqual(6000);
    expect(discordPayloadProblems(message)).toEqual([]);
    expect(message.embeds?.[0]?.fields?.[0]?.value).toBe("Brazilian Portuguese (pt-br)");
    expect(message.embeds?.[0]?.description).toMatch(/^\*\*Which/);
  });
});
