import { setupI18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ConversationView } from "~/features/support-conversation/support-conversation";
import { ConversationNotes } from "./support-chat-conversation";

const i18n = setupI18n({ locale: "en", messages: { en: {} } });
const view = (fields: Partial<ConversationView>): ConversationView => ({
  id: "c1",
  category: "Key Reset",
  status: "open",
  repliesLive: true,
  messages: [],
  ...fields,
});
const notes = (shown: ConversationView, link: string | null) =>
  renderToStaticMarkup(createElement(I18nProvider, { i18n }, createElement(ConversationNotes, { view: shown, link })));

describe("what the panel says below the conversation", () => {
  it("promises an answer here only while team replies can reach the page", () => {
    expect(notes(view({ repliesLive: true }), null)).toContain("Our team will answer here.");
    expect(notes(view({ repliesLive: false }), null)).not.toContain("answer here");
  });

  it("gives the private link whenever it is known", () => {
    const link = "http://localhost/support/conversation?key=abc";
    expect(notes(view({ repliesLive: false }), link)).toContain(`href="${link}"`);
  });

  it("says a resolved conversation is resolved, and promises nothing more", () => {
    const html = notes(view({ status: "resolved" }), null);
    expect(html).toContain("This conversation is resolved.");
    expect(html).not.toContain("answer here");
  });
});
