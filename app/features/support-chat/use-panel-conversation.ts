import { useCallback, useEffect, useRef, useState } from "react";
import { fetchConversation, postConversationMessage } from "~/features/support-conversation/conversation-client";
import type { ConversationView } from "~/features/support-conversation/support-conversation";
import { hasConversationHint, visitorMessageSchema } from "~/features/support-conversation/support-conversation";
import { useConversationFeed } from "~/features/support-conversation/use-conversation-feed";
import { type ChatState, chatPhase } from "./conversation";
import type { SubmittedConversation } from "./support-chat-api";

const MEMORY_KEY = "kestrel:support-conversation";

/**
 * What this tab remembers of the browser's conversation: the one its questionnaire opened (with the private link,
 * which only the request's answer carries) and the one the visitor set aside with "New request".
 */
interface PanelMemory {
  submitted: SubmittedConversation | null;
  setAside: string | null;
}

function readMemory(): PanelMemory {
  try {
    const parsed = JSON.parse(window.sessionStorage.getItem(MEMORY_KEY) ?? "null") as Partial<PanelMemory> | null;
    const submitted = parsed?.submitted;
    return {
      submitted:
        typeof submitted?.id === "string" && typeof submitted.link === "string"
          ? { id: submitted.id, link: submitted.link }
          : null,
      setAside: typeof parsed?.setAside === "string" ? parsed.setAside : null,
    };
  } catch {
    return { submitted: null, setAside: null };
  }
}

/**
 * The conversation behind the panel once a request is sent: the browser's own (its cookie) is read when the panel
 * first opens, shown instead of a fresh questionnaire, followed live while the panel is open, and answered in.
 * It is asked for only when the server's hint cookie says there is one: a visitor without one sends no request.
 */
export function usePanelConversation({ open, state }: { open: boolean; state: ChatState }) {
  const [memory, setMemory] = useState(readMemory);
  const [loaded, setLoaded] = useState<ConversationView | null>(null);
  const [sending, setSending] = useState(false);

  useEffect(() => {
    try {
      window.sessionStorage.setItem(MEMORY_KEY, JSON.stringify(memory));
    } catch {}
  }, [memory]);

  // The read in flight: a newer read or New request aborts it, so an answer about a conversation left behind is dropped.
  const reading = useRef<AbortController | null>(null);
  const reload = useCallback(async () => {
    reading.current?.abort();
    if (!hasConversationHint(document.cookie)) return;
    const read = new AbortController();
    reading.current = read;
    try {
      const view = await fetchConversation(undefined, read.signal);
      if (!read.signal.aborted) setLoaded(view);
    } catch (error) {
      if (read.signal.aborted) return;
      // The chat still works as a questionnaire; the conversation shows at the next open.
      console.error("Support chat: the conversation could not be read", error);
    }
  }, []);
  useEffect(() => {
    void reload();
    return () => reading.current?.abort();
  }, [reload]);

  const phase = chatPhase(state);
  const pristine = phase === "choosing" && state.messages.length === 1;
  const sent = phase === "complete" && state.submission === "sent";
  // A conversation this tab just opened, or (on a fresh questionnaire) the browser's latest one, unless set aside.
  const adopted =
    loaded !== null && loaded.id !== memory.setAside && (sent ? loaded.id === memory.submitted?.id : pristine);
  const feed = useConversationFeed(adopted ? loaded : null, open);
  // The feed lets go of a conversation one render late: a set-aside one must not show in between.
  const view = adopted && feed.view?.id === loaded.id ? feed.view : null;
  const { addMessages } = feed;

  const teamReplied = view?.messages.some((m) => m.author === "team") ?? false;
  const canAnswer = view !== null && view.status === "open" && teamReplied;

  /** Posts the visitor's message; false (and the error) when it was not taken, so the draft stays. */
  const sendMessage = async (text: string): Promise<{ ok: true } | { ok: false; error: unknown }> => {
    if (view === null) return { ok: false, error: new Error("no conversation") };
    setSending(true);
    try {
      addMessages(view.id, [await postConversationMessage(text)]);
      return { ok: true };
    } catch (error) {
      return { ok: false, error };
    } finally {
      setSending(false);
    }
  };

  return {
    view,
    /** The private link, known to the tab whose request opened the conversation. */
    link: view !== null && memory.submitted?.id === view.id ? memory.submitted.link : null,
    canAnswer,
    sending,
    isValidMessage: (text: string) => visitorMessageSchema.safeParse({ text }).success,
    sendMessage,
    onSubmitted(conversation: SubmittedConversation | null) {
      setMemory({ submitted: conversation, setAside: null });
      void reload();
    },
    onStartOver() {
      reading.current?.abort();
      setLoaded(null);
      // The one left behind may not be read yet (slow connection): then it is the one this tab's request opened.
      setMemory({ submitted: null, setAside: view?.id ?? memory.submitted?.id ?? loaded?.id ?? null });
    },
  };
}
