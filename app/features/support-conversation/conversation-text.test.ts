import { setupI18n } from "@lingui/core";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { GREETING } from "~/features/support-chat/support-chat";
import { mergeMessages, shownConversationText, textParts } from "./conversation-text";
import { MessageText } from "./message-text";
import type { ConversationMessage } from "./support-conversation";

const rendered = (body: string) => renderToStaticMarkup(createElement(MessageText, { body }));

function message(seq: number, author: ConversationMessage["author"], body: string): ConversationMessage {
  return { seq, author, authorName: author === "team" ? "Mara" : null, body, createdAt: "2026-11-27T12:00:00.000Z" };
}

describe("team text on the page", () => {
  it("turns an http(s) address into a link that passes no trust and opens in the same tab", () => {
    expect(rendered("See https://kestrel.example/docs?a=1&b=2.")).toBe(
      'See <a href="https://kestrel.example/docs?a=1&amp;b=2" rel="nofollow ugc noopener" class="underline">https://kestrel.example/docs?a=1&amp;b=2</a>.',
    );
  });

  it("keeps sentence punctuation after an address out of the link", () => {
    expect(textParts("(see http://a.example/x), then")).toEqual([
      { kind: "text", text: "(see " },
      { kind: "link", text: "http://a.example/x", href: "http://a.example/x" },
      { kind: "text", text: "), then" },
    ]);
  });

  it.each([
    ["markup", '<script>alert(1)</script><img src=x onerror="alert(2)"><style>body{display:none}</style>'],
    ["javascript: links", "javascript:alert(document.cookie) JAVASCRIPT:alert(1)"],
    ["data: links", "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="],
    ["an address breaking out of its attribute", 'https://evil.example/"onmouseover="alert(1)'],
    ["an address with markup in it", "https://evil.example/<svg/onload=alert(1)>"],
    ["markdown links", "[click](javascript:alert(1)) and ![img](https://evil.example/x.png)"],
    ["HTML entities", "&lt;script&gt;alert(1)&lt;/script&gt; &#106;avascript:alert(1)"],
  ])("shows %s as text: nothing can run or style", (_, body) => {
    // Written "<" comes out as &lt;, so every real tag is ours: a safe link and nothing else.
    const tags = rendered(body).match(/<[^>]*>/g) ?? [];
    for (const tag of tags)
      expect(tag).toMatch(/^(<a href="https?:\/\/[^"\s]*" rel="nofollow ugc noopener" class="underline">|<\/a>)$/);
    // Every character written is still there to read, escaped.
    expect(
      textParts(body)
        .map((part) => part.text)
        .join(""),
    ).toBe(body);
  });

  it("does not link an address carrying credentials, which reads like another host", () => {
    expect(textParts("https://kestrel.example@evil.example/")).toEqual([
      { kind: "text", text: "https://kestrel.example@evil.example/" },
    ]);
  });
});

describe("the conversation's lines in the page's language", () => {
  const i18n = setupI18n({ locale: "en", messages: { en: {} } });

  it("shows our stored English lines through the chat's messages and a line it does not know as stored", () => {
    expect(shownConversationText(i18n, message(1, "system", GREETING), "Key Reset")).toBe(GREETING);
    expect(shownConversationText(i18n, message(9, "system", "An older line"), "Key Reset")).toBe("An older line");
  });

  it("shows what people wrote exactly as written", () => {
    expect(shownConversationText(i18n, message(12, "team", GREETING), "Key Reset")).toBe(GREETING);
    expect(shownConversationText(i18n, message(3, "visitor", "Key Reset"), "Key Reset")).toBe("Key Reset");
  });
});

describe("merging what the stream and polling bring", () => {
  it("keeps each message once, in order", () => {
    const known = [message(1, "system", "a"), message(2, "visitor", "b")];
    const merged = mergeMessages(known, [message(4, "team", "d"), message(2, "visitor", "b"), message(3, "team", "c")]);
    expect(merged.map((m) => m.seq)).toEqual([1, 2, 3, 4]);
    expect(mergeMessages(merged, [message(3, "team", "c")])).toBe(merged);
  });
});
