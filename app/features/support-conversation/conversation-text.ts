// How a conversation's messages read on the page: our English lines translated, and written text split into plain
// text and safe links. Pure, so the panel, the page and their tests share it.
import type { I18n } from "@lingui/core";
import { isSupportCategory } from "~/features/support-chat/support-chat";
import { CATEGORY_NAMES, CHAT_LINES } from "~/features/support-chat/support-chat-messages";
import type { ConversationMessage } from "./support-conversation";

export type TextPart = { kind: "text"; text: string } | { kind: "link"; text: string; href: string };

/** http(s) addresses written in a message; anything else (javascript:, data:, markup) stays text. */
const WRITTEN_LINK = /\bhttps?:\/\/[^\s<>"'`]+/gi;
/** Punctuation that ends a sentence rather than the address ("see https://example.com/a."). */
const TRAILING_PUNCTUATION = /[.,;:!?)\]}»”’]+$/;

/** A written address as a link target, or null when it is not a plain http(s) URL. */
function safeHref(written: string): string | null {
  try {
    const url = new URL(written);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    // No credentials in links the team writes (https://user@evil.example reads like another host).
    if (url.username !== "" || url.password !== "") return null;
    return url.href;
  } catch {
    return null;
  }
}

/**
 * A message's text as parts to render: text shown as text (React escapes it) and http(s) addresses as links. Nothing
 * in a message can become markup, a script or a style: only an address that parses as http(s) becomes an href.
 */
export function textParts(body: string): TextPart[] {
  const parts: TextPart[] = [];
  let rest = 0;
  const pushText = (text: string) => {
    if (text === "") return;
    const last = parts.at(-1);
    if (last?.kind === "text") last.text += text;
    else parts.push({ kind: "text", text });
  };
  for (const match of body.matchAll(WRITTEN_LINK)) {
    const start = match.index;
    const written = match[0].replace(TRAILING_PUNCTUATION, "");
    const href = safeHref(written);
    pushText(body.slice(rest, start));
    if (href === null) pushText(written);
    else parts.push({ kind: "link", text: written, href });
    rest = start + written.length;
  }
  pushText(body.slice(rest));
  return parts;
}

/**
 * A message as the page shows it: our lines (stored in English) in the page's language, the visitor's category
 * choice by its translated name, everything people wrote as written.
 */
export function shownConversationText(i18n: I18n, message: ConversationMessage, category: string): string {
  if (message.author === "system") {
    const line = CHAT_LINES.get(message.body);
    return line ? i18n._(line) : message.body;
  }
  // The visitor's category choice is the questionnaire's second line.
  if (message.author === "visitor" && message.seq === 2 && message.body === category && isSupportCategory(category))
    return i18n._(CATEGORY_NAMES[category]);
  return message.body;
}

/** Each seq once (the stream and polling may overlap), in seq order; the same array when nothing is new. */
export function mergeMessages(
  known: readonly ConversationMessage[],
  incoming: readonly ConversationMessage[],
): ConversationMessage[] {
  if (incoming.length === 0) return known as ConversationMessage[];
  const bySeq = new Map(known.map((m) => [m.seq, m]));
  let added = false;
  for (const message of incoming) {
    if (bySeq.has(message.seq)) continue;
    bySeq.set(message.seq, message);
    added = true;
  }
  if (!added) return known as ConversationMessage[];
  return [...bySeq.values()].sort((a, b) => a.seq - b.seq);
}
