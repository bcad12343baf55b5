import { useLingui } from "@lingui/react/macro";
import { type KeyboardEvent, useCallback, useEffect, useReducer, useRef, useState } from "react";
import { solveCaptcha } from "~/features/captcha/captcha-solver.client";
import { useLocale } from "~/features/i18n/use-locale";
import { toast } from "~/features/layout/toasts";
import {
  answerProblem,
  type ChatState,
  canType,
  chatPhase,
  conversationReducer,
  initialChatState,
  restoreChatState,
} from "./conversation";
import { SUPPORT_CHAT_PANEL_ID } from "./open-support-chat";
import { COUNTER_THRESHOLD, type SupportCategory } from "./support-chat";
import { postSupportRequest } from "./support-chat-api";
import { conversationSendFailureText, sendFailureText } from "./support-chat-messages";
import { usePanelConversation } from "./use-panel-conversation";

const STORAGE_KEY = "kestrel:support-chat";

function readStoredState(): ChatState {
  try {
    return restoreChatState(window.sessionStorage.getItem(STORAGE_KEY), new Date());
  } catch {
    // Storage can be blocked (privacy settings); the chat then simply starts fresh.
    return initialChatState(new Date());
  }
}

function storeState(state: ChatState) {
  try {
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(state));
  } catch {}
}

type FocusTarget = "input" | "finish" | "category";

/**
 * Everything the chat panel does besides markup: the conversation (kept in sessionStorage across navigation and
 * reloads), where focus goes after each step, Escape, and submitting the answers with a solved captcha.
 */
export function useSupportChat({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, i18n } = useLingui();
  const { locale } = useLocale();
  const [state, dispatch] = useReducer(conversationReducer, undefined, readStoredState);
  const [draft, setDraft] = useState("");
  const stateRef = useRef(state);
  stateRef.current = state;
  const panelRef = useRef<HTMLElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const categoryTriggerRef = useRef<HTMLButtonElement>(null);
  const finishRef = useRef<HTMLButtonElement>(null);
  /** Where focus should go once the next state change has rendered (the target may not exist or be enabled yet). */
  const pendingFocus = useRef<FocusTarget | null>(null);

  useEffect(() => storeState(state), [state]);
  const conversation = usePanelConversation({ open, state });
  const live = conversation.view;

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after every state change has rendered.
  useEffect(() => {
    const target = pendingFocus.current;
    if (target === null) return;
    pendingFocus.current = null;
    // Never pull focus back if the visitor has moved elsewhere on the page meanwhile.
    const focused = document.activeElement;
    if (
      focused &&
      focused !== document.body &&
      !panelRef.current?.contains(focused) &&
      !focused.closest('[role="menu"]')
    )
      return;
    const element = { input: inputRef, finish: finishRef, category: categoryTriggerRef }[target].current;
    element?.focus();
  }, [state]);

  const messageCount = live ? live.messages.length : state.messages.length;
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll whenever a message is added or the panel opens.
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [messageCount, open]);

  const canAnswerRef = useRef(false);
  canAnswerRef.current = conversation.canAnswer;
  const inConversationRef = useRef(false);
  inConversationRef.current = live !== null;
  const focusCurrentControl = useCallback(() => {
    const phaseNow = chatPhase(stateRef.current);
    if (canAnswerRef.current) inputRef.current?.focus();
    else if (inConversationRef.current) finishRef.current?.focus();
    else if (phaseNow === "choosing") categoryTriggerRef.current?.focus();
    else if (phaseNow === "answering") inputRef.current?.focus();
    else if (phaseNow === "complete") finishRef.current?.focus();
    else panelRef.current?.focus();
  }, []);

  useEffect(() => {
    if (open) focusCurrentControl();
  }, [open, focusCurrentControl]);

  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: globalThis.KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      // Only when the visitor is in the chat (or nowhere in particular): Escape in another widget stays that widget's.
      const focused = document.activeElement;
      const inChat =
        panelRef.current?.contains(focused) ||
        focused === document.body ||
        focused?.getAttribute("aria-controls") === SUPPORT_CHAT_PANEL_ID;
      if (inChat) onClose();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [open, onClose]);

  const { onSubmitted } = conversation;
  const submitRequest = useCallback(async () => {
    const current = stateRef.current;
    if (current.category === null) return;
    dispatch({ type: "sending" });
    let outcome: "sent" | "failed" = "sent";
    try {
      const { payload: altcha } = await solveCaptcha();
      const sent = await postSupportRequest({ category: current.category, answers: current.answers, locale, altcha });
      onSubmitted(sent.conversation);
      toast.success(t`Request submitted`, { description: t`Our support team will respond shortly.` });
    } catch (error) {
      outcome = "failed";
      console.error("Support chat: the request could not be submitted", error);
      toast.error(t({ message: "Error", comment: "Support chat: the title of the toast saying sending failed" }), {
        description: sendFailureText(i18n, error),
      });
    }
    // Focus lands on the button that matters next (Retry sending or New request) once it renders.
    pendingFocus.current = "finish";
    dispatch({ type: "submitted", outcome, now: new Date() });
  }, [locale, t, i18n, onSubmitted]);

  const chooseCategory = (category: SupportCategory) => {
    pendingFocus.current = "input";
    dispatch({ type: "choose-category", category, now: new Date() });
  };

  /** A message in the conversation the team answered: the draft stays until the server took it. */
  const sendToConversation = async () => {
    if (!conversation.canAnswer || conversation.sending || !conversation.isValidMessage(draft)) return;
    const result = await conversation.sendMessage(draft.trim());
    if (result.ok) {
      setDraft("");
      return;
    }
    console.error("Support chat: the message could not be sent", result.error);
    toast.error(t({ message: "Error", comment: "Support chat: the title of the toast saying sending failed" }), {
      description: conversationSendFailureText(i18n, result.error),
    });
  };

  const send = () => {
    if (live !== null) {
      void sendToConversation();
      return;
    }
    if (answerProblem(state, draft) !== null) return;
    const action = { type: "answer", text: draft, now: new Date() } as const;
    // The reducer is pure, so this is exactly the state the dispatch below leads to.
    const next = conversationReducer(state, action);
    dispatch(action);
    setDraft("");
    if (chatPhase(next) === "submitting") {
      stateRef.current = next;
      panelRef.current?.focus();
      void submitRequest();
    }
  };

  const onInputKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  const startOver = () => {
    conversation.onStartOver();
    pendingFocus.current = "category";
    dispatch({ type: "start-over", now: new Date() });
    setDraft("");
  };

  const typing = live !== null ? conversation.canAnswer : canType(state);
  return {
    state,
    phase: chatPhase(state),
    /** The conversation the request opened (or this browser's latest), once read from the server; null before. */
    conversation: live,
    conversationLink: conversation.link,
    draft,
    setDraft,
    typing,
    canSend:
      live !== null
        ? typing && !conversation.sending && conversation.isValidMessage(draft)
        : typing && answerProblem(state, draft) === null,
    showCounter: draft.length >= COUNTER_THRESHOLD,
    lastBotMessage: state.messages.findLast((m) => !m.isUser),
    refs: { panelRef, listRef, inputRef, categoryTriggerRef, finishRef },
    chooseCategory,
    send,
    onInputKeyDown,
    retrySending: () => void submitRequest(),
    startOver,
  };
}
