import { useCallback, useEffect, useRef, useState } from "react";
import { followConversation, postSeen } from "./conversation-client";
import { mergeMessages } from "./conversation-text";
import type { ConversationMessage, ConversationView } from "./support-conversation";

/** Whether the page is in front (a hidden tab keeps no event stream open). */
function usePageVisible(): boolean {
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    const update = () => setVisible(document.visibilityState !== "hidden");
    update();
    document.addEventListener("visibilitychange", update);
    return () => document.removeEventListener("visibilitychange", update);
  }, []);
  return visible;
}

/**
 * A conversation as the page shows it, kept current while `showing` (the open panel, the conversation page in front):
 * new messages arrive live, and what was shown is reported as seen. A newer `loaded` view (a loader's, a fetch's)
 * merges in.
 */
export function useConversationFeed(loaded: ConversationView | null, showing: boolean) {
  const [view, setView] = useState(loaded);
  useEffect(() => {
    setView((current) =>
      current && loaded && current.id === loaded.id
        ? { ...loaded, messages: mergeMessages(current.messages, loaded.messages) }
        : loaded,
    );
  }, [loaded]);

  const pageVisible = usePageVisible();
  const live = showing && pageVisible;
  const lastSeq = view?.messages.at(-1)?.seq ?? 0;
  const lastSeqRef = useRef(lastSeq);
  lastSeqRef.current = lastSeq;
  const id = view?.id;
  const open = view?.status === "open";

  const addMessages = useCallback(
    (conversationId: string, messages: ConversationMessage[]) =>
      setView((current) =>
        current?.id === conversationId ? { ...current, messages: mergeMessages(current.messages, messages) } : current,
      ),
    [],
  );

  useEffect(() => {
    if (!live || id === undefined || !open) return;
    return followConversation(lastSeqRef.current, {
      onMessages: (messages) => addMessages(id, messages),
      onStatus: (status) => setView((current) => (current?.id === id ? { ...current, ...status } : current)),
    });
  }, [live, id, open, addMessages]);

  // What the visitor has in front of them counts as seen: no unseen-reply email for it.
  const seenRef = useRef<{ id: string; seq: number } | null>(null);
  useEffect(() => {
    if (!live || id === undefined || lastSeq === 0) return;
    if (seenRef.current?.id === id && seenRef.current.seq >= lastSeq) return;
    seenRef.current = { id, seq: lastSeq };
    postSeen(lastSeq);
  }, [live, id, lastSeq]);

  return { view, addMessages };
}
