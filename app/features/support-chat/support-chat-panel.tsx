import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { type KeyboardEvent, useCallback, useEffect, useId, useRef, useState } from "react";
import { toast } from "~/features/layout/toasts";
import { loadCaptchaWidget } from "~/features/captcha/captcha-widget.client";
import { solveCaptcha } from "./captcha-solver.client";
import {
  answerProblem,
  COUNTER_THRESHOLD,
  type ChatState,
  canType,
  chatPhase,
  chooseCategory,
  formatMessageTime,
  initialChatState,
  MAX_ANSWER_LENGTH,
  markSending,
  markSubmitted,
  placeholderFor,
  restoreChatState,
  SUPPORT_CATEGORIES,
  type SupportCategory,
  submitAnswer,
} from "./support-chat";
import { postSupportRequest } from "./support-chat-client";

const STORAGE_KEY = "kestrel:support-chat";
/** Must match the launcher's aria-controls. */
export const SUPPORT_CHAT_PANEL_ID = "support-chat-panel";

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

/** The support chat panel: loaded lazily by the launcher and kept mounted (hidden) after the first open. */
export default function SupportChatPanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [state, setState] = useState<ChatState>(readStoredState);
  const [draft, setDraft] = useState("");
  const stateRef = useRef(state);
  stateRef.current = state;
  const panelRef = useRef<HTMLElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const categoryTriggerRef = useRef<HTMLButtonElement>(null);
  const finishRef = useRef<HTMLButtonElement>(null);
  const captchaHostRef = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const counterId = useId();
  const phase = chatPhase(state);
  /** Where focus should go once the next state change has rendered (the target may not exist or be enabled yet). */
  const pendingFocus = useRef<"input" | "finish" | "category" | null>(null);

  useEffect(() => storeState(state), [state]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after every state change has rendered.
  useEffect(() => {
    const target = pendingFocus.current;
    if (target === null) return;
    pendingFocus.current = null;
    // Never pull focus back if the visitor has moved elsewhere on the page meanwhile.
    const focused = document.activeElement;
    if (focused && focused !== document.body && !panelRef.current?.contains(focused) && !focused.closest('[role="menu"]')) return;
    const element = { input: inputRef, finish: finishRef, category: categoryTriggerRef }[target].current;
    element?.focus();
  }, [state]);

  // The widget's captcha code is fetched only once the visitor actually opens the chat.
  useEffect(() => {
    if (open) loadCaptchaWidget().catch((error: unknown) => console.error("Support chat: captcha widget failed to load", error));
  }, [open]);

  const messageCount = state.messages.length;
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll whenever a message is added or the panel opens.
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [messageCount, open]);

  const focusCurrentControl = useCallback(() => {
    const current = stateRef.current;
    const phaseNow = chatPhase(current);
    if (phaseNow === "choosing") categoryTriggerRef.current?.focus();
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
      const inChat = panelRef.current?.contains(focused) || focused === document.body || focused?.getAttribute("aria-controls") === SUPPORT_CHAT_PANEL_ID;
      if (inChat) onClose();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [open, onClose]);

  const submitRequest = useCallback(async () => {
    const current = stateRef.current;
    if (current.category === null) return;
    const sending = markSending(current);
    setState(sending);
    let outcome: "sent" | "failed" = "sent";
    try {
      const host = captchaHostRef.current;
      if (!host) throw new Error("Support chat: captcha host missing");
      const altcha = await solveCaptcha(host);
      await postSupportRequest({ category: current.category, answers: current.answers, altcha });
      toast.success("Request submitted", { description: "Our support team will respond shortly." });
    } catch (error) {
      outcome = "failed";
      console.error("Support chat: the request could not be submitted", error);
      toast.error("Error", { description: "Failed to send message. Please try again." });
    }
    // Focus lands on the button that matters next (Retry sending or New request) once it renders.
    pendingFocus.current = "finish";
    setState((latest) => markSubmitted(latest, outcome, new Date()));
  }, []);

  const chooseCategoryAndFocus = (category: SupportCategory) => {
    pendingFocus.current = "input";
    setState((current) => chooseCategory(current, category, new Date()));
  };

  const send = () => {
    if (answerProblem(state, draft) !== null) return;
    const next = submitAnswer(state, draft, new Date());
    setState(next);
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
    pendingFocus.current = "category";
    setState(initialChatState(new Date()));
    setDraft("");
  };

  const typing = canType(state);
  const canSend = typing && answerProblem(state, draft) === null;
  const lastBotMessage = [...state.messages].reverse().find((m) => !m.isUser);
  const showCounter = draft.length >= COUNTER_THRESHOLD;

  return (
    <section
      ref={panelRef}
      id={SUPPORT_CHAT_PANEL_ID}
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      tabIndex={-1}
      hidden={!open}
      className="fixed right-4 bottom-20 z-50 flex h-[500px] max-h-[calc(100dvh-6rem)] w-80 flex-col overflow-hidden rounded-xl border border-slate-700 bg-slate-900 text-slate-100 shadow-2xl shadow-black/50 focus:outline-none sm:w-96"
    >
      <div className="flex items-center justify-between border-slate-700 border-b bg-slate-800 px-4 py-3">
        <h2 id={titleId} className="font-semibold text-base">
          Support Chat
        </h2>
        <button
          type="button"
          onClick={onClose}
          aria-label="Close support chat"
          className="rounded-md p-1 text-slate-300 hover:bg-slate-700 hover:text-slate-100"
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2">
            <path d="M18 6 6 18M6 6l12 12" />
          </svg>
        </button>
      </div>

      <ul ref={listRef} aria-label="Conversation" className="max-h-[350px] flex-1 space-y-3 overflow-y-auto px-4 py-3">
        {state.messages.map((message) => (
          <li key={message.id} className={message.isUser ? "flex flex-col items-end" : "flex flex-col items-start"}>
            <span className="sr-only">{message.isUser ? "You" : "Support"}: </span>
            <p
              className={`max-w-[85%] whitespace-pre-wrap break-words rounded-lg px-3 py-2 text-sm ${message.isUser ? "bg-sky-700 text-white" : "bg-slate-800 text-slate-100"}`}
            >
              {message.content}
            </p>
            <time dateTime={message.timestamp} className="mt-1 text-slate-300 text-xs">
              {formatMessageTime(message.timestamp)}
            </time>
          </li>
        ))}
        {phase === "choosing" ? (
          <li>
            {/* Non-modal: the modal variant injects an inline <style> for scroll locking, which our CSP blocks. */}
            <DropdownMenu.Root modal={false}>
              <DropdownMenu.Trigger
                ref={categoryTriggerRef}
                className="inline-flex items-center gap-2 rounded-md border border-slate-600 bg-slate-800 px-3 py-2 text-sm hover:border-sky-400"
              >
                Select a category
                <svg aria-hidden="true" viewBox="0 0 24 24" className="size-4" fill="none" stroke="currentColor" strokeWidth="2">
                  <path d="m6 9 6 6 6-6" />
                </svg>
              </DropdownMenu.Trigger>
              <DropdownMenu.Portal>
                <DropdownMenu.Content
                  align="start"
                  sideOffset={4}
                  // Escape closes only the menu, not the whole chat panel.
                  onEscapeKeyDown={(event) => event.stopPropagation()}
                  className="z-[60] min-w-48 rounded-md border border-slate-600 bg-slate-800 p-1 shadow-lg"
                >
                  {SUPPORT_CATEGORIES.map((category) => (
                    <DropdownMenu.Item
                      key={category}
                      onSelect={() => chooseCategoryAndFocus(category)}
                      className="cursor-pointer rounded px-3 py-2 text-slate-100 text-sm outline-none data-[highlighted]:bg-sky-700"
                    >
                      {category}
                    </DropdownMenu.Item>
                  ))}
                </DropdownMenu.Content>
              </DropdownMenu.Portal>
            </DropdownMenu.Root>
          </li>
        ) : null}
      </ul>

      <div aria-live="polite" className="sr-only">
        {lastBotMessage?.content}
      </div>
      <div ref={captchaHostRef} hidden />

      {phase === "complete" ? (
        <div className="flex gap-2 border-slate-700 border-t px-4 py-2">
          {state.submission === "failed" ? (
            <button
              ref={finishRef}
              type="button"
              onClick={() => void submitRequest()}
              className="rounded-md bg-sky-500 px-3 py-1.5 font-semibold text-slate-950 text-sm hover:bg-sky-400"
            >
              Retry sending
            </button>
          ) : null}
          <button
            ref={state.submission === "failed" ? undefined : finishRef}
            type="button"
            onClick={startOver}
            className="rounded-md border border-slate-600 px-3 py-1.5 text-slate-100 text-sm hover:border-sky-400"
          >
            New request
          </button>
        </div>
      ) : null}

      <form
        className="mt-auto border-slate-700 border-t p-3"
        onSubmit={(event) => {
          event.preventDefault();
          send();
        }}
      >
        <div className="flex items-end gap-2">
          <textarea
            ref={inputRef}
            value={draft}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={onInputKeyDown}
            placeholder={placeholderFor(state)}
            aria-label="Your answer"
            aria-describedby={showCounter ? counterId : undefined}
            disabled={!typing}
            maxLength={MAX_ANSWER_LENGTH}
            rows={2}
            className="min-h-10 flex-1 resize-none rounded-md border border-slate-600 bg-slate-950 px-3 py-2 text-slate-100 text-sm placeholder:text-slate-400 disabled:cursor-not-allowed disabled:opacity-60"
          />
          <button
            type="submit"
            disabled={!canSend}
            aria-label="Send message"
            className="flex size-10 items-center justify-center rounded-md bg-sky-500 text-slate-950 hover:bg-sky-400 disabled:cursor-not-allowed disabled:bg-slate-700 disabled:text-slate-300"
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="m22 2-7 20-4-9-9-4Z M22 2 11 13" />
            </svg>
          </button>
        </div>
        {showCounter ? (
          <p id={counterId} className="mt-1 text-right text-slate-300 text-xs">
            {draft.length}/{MAX_ANSWER_LENGTH} characters
          </p>
        ) : null}
        {state.submission === "sending" ? (
          <p role="status" className="mt-1 text-slate-300 text-xs">
            Sending your request…
          </p>
        ) : null}
      </form>
    </section>
  );
}
