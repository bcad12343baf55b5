// @vitest-environment jsdom
import { setupI18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { act, createElement, createRef } from "react";
import { createRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { SavedReplyChoice } from "../saved-replies/saved-replies";
import { MessageBox, type MessageBoxProps, slashQuery } from "./message-box";

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}

const i18n = setupI18n({ locale: "en", messages: { en: {} } });
const REPLIES: SavedReplyChoice[] = [
  { id: "r1", title: "Refund policy", body: "Refunds take up to 14 days.", locale: null },
  { id: "r2", title: "Key resent", body: "We sent your key again.", locale: "en" },
  { id: "r3", title: "Thanks, refund done", body: "Your refund is on its way.", locale: null },
];

let root: Root;
let host: HTMLDivElement;
const changes = vi.fn();

function element(props: Partial<MessageBoxProps> = {}) {
  return createElement(
    I18nProvider,
    { i18n },
    createElement(MessageBox, {
      name: "body",
      label: "Message",
      savedReplies: REPLIES,
      onChange: (event) => changes(event.currentTarget.value),
      ...props,
    }),
  );
}

async function show(props: Partial<MessageBoxProps> = {}) {
  await act(async () => root.render(element(props)));
}

const box = () => host.querySelector("textarea") as HTMLTextAreaElement;
const listbox = () => host.querySelector<HTMLElement>("[role=listbox]");
const options = () => [...host.querySelectorAll<HTMLElement>("[role=option]")].map((o) => o.textContent);
const openList = () => listbox() !== null && !listbox()?.hidden && options().length > 0;

/** The box as a person leaves it after typing: its whole value, the caret at `caret` (default: the end). */
async function type(value: string, caret = value.length) {
  await act(async () => {
    const textarea = box();
    textarea.focus();
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")?.set?.call(textarea, value);
    textarea.setSelectionRange(caret, caret);
    textarea.dispatchEvent(new Event("input", { bubbles: true }));
  });
}

async function press(key: string, target: HTMLElement = box()) {
  await act(async () => {
    target.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
  });
}

async function click(target: Element | null | undefined) {
  if (!(target instanceof HTMLElement)) throw new Error("nothing to click");
  await act(async () => {
    target.dispatchEvent(new MouseEvent("mousedown", { bubbles: true, cancelable: true }));
    target.click();
  });
}

function button(name: string, within: ParentNode = document) {
  return [...within.querySelectorAll("button")].find((b) => b.textContent?.trim() === name);
}

beforeEach(() => {
  globalThis.IS_REACT_ACT_ENVIRONMENT = true;
  host = document.createElement("div");
  document.body.append(host);
  root = createRoot(host);
  changes.mockClear();
});

afterEach(async () => {
  await act(async () => root.unmount());
  host.remove();
});

describe("where the `/` of a saved reply counts", () => {
  it("only as the box's first character, while the caret is on its line", () => {
    expect(slashQuery("/", 1)).toBe("");
    expect(slashQuery("/ref", 4)).toBe("ref");
    expect(slashQuery("/ref\nmore", 2)).toBe("r");
    expect(slashQuery("/ref\nmore", 7)).toBeUndefined();
    expect(slashQuery("/ref", 0)).toBeUndefined();
    expect(slashQuery("Hi /ref", 7)).toBeUndefined();
    expect(slashQuery("", 0)).toBeUndefined();
  });
});

describe("the message box with saved replies", () => {
  it("is only a labelled textarea of the form when the server renders it", () => {
    const html = renderToString(element());
    expect(html).toMatch(/<label for="[^"]+"[^>]*>Message<\/label>/);
    expect(html).toContain('name="body"');
    expect(html).not.toContain("button");
    expect(html).not.toContain("aria-");
    expect(html).not.toContain("listbox");
  });

  it("opens the list at `/` at the start, filters it by title, moves with the arrows and inserts with Enter", async () => {
    await show();
    const textarea = box();
    expect(textarea.labels?.[0]?.textContent).toBe("Message");
    expect(textarea.getAttribute("aria-autocomplete")).toBe("list");
    expect(textarea.getAttribute("aria-controls")).toBe(listbox()?.id);
    expect(openList()).toBe(false);
    expect(textarea.hasAttribute("aria-activedescendant")).toBe(false);

    await type("/");
    expect(openList()).toBe(true);
    expect(options().map((text) => text?.split(/(?=Refunds|We sent|Your refund)/)[0])).toEqual([
      "Refund policy",
      "Key resentEnglish",
      "Thanks, refund done",
    ]);
    expect(host.querySelector("[role=status]")?.textContent).toContain("3 saved replies match");

    // Titles starting with what is typed come first, then those containing it, whatever the case.
    await type("/REF");
    expect(options().map((text) => text?.slice(0, 13))).toEqual(["Refund policy", "Thanks, refun"]);
    const [first, second] = [...host.querySelectorAll("[role=option]")];
    expect(textarea.getAttribute("aria-activedescendant")).toBe(first?.id);
    expect(first?.getAttribute("aria-selected")).toBe("true");
    await press("ArrowDown");
    expect(textarea.getAttribute("aria-activedescendant")).toBe(second?.id);
    await press("ArrowDown");
    expect(textarea.getAttribute("aria-activedescendant")).toBe(first?.id);
    await press("ArrowUp");
    expect(textarea.getAttribute("aria-activedescendant")).toBe(second?.id);

    await press("Enter");
    expect(textarea.value).toBe("Your refund is on its way.");
    expect(textarea.selectionStart).toBe("Your refund is on its way.".length);
    expect(changes).toHaveBeenLastCalledWith("Your refund is on its way.");
    expect(openList()).toBe(false);
    expect(textarea.hasAttribute("aria-activedescendant")).toBe(false);
  });

  it("puts the reply in place of the `/query` and keeps what follows, when the first line was empty", async () => {
    await show();
    await type("\nOrder 1234 below.", 0);
    await type("/key\nOrder 1234 below.", 4);
    expect(options()).toHaveLength(1);
    await click(host.querySelector("[role=option]"));
    expect(box().value).toBe("We sent your key again.\nOrder 1234 below.");
    expect(document.activeElement).toBe(box());
  });

  it("closes with Escape keeping the typed text, and opens again only at a new `/`", async () => {
    await show();
    await type("/ref");
    await press("Escape");
    expect(openList()).toBe(false);
    expect(box().value).toBe("/ref");
    await type("/refu");
    expect(openList()).toBe(false);
    await type("");
    await type("/");
    expect(openList()).toBe(true);
  });

  it("opens no list for a `/` further on, or a `/query` that no title has", async () => {
    await show();
    await type("Hello /ref");
    expect(openList()).toBe(false);
    await type("/nothing like it");
    expect(openList()).toBe(false);
    await press("Enter");
    expect(box().value).toBe("/nothing like it");
  });

  it("inserts a reply chosen in the Saved replies dialog where the caret was, and gives the box its focus back", async () => {
    await show();
    await type("Hello  Bye", 6);
    await click(button("Saved replies", host));
    const dialog = document.querySelector<HTMLElement>("[role=dialog]");
    expect(dialog?.textContent).toContain("Saved replies");
    expect(dialog?.querySelectorAll("li button")).toHaveLength(3);
    const filter = dialog?.querySelector<HTMLInputElement>("input[type=search]");
    expect(filter?.labels?.[0]?.textContent).toBe("Filter by title");
    expect(document.activeElement).toBe(filter);
    await act(async () => {
      if (!filter) return;
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set?.call(filter, "key");
      filter.dispatchEvent(new Event("input", { bubbles: true }));
    });
    expect([...(dialog?.querySelectorAll("li button") ?? [])].map((b) => b.textContent?.slice(0, 10))).toEqual([
      "Key resent",
    ]);
    await click(dialog?.querySelector("li button"));
    expect(document.querySelector("[role=dialog]")).toBeNull();
    expect(box().value).toBe("Hello We sent your key again. Bye");
    expect(document.activeElement).toBe(box());
    expect(box().selectionStart).toBe("Hello We sent your key again.".length);
    expect(changes).toHaveBeenLastCalledWith("Hello We sent your key again. Bye");
  });

  it("says so when a filter in the dialog matches nothing, and Enter in the filter takes the first match", async () => {
    await show();
    await click(button("Saved replies", host));
    const filter = () => document.querySelector<HTMLInputElement>("[role=dialog] input[type=search]");
    const setFilter = (value: string) =>
      act(async () => {
        const input = filter();
        if (!input) return;
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set?.call(input, value);
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
    await setFilter("zebra");
    expect(document.querySelector("[role=dialog] [role=status]")?.textContent).toBe(
      "No saved reply has a title like that.",
    );
    await setFilter("thanks");
    await press("Enter", filter() as HTMLElement);
    expect(box().value).toBe("Your refund is on its way.");
  });

  it("hands the page its textarea, and says what the page's hint says", async () => {
    const ref = createRef<HTMLTextAreaElement>();
    await show({ ref, hint: "A reply reaches the visitor.", "aria-describedby": "elsewhere" });
    expect(ref.current).toBe(box());
    const described = box().getAttribute("aria-describedby")?.split(" ") ?? [];
    expect(described.map((id) => document.getElementById(id)?.textContent ?? id)).toEqual([
      "A reply reaches the visitor.",
      "elsewhere",
      "Or type / at the start of the box to insert one.",
    ]);
  });

  it("says there are none yet, with a link to manage them only when given one", async () => {
    await show({ savedReplies: [], manageHref: "/admin/support/saved-replies" });
    const none = button("No saved replies yet", host);
    expect(none?.disabled).toBe(true);
    expect(host.querySelector("a")?.getAttribute("href")).toBe("/admin/support/saved-replies");
    expect(host.querySelector("a")?.textContent).toBe("Add saved replies");
    expect(box().hasAttribute("aria-controls")).toBe(false);
    await type("/");
    expect(listbox()).toBeNull();

    await show({ savedReplies: [] });
    expect(host.querySelector("a")).toBeNull();
  });
});
