import { setupI18n } from "@lingui/core";
import { describe, expect, it } from "vitest";
import { chooseCategory, initialChatState, submitAnswer } from "./conversation";
import { CLOSING_MESSAGES, GREETING, SUPPORT_CATEGORIES, SUPPORT_QUESTIONS } from "./support-chat";
import { SupportRequestError } from "./support-chat-api";
import { CATEGORY_NAMES, CHAT_LINES, sendFailureText, shownPlaceholder, shownText } from "./support-chat-messages";

// No catalogue: each message shows its English source, which must be the English line the conversation keeps.
const english = setupI18n({ locale: "en", messages: { en: {} } });
const now = new Date("2026-11-21T09:05:00.000Z");

describe("the chat's messages", () => {
  it("have a message for every line we say, with the very English text the conversation keeps", () => {
    const lines = [
      GREETING,
      ...SUPPORT_CATEGORIES.flatMap((c) => SUPPORT_QUESTIONS[c]),
      ...SUPPORT_CATEGORIES.map((c) => CLOSING_MESSAGES[c]),
    ];
    for (const line of lines) {
      const message = CHAT_LINES.get(line);
      expect(message, line).toBeDefined();
      expect(english._(message ?? { id: "" })).toBe(line);
    }
    for (const category of SUPPORT_CATEGORIES) expect(english._(CATEGORY_NAMES[category])).toBe(category);
  });

  it("shows our lines and the category choice in the page's language, the visitor's answers as typed", () => {
    const german = setupI18n({
      locale: "de",
      messages: {
        de: {
          [CHAT_LINES.get("Which product key needs to be reset?")?.id ?? ""]: "Welcher Schlüssel?",
          [CATEGORY_NAMES["Key Reset"].id ?? ""]: "Schlüssel zurücksetzen",
        },
      },
    });
    const state = submitAnswer(chooseCategory(initialChatState(now), "Key Reset", now), "Key Reset", now);
    const [greeting, choice, question, answer] = state.messages;
    if (!greeting || !choice || !question || !answer) throw new Error("expected four messages");
    expect(shownText(german, state, choice)).toBe("Schlüssel zurücksetzen");
    expect(shownText(german, state, question)).toBe("Welcher Schlüssel?");
    // Untranslated lines show in English; an answer that happens to read like a category stays as typed.
    expect(shownText(german, state, greeting)).toBe(GREETING);
    expect(shownText(german, state, answer)).toBe("Key Reset");
    expect(shownText(german, state, { ...question, content: "A line an older release said" })).toBe(
      "A line an older release said",
    );
  });

  it("gives the answer box its hint", () => {
    expect(shownPlaceholder(english, initialChatState(now))).toBe("Select category first...");
    expect(shownPlaceholder(english, chooseCategory(initialChatState(now), "Key Reset", now))).toBe(
      "Type your answer...",
    );
  });
});

describe("sendFailureText", () => {
  it('tells a visitor who sent too many (429) to wait: "Too many support requests. Please wait a few minutes and try again."', () => {
    expect(sendFailureText(english, new SupportRequestError(429, "Too many support requests."))).toBe(
      "Too many support requests. Please wait a few minutes and try again.",
    );
  });

  it('says "Failed to send message. Please try again." for any other failure, whatever the server wrote', () => {
    for (const error of [new SupportRequestError(500, "Internal error"), new TypeError("Failed to fetch"), undefined])
      expect(sendFailureText(english, error)).toBe("Failed to send message. Please try again.");
  });
});
