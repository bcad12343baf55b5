import { Trans, useLingui } from "@lingui/react/macro";
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { ChatBubbleIcon } from "~/components/icons";
import { useEarlyClick } from "~/features/layout/early-clicks";
import { OPEN_SUPPORT_CHAT_EVENT, SUPPORT_CHAT_PANEL_ID } from "./open-support-chat";

const loadPanel = () => import("./support-chat-panel");
const SupportChatPanel = lazy(loadPanel);

/**
 * The round button at the bottom right (left on right-to-left pages). The panel's code (with its captcha) is fetched
 * when a pointer rests on the button, it takes focus, or it is clicked: on idle it cost every page ~60 KB and a long
 * task while hydrating.
 */
export function SupportChatLauncher() {
  const { t } = useLingui();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState(false);

  const openChat = useCallback(() => {
    setRequested(true);
    setOpen(true);
  }, []);
  const closeChat = useCallback(() => {
    setOpen(false);
    buttonRef.current?.focus();
  }, []);

  useEffect(() => {
    window.addEventListener(OPEN_SUPPORT_CHAT_EVENT, openChat);
    return () => window.removeEventListener(OPEN_SUPPORT_CHAT_EVENT, openChat);
  }, [openChat]);

  // A click before hydration opens the chat as soon as the page is ready.
  const [earlyClick, earlyClickHandled] = useEarlyClick("support-chat");
  useEffect(() => {
    if (!earlyClick) return;
    earlyClickHandled();
    openChat();
  }, [earlyClick, earlyClickHandled, openChat]);

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        aria-label={t`Open support chat`}
        data-early-click="support-chat"
        aria-expanded={open}
        aria-controls={requested ? SUPPORT_CHAT_PANEL_ID : undefined}
        onClick={() => (open ? closeChat() : openChat())}
        onPointerEnter={() => void loadPanel().catch(() => {})}
        onFocus={() => void loadPanel().catch(() => {})}
        className="fixed end-4 bottom-4 z-50 flex size-14 items-center justify-center rounded-full bg-accent text-on-accent shadow-lg shadow-accent/30 hover:bg-accent-hover"
      >
        <ChatBubbleIcon className="size-6" />
      </button>
      {requested ? (
        <Suspense
          fallback={
            open ? (
              <p
                role="status"
                className="fixed end-4 bottom-20 z-50 rounded-lg bg-raised px-4 py-3 text-foreground text-sm"
              >
                <Trans>Loading support chat…</Trans>
              </p>
            ) : null
          }
        >
          <SupportChatPanel open={open} onClose={closeChat} />
        </Suspense>
      ) : null}
    </>
  );
}
