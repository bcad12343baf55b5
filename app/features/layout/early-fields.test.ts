// @vitest-environment jsdom
import { createElement as h, useEffect, useState } from "react";
import { hydrateRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import installEarlyClickRecorder from "./boot/early-clicks.boot";
import { useReplayEarlyClicks } from "./early-clicks";

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}

/**
 * A page with a field of each kind, each controlled as the shop's are, and a re-render right after hydration (as the
 * product page's `interactive` flag makes): without the replay, that re-render puts the server's values back.
 */
function Page() {
  useReplayEarlyClicks();
  const [interactive, setInteractive] = useState(false);
  useEffect(() => setInteractive(true), []);
  const [quantity, setQuantity] = useState("1");
  const [q, setQ] = useState("");
  const [coupon, setCoupon] = useState("");
  const [sort, setSort] = useState("featured");
  const [terms, setTerms] = useState(false);
  const [duration, setDuration] = useState("month");
  const [reply, setReply] = useState("");
  // What a sort applies, as the catalogue's does: with the search typed before it (a handler's closure).
  const [applied, setApplied] = useState("");
  return h(
    "form",
    { "data-interactive": interactive },
    h("input", { id: "quantity", type: "number", value: quantity, onChange: (e) => setQuantity(e.target.value) }),
    h("output", { id: "total" }, `$${(Number(quantity) * 39.99).toFixed(2)}`),
    h("input", { id: "q", type: "search", value: q, onChange: (e) => setQ(e.target.value) }),
    h("output", { id: "results" }, q ? `matches for ${q}` : "everything"),
    h("input", { id: "coupon", type: "text", value: coupon, onChange: (e) => setCoupon(e.target.value) }),
    h(
      "select",
      {
        id: "sort",
        value: sort,
        onChange: (e: { target: HTMLSelectElement }) => {
          setSort(e.target.value);
          setApplied(`${q}:${e.target.value}`);
        },
      },
      h("option", { value: "featured" }, "Featured"),
      h("option", { value: "price" }, "Price"),
    ),
    h("input", { id: "terms", type: "checkbox", checked: terms, onChange: (e) => setTerms(e.target.checked) }),
    ...["month", "lifetime"].map((value) =>
      h("input", {
        key: value,
        id: value,
        type: "radio",
        name: "duration",
        value,
        checked: duration === value,
        onChange: () => setDuration(value),
      }),
    ),
    h("textarea", {
      id: "reply",
      value: reply,
      onChange: (e: { target: HTMLTextAreaElement }) => setReply(e.target.value),
    }),
    h("output", { id: "state" }, JSON.stringify({ quantity, q, coupon, sort, terms, duration, reply, applied })),
  );
}

let root: Root | undefined;
afterEach(() => {
  root?.unmount();
  root = undefined;
  document.body.innerHTML = "";
  delete window.__kestrelBoot;
});

/** The server's page, painted, with the recorder running and React not yet there. */
function paintedPage() {
  installEarlyClickRecorder(window);
  document.body.insertAdjacentHTML("beforeend", `<div id="app">${renderToString(h(Page))}</div>`);
  const field = <T extends HTMLElement = HTMLInputElement>(id: string) => document.getElementById(id) as T;
  /** What a browser does for a key press: the value changes, then an input event. */
  const type = (id: string, value: string) => {
    const input = field(id);
    input.focus();
    input.value = value;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  };
  return { field, type };
}

/** Hydrates as a browser does: React's own scheduler, not act()'s queue (which defers what a real event flushes). */
async function hydrate() {
  globalThis.IS_REACT_ACT_ENVIRONMENT = false;
  const host = document.getElementById("app");
  if (!host) throw new Error("no #app");
  root = hydrateRoot(host, h(Page));
  const form = () => document.querySelector("form");
  for (let tick = 0; form()?.getAttribute("data-interactive") !== "true"; tick++) {
    if (tick > 200) throw new Error("the page never hydrated");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await new Promise((resolve) => setTimeout(resolve, 20));
}

const state = () => JSON.parse(document.getElementById("state")?.textContent ?? "{}");

describe("field edits made before hydration", () => {
  it("are React's state once it hydrates, and what follows from them is shown", async () => {
    const { field, type } = paintedPage();
    type("q", "studio");
    type("coupon", "SAVE10");
    type("reply", "Hello, my key");
    field("terms").click();
    field("lifetime").click();
    field<HTMLSelectElement>("sort").value = "price";
    field("sort").dispatchEvent(new Event("change", { bubbles: true }));
    type("quantity", "3");

    await hydrate();
    expect(document.querySelector("form")?.getAttribute("data-interactive")).toBe("true");
    expect(state()).toEqual({
      quantity: "3",
      q: "studio",
      coupon: "SAVE10",
      sort: "price",
      terms: true,
      duration: "lifetime",
      reply: "Hello, my key",
      applied: "studio:price",
    });
    expect(document.getElementById("total")?.textContent).toBe("$119.97");
    expect(document.getElementById("results")?.textContent).toBe("matches for studio");
    expect(field("quantity").value).toBe("3");
    expect(field("lifetime").checked).toBe(true);
    expect(field("month").checked).toBe(false);
    // Focus stays in the field typed into last.
    expect(document.activeElement).toBe(field("quantity"));
  });

  it("keep the caret of the focused text field where it was", async () => {
    const { field, type } = paintedPage();
    type("q", "studio");
    // Moved with the arrow keys after typing: no input event tells of it.
    field("q").setSelectionRange(2, 4);

    await hydrate();
    expect(state().q).toBe("studio");
    expect(document.activeElement).toBe(field("q"));
    expect([field("q").selectionStart, field("q").selectionEnd]).toEqual([2, 4]);
  });

  it("are lost without the replay: the re-render after hydration puts the server's values back", async () => {
    const { type } = paintedPage();
    type("quantity", "3");
    type("q", "studio");
    window.__kestrelBoot?.fields.splice(0);

    await hydrate();
    expect(state()).toMatchObject({ quantity: "1", q: "" });
    expect(document.getElementById("total")?.textContent).toBe("$39.99");
  });

  it("an edit taken back before hydration (a field typed into, then emptied) reports nothing", async () => {
    const { field, type } = paintedPage();
    type("q", "stu");
    type("q", "");
    field("terms").click();
    field("terms").click();

    await hydrate();
    expect(state()).toMatchObject({ q: "", terms: false });
  });

  it("stop once the page is ready: a later edit is React's alone", async () => {
    const { type } = paintedPage();
    await hydrate();
    expect(window.__kestrelBoot?.fields).toEqual([]);
    type("q", "vault");
    expect(window.__kestrelBoot?.fields).toEqual([]);
  });
});
