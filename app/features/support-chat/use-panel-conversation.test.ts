// @vitest-environment jsdom
import { act, createElement } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ConversationView } from "~/features/support-conversation/support-conversation";
import { type ChatState, conversationReducer, initialChatState } from "./conversation";
import { SUPPORT_QUESTIONS } from "./support-chat";
import { usePanelConversation } from "./use-panel-conversation";

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}

const NOW = new Date("2025-01-01T12:00:00Z");
const pristine = initialChatState(NOW);
const sent: ChatState = [
  { type: "choose-category", category: "Key Reset", now: NOW } as const,
  ...SUPPORT_QUESTIONS["Key Reset"].map((_, i) => ({ type: "answer", text: `answer ${i + 1}`, now: NOW }) as const),
  { type: "sending" } as const,
  { type: "submitted", outcome: "sent", now: NOW } as const,
].reduce(conversationReducer, pristine);

const conversation = (id: string): ConversationView => ({
  id,
  category: "Key Reset",
  status: "open",
  repliesLive: true,
  messages: [{ seq: 1, author: "visitor", authorName: null, body: "answer 1", createdAt: NOW.toISOString() }],
});

/** Reads of the conversation the test answers when it chooses; like a response already on its way, abort is ignored. */
let reads: Array<(view: ConversationView | null) => void> = [];
let panel: ReturnType<typeof usePanelConversation>;
let root: Root;

function Panel({ state }: { state: ChatState }) {
  panel = usePanelConversation({ open: false, state });
  return null;
}

async function show(state: ChatState) {
  await act(async () => root.render(createElement(Panel, { state })));
}

/** Answers the `index`th read (in the order they started) and lets the hook take it in. */
async function answerRead(index: number, view: ConversationView | null) {
  const answer = reads[index];
  if (!answer) throw new Error(`no read #${index}`);
  await act(async () => {
    answer(view);
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

/** What the server's Set-Cookie does to the page: the hint that this browser has a conversation, or none. */
function setHint(present: boolean) {
  // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store; this stands in for the server's Set-Cookie.
  document.cookie = present
    ? "kestrel_support_has_conversation=1; Path=/"
    : "kestrel_support_has_conversation=; Path=/; Max-Age=0";
}

beforeEach(() => {
  globalThis.IS_REACT_ACT_ENVIRONMENT = true;
  window.sessionStorage.clear();
  setHint(true);
  reads = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(
      () =>
        new Promise((resolve) =>
          reads.push((view) =>
            resolve({ ok: view !== null, status: view === null ? 404 : 200, json: async () => view } as Response),
          ),
        ),
    ),
  );
  root = createRoot(document.createElement("div"));
});

afterEach(async () => {
  await act(async () => root.unmount());
  vi.unstubAllGlobals();
});

describe("the conversation behind the chat panel", () => {
  it("shows the conversation the tab's request opened once it is read", async () => {
    await show(sent);
    await answerRead(0, null);
    await act(async () => panel.onSubmitted({ id: "c1", link: "http://localhost/support/conversation?key=k" }));
    await answerRead(1, conversation("c1"));
    expect(panel.view?.id).toBe("c1");
  });

  it("does not bring the conversation back when its read lands after New request", async () => {
    await show(sent);
    await answerRead(0, null);
    await act(async () => panel.onSubmitted({ id: "c1", link: "http://localhost/support/conversation?key=k" }));
    await act(async () => panel.onStartOver());
    await show(pristine);
    await answerRead(1, conversation("c1"));
    expect(panel.view).toBeNull();
  });

  it("keeps the conversation set aside with New request when the next page reads it again", async () => {
    await show(sent);
    await answerRead(0, null);
    await act(async () => panel.onSubmitted({ id: "c1", link: "http://localhost/support/conversation?key=k" }));
    await act(async () => panel.onStartOver());
    await act(async () => root.unmount());
    root = createRoot(document.createElement("div"));
    await show(pristine);
    await answerRead(2, conversation("c1"));
    expect(panel.view).toBeNull();
  });

  it("does not bring the conversation back when the first read of a restored tab lands after New request", async () => {
    window.sessionStorage.setItem(
      "kestrel:support-conversation",
      JSON.stringify({ submitted: { id: "c1", link: "http://localhost/support/conversation?key=k" }, setAside: null }),
    );
    await show(sent);
    await act(async () => panel.onStartOver());
    await show(pristine);
    await answerRead(0, conversation("c1"));
    expect(panel.view).toBeNull();
  });

  it("lets a read that started earlier and lands later not undo a newer one", async () => {
    await show(sent);
    await act(async () => panel.onSubmitted({ id: "c1", link: "http://localhost/support/conversation?key=k" }));
    await answerRead(1, conversation("c1"));
    await answerRead(0, null);
    expect(panel.view?.id).toBe("c1");
  });
});

describe("whether the chat panel asks for the conversation", () => {
  it("sends no request when the browser has no conversation hint", async () => {
    setHint(false);
    await show(pristine);
    expect(fetch).not.toHaveBeenCalled();
    expect(panel.view).toBeNull();
  });

  it("asks as soon as it opens when the hint says there is a conversation", async () => {
    await show(pristine);
    expect(fetch).toHaveBeenCalledWith("/api/support/conversation", expect.anything());
    await answerRead(0, conversation("c1"));
    expect(panel.view?.id).toBe("c1");
  });

  it("asks for the conversation a request opened once the answer has set the hint", async () => {
    setHint(false);
    await show(sent);
    setHint(true);
    await act(async () => panel.onSubmitted({ id: "c1", link: "http://localhost/support/conversation?key=k" }));
    expect(fetch).toHaveBeenCalledTimes(1);
    await answerRead(0, conversation("c1"));
    expect(panel.view?.id).toBe("c1");
  });

  it("does not ask after a request that the server answered without opening a conversation", async () => {
    setHint(false);
    await show(sent);
    await act(async () => panel.onSubmitted(null));
    expect(fetch).not.toHaveBeenCalled();
  });
});
