import { describe, expect, it } from "vitest";
import {
  answerProblem,
  canType,
  chatPhase,
  chooseCategory,
  conversationReducer,
  formatMessageTime,
  initialChatState,
  markSending,
  markSubmitted,
  placeholderFor,
  restoreChatState,
  submitAnswer,
} from "./conversation";
import { CLOSING_MESSAGES, GREETING, SUPPORT_CATEGORIES, SUPPORT_QUESTIONS } from "./support-chat";

const now = new Date("2026-11-21T09:05:00.000Z");

function answerAll(category: (typeof SUPPORT_CATEGORIES)[number]) {
  let state = chooseCategory(initialChatState(now), category, now);
  for (let i = 0; i < SUPPORT_QUESTIONS[category].length; i++) state = submitAnswer(state, `answer ${i + 1}`, now);
  return state;
}

describe("support chat conversation", () => {
  it("greets with the category prompt and waits for a category", () => {
    const state = initialChatState(now);
    expect(state.messages).toEqual([
      { id: `${now.getTime()}-0`, content: GREETING, isUser: false, timestamp: now.toISOString() },
    ]);
    expect(chatPhase(state)).toBe("choosing");
    expect(placeholderFor(state)).toBe("Select category first...");
    expect(canType(state)).toBe(false);
  });

  it("posts the chosen category as the visitor's message and asks the first question", () => {
    const state = chooseCategory(initialChatState(now), "Key Reset", now);
    expect(state.messages.slice(1).map((m) => [m.content, m.isUser])).toEqual([
      ["Key Reset", true],
      ["Which product key needs to be reset?", false],
    ]);
    expect(placeholderFor(state)).toBe("Type your answer...");
    expect(new Set(state.messages.map((m) => m.id)).size).toBe(3);
  });

  it("ignores a second category choice", () => {
    const state = chooseCategory(initialChatState(now), "Key Reset", now);
    expect(chooseCategory(state, "Product Support", now)).toBe(state);
  });

  it.each(SUPPORT_CATEGORIES)("asks every %s question in order, then completes", (category) => {
    const state = answerAll(category);
    const botQuestions = state.messages
      .filter((m) => !m.isUser)
      .slice(1)
      .map((m) => m.content);
    expect(botQuestions).toEqual(SUPPORT_QUESTIONS[category]);
    expect(state.answers).toEqual(SUPPORT_QUESTIONS[category].map((_, i) => `answer ${i + 1}`));
    expect(chatPhase(state)).toBe("submitting");
    expect(canType(state)).toBe(false);
  });

  it("refuses empty and whitespace-only answers", () => {
    const state = chooseCategory(initialChatState(now), "Product Support", now);
    expect(answerProblem(state, "")).toBe("empty");
    expect(answerProblem(state, " \n\t ")).toBe("empty");
    expect(submitAnswer(state, "   ", now)).toBe(state);
  });

  it("refuses answers before a category and after completion", () => {
    const fresh = initialChatState(now);
    expect(answerProblem(fresh, "hello")).toBe("no-category");
    expect(submitAnswer(fresh, "hello", now)).toBe(fresh);
    const done = markSubmitted(markSending(answerAll("Key Reset")), "sent", now);
    expect(answerProblem(done, "more")).toBe("complete");
    expect(submitAnswer(done, "more", now)).toBe(done);
  });

  it("refuses answers longer than 900 characters and trims the rest", () => {
    const state = chooseCategory(initialChatState(now), "Product Support", now);
    expect(answerProblem(state, "x".repeat(901))).toBe("too-long");
    expect(answerProblem(state, ` ${"x".repeat(900)} `)).toBeNull();
    expect(submitAnswer(state, "  Vault  ", now).answers).toEqual(["Vault"]);
  });

  it("posts the key reset closing message once the request is sent", () => {
    const sending = markSending(answerAll("Key Reset"));
    expect(sending.submission).toBe("sending");
    expect(canType(sending)).toBe(false);
    const done = markSubmitted(sending, "sent", now);
    expect(done.messages.at(-1)?.content).toBe(
      "Thank you! Your key reset request has been submitted. Your key will usually be reset in the next 1 - 2 hours.",
    );
    expect(chatPhase(done)).toBe("complete");
    expect(canType(done)).toBe(false);
  });

  it("still closes the conversation when sending failed, keeps the answers, and closes only once after a retry", () => {
    const failed = markSubmitted(markSending(answerAll("Purchase Support")), "failed", now);
    expect(failed.messages.at(-1)?.content).toBe(CLOSING_MESSAGES["Purchase Support"]);
    expect(failed.answers).toHaveLength(4);
    const retried = markSubmitted(markSending(failed), "sent", now);
    expect(retried.submission).toBe("sent");
    expect(retried.messages.filter((m) => m.content === CLOSING_MESSAGES["Purchase Support"])).toHaveLength(1);
  });

  it("restores a saved conversation and turns an interrupted send into a retryable failure", () => {
    const sending = markSending(answerAll("Product Support"));
    const restored = restoreChatState(JSON.stringify(sending), now);
    expect(restored.submission).toBe("failed");
    expect(restored.messages.at(-1)?.content).toBe(CLOSING_MESSAGES["Product Support"]);
    expect(restoreChatState("{not json", now).messages.map((m) => m.content)).toEqual([GREETING]);
    expect(restoreChatState(JSON.stringify({ messages: "x" }), now).category).toBeNull();
  });

  it("formats message times as local hh:mm", () => {
    const local = new Date(2026, 10, 21, 7, 4, 59);
    expect(formatMessageTime(local.toISOString())).toBe("07:04");
  });

  it("runs a whole conversation through the reducer: category, answers, sending, sent, start over", () => {
    let state = conversationReducer(initialChatState(now), { type: "choose-category", category: "Key Reset", now });
    for (const text of ["Kestrel Vault", "New PC", "me@example.com"])
      state = conversationReducer(state, { type: "answer", text, now });
    expect(chatPhase(state)).toBe("submitting");
    state = conversationReducer(state, { type: "sending" });
    expect(state.submission).toBe("sending");
    state = conversationReducer(state, { type: "submitted", outcome: "sent", now });
    expect(chatPhase(state)).toBe("complete");
    expect(state.messages.at(-1)?.content).toBe(CLOSING_MESSAGES["Key Reset"]);
    const later = new Date(now.getTime() + 60_000);
    expect(conversationReducer(state, { type: "start-over", now: later })).toEqual(initialChatState(later));
  });

  it("gives the same state as the transition functions and never changes the state it is given", () => {
    const start = chooseCategory(initialChatState(now), "Product Support", now);
    const frozen = JSON.stringify(start);
    expect(conversationReducer(start, { type: "answer", text: " Vault ", now })).toEqual(
      submitAnswer(start, " Vault ", now),
    );
    expect(conversationReducer(start, { type: "answer", text: "  ", now })).toBe(start);
    expect(JSON.stringify(start)).toBe(frozen);
  });
});
