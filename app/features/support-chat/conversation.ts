// The conversation as pure state: what the visitor has chosen and answered, and where the chat stands.
import { z } from "zod";
import {
  CLOSING_MESSAGES,
  GREETING,
  MAX_ANSWER_LENGTH,
  SUPPORT_CATEGORIES,
  SUPPORT_QUESTIONS,
  type SupportCategory,
} from "./support-chat";

export const PLACEHOLDER_BEFORE_CATEGORY = "Select category first...";
export const PLACEHOLDER_ANSWERING = "Type your answer...";

export const chatMessageSchema = z.object({
  id: z.string(),
  content: z.string(),
  isUser: z.boolean(),
  timestamp: z.string(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** idle: not submitted yet; sending: POST in flight; sent: accepted by our server; failed: may be retried. */
export const submissionStatuses = ["idle", "sending", "sent", "failed"] as const;
export type SubmissionStatus = (typeof submissionStatuses)[number];

export const chatStateSchema = z.object({
  messages: z.array(chatMessageSchema),
  category: z.enum(SUPPORT_CATEGORIES).nullable(),
  answers: z.array(z.string()),
  submission: z.enum(submissionStatuses),
});
export type ChatState = z.infer<typeof chatStateSchema>;

export type ChatPhase = "choosing" | "answering" | "submitting" | "complete";

function message(state: ChatState, content: string, isUser: boolean, now: Date): ChatMessage {
  // Built from the time; the position keeps ids unique when two messages share a millisecond.
  return { id: `${now.getTime()}-${state.messages.length}`, content, isUser, timestamp: now.toISOString() };
}

function append(state: ChatState, content: string, isUser: boolean, now: Date): ChatState {
  return { ...state, messages: [...state.messages, message(state, content, isUser, now)] };
}

export function initialChatState(now: Date): ChatState {
  return append({ messages: [], category: null, answers: [], submission: "idle" }, GREETING, false, now);
}

export function chatPhase(state: ChatState): ChatPhase {
  if (state.category === null) return "choosing";
  if (state.answers.length < SUPPORT_QUESTIONS[state.category].length) return "answering";
  return state.submission === "idle" || state.submission === "sending" ? "submitting" : "complete";
}

export function chooseCategory(state: ChatState, category: SupportCategory, now: Date): ChatState {
  if (chatPhase(state) !== "choosing") return state;
  const withChoice = append({ ...state, category }, category, true, now);
  return append(withChoice, SUPPORT_QUESTIONS[category][0] ?? "", false, now);
}

/** Why an answer cannot be sent right now, or null when it can. */
export function answerProblem(
  state: ChatState,
  text: string,
): "no-category" | "complete" | "empty" | "too-long" | null {
  const phase = chatPhase(state);
  if (phase === "choosing") return "no-category";
  if (phase !== "answering") return "complete";
  if (text.trim() === "") return "empty";
  if (text.trim().length > MAX_ANSWER_LENGTH) return "too-long";
  return null;
}

/** Records one answer and asks the next question; the last answer moves the chat to submitting. */
export function submitAnswer(state: ChatState, text: string, now: Date): ChatState {
  if (answerProblem(state, text) !== null || state.category === null) return state;
  const answer = text.trim();
  const answered = append({ ...state, answers: [...state.answers, answer] }, answer, true, now);
  const next = SUPPORT_QUESTIONS[state.category][answered.answers.length];
  return next === undefined ? answered : append(answered, next, false, now);
}

export function markSending(state: ChatState): ChatState {
  return chatPhase(state) === "submitting" || state.submission === "failed"
    ? { ...state, submission: "sending" }
    : state;
}

/** The closing message is posted once, after the first attempt, whatever its outcome. */
export function markSubmitted(state: ChatState, outcome: "sent" | "failed", now: Date): ChatState {
  if (state.category === null || state.answers.length < SUPPORT_QUESTIONS[state.category].length) return state;
  const closing = CLOSING_MESSAGES[state.category];
  const alreadyClosed = state.messages.some((m) => !m.isUser && m.content === closing);
  const next = { ...state, submission: outcome };
  return alreadyClosed ? next : append(next, closing, false, now);
}

export function placeholderFor(state: ChatState): string {
  return state.category === null ? PLACEHOLDER_BEFORE_CATEGORY : PLACEHOLDER_ANSWERING;
}

/** Input and send are usable only while a question waits for its answer. */
export function canType(state: ChatState): boolean {
  return chatPhase(state) === "answering";
}

/** A state restored from sessionStorage; a reload during sending leaves a retryable request. */
export function restoreChatState(raw: string | null, now: Date): ChatState {
  if (raw === null) return initialChatState(now);
  try {
    const parsed = chatStateSchema.safeParse(JSON.parse(raw));
    if (!parsed.success || parsed.data.messages.length === 0) return initialChatState(now);
    return parsed.data.submission === "sending" ? markSubmitted(parsed.data, "failed", now) : parsed.data;
  } catch {
    return initialChatState(now);
  }
}

/**
 * hh:mm in the visitor's local time, written by the page's language (its digits and separator); a 24-hour clock in
 * every language, as chats show it. The panel renders only in the browser, so the local zone never meets the server's.
 */
export function formatMessageTime(timestamp: string, localeTag = "en"): string {
  return new Date(timestamp).toLocaleTimeString(localeTag, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
}

/** What can happen to the conversation; times come in with the action so the reducer stays pure. */
export type ConversationAction =
  | { type: "choose-category"; category: SupportCategory; now: Date }
  | { type: "answer"; text: string; now: Date }
  | { type: "sending" }
  | { type: "submitted"; outcome: "sent" | "failed"; now: Date }
  | { type: "start-over"; now: Date };

/** The conversation for `useReducer`: each action maps to one of the transitions above. */
export function conversationReducer(state: ChatState, action: ConversationAction): ChatState {
  switch (action.type) {
    case "choose-category":
      return chooseCategory(state, action.category, action.now);
    case "answer":
      return submitAnswer(state, action.text, action.now);
    case "sending":
      return markSending(state);
    case "submitted":
      return markSubmitted(state, action.outcome, action.now);
    case "start-over":
      return initialChatState(action.now);
  }
}
