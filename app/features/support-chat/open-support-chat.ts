/** Any part of the page (e.g. the status page's Contact Support) can open the chat without importing it. */
export const OPEN_SUPPORT_CHAT_EVENT = "kestrel:open-support-chat";

export function openSupportChat() {
  window.dispatchEvent(new CustomEvent(OPEN_SUPPORT_CHAT_EVENT));
}
