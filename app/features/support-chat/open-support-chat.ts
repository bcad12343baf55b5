/** Any part of the page (e.g. the status page's Contact Support) can open the chat without importing it. */
export const OPEN_SUPPORT_CHAT_EVENT = "kestrel:open-support-chat";

/** The panel's element id: the launcher's aria-controls and the panel's Escape handling both refer to it. */
export const SUPPORT_CHAT_PANEL_ID = "support-chat-panel";

export function openSupportChat() {
  window.dispatchEvent(new CustomEvent(OPEN_SUPPORT_CHAT_EVENT));
}
