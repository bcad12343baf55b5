import { describe, expect, it } from "vitest";
import { classesInHtml, selectorNeeds, stylesheetForPage, withOwnStylesheet } from "./page-stylesheet.server";

describe("what a selector needs from the page", () => {
  it("takes classes and element names, unescaped, from every compound", () => {
    expect(selectorNeeds(".group:hover .group-hover\\:text-white")).toEqual({
      classes: ["group", "group-hover:text-white"],
      elements: [],
    });
    expect(selectorNeeds(".w-1\\.5")).toEqual({ classes: ["w-1.5"], elements: [] });
    expect(selectorNeeds(".\\[\\&\\>svg\\]\\:size-4>svg")).toEqual({ classes: ["[&>svg]:size-4"], elements: ["svg"] });
    expect(selectorNeeds("abbr:where([title])")).toEqual({ classes: [], elements: ["abbr"] });
    expect(selectorNeeds("ul li>a")).toEqual({ classes: [], elements: ["ul", "li", "a"] });
    expect(selectorNeeds(".\\31 0")).toEqual({ classes: ["10"], elements: [] });
  });

  it("does not count what a match never requires", () => {
    // :not() excludes, attribute values and :nth-child() arguments are not selectors, pseudo-elements are not elements.
    expect(selectorNeeds(".space-y-4>:not(:last-child)")).toEqual({ classes: ["space-y-4"], elements: [] });
    expect(selectorNeeds('a[href$=".pdf"]')).toEqual({ classes: [], elements: ["a"] });
    expect(selectorNeeds("li:nth-child(2n+1 of .odd)")).toEqual({ classes: [], elements: ["li"] });
    expect(selectorNeeds("*,:before,:after")).toEqual({ classes: [], elements: [] });
    expect(selectorNeeds("::-webkit-details-marker")).toEqual({ classes: [], elements: [] });
    expect(selectorNeeds(".peer:checked~.peer-checked\\:block")).toEqual({
      classes: ["peer", "peer-checked:block"],
      elements: [],
    });
  });

  it("looks inside :is(), :where() and :has()", () => {
    expect(selectorNeeds(".group-hover\\:x:is(:where(.group):hover *)")).toEqual({
      classes: ["group-hover:x", "group"],
      elements: [],
    });
    expect(selectorNeeds(".has-checked\\:x:has(input:checked)")).toEqual({
      classes: ["has-checked:x"],
      elements: ["input"],
    });
    // A list inside needs only one of its selectors: none of them is required.
    expect(selectorNeeds(":is(.a,.b) p")).toEqual({ classes: [], elements: ["p"] });
    expect(selectorNeeds(".a:has(>.b)")).toEqual({ classes: ["a", "b"], elements: [] });
  });
});

describe("the page's own stylesheet", () => {
  const css = [
    "/*! banner */",
    "@layer theme,base,utilities;",
    "@layer theme{:root{--color-sky:#0af;--color-red:red;--font:sans-serif;--default-font:var(--font);--unused:1px}}",
    "@layer base{html{font-family:var(--default-font)}abbr:where([title]){text-decoration:underline}summary{display:list-item}}",
    "@layer utilities{.text-sky{color:var(--color-sky)}.text-red{color:var(--color-red)}",
    ".hover\\:text-red:hover{color:var(--color-red)}@media (min-width:40rem){.sm\\:flex{display:flex}.sm\\:grid{display:grid}}",
    ".animate-spin{animation:var(--animate-spin)}.animate-ping{animation:ping 1s infinite}",
    '.a,.b{content:"{;}"}}',
    "@layer theme{:root{--animate-spin:spin 1s linear infinite}}",
    "@keyframes spin{to{transform:rotate(1turn)}}@keyframes ping{75%{opacity:0}}",
  ].join("");

  const page = (body: string) => `<html><head></head><body>${body}</body></html>`;

  it("keeps the rules whose classes and elements the page has, in their order and layers", () => {
    const out = stylesheetForPage(css, page('<p class="text-sky sm:flex">x</p>'));
    expect(out).toBe(
      "/*! banner */\n@layer theme,base,utilities;@layer theme{:root{--color-sky:#0af;--font:sans-serif;--default-font:var(--font)}}@layer base{html{font-family:var(--default-font)}}@layer utilities{.text-sky{color:var(--color-sky)}@media (min-width:40rem){.sm\\:flex{display:flex}}}",
    );
  });

  it("keeps a variant's rule, a selector list's rule when one of them matches, and strings with braces", () => {
    const out = stylesheetForPage(css, page('<abbr title="t" class="hover:text-red b">x</abbr>'));
    expect(out).toContain(".hover\\:text-red:hover{color:var(--color-red)}");
    expect(out).toContain("--color-red:red");
    expect(out).toContain("abbr:where([title]){text-decoration:underline}");
    expect(out).toContain('.a,.b{content:"{;}"}');
    expect(out).not.toContain("summary");
    expect(out).not.toContain("--unused");
  });

  it("keeps keyframes only for animations the page runs, also through a custom property", () => {
    const spin = stylesheetForPage(css, page('<span class="animate-spin"></span>'));
    expect(spin).toContain("--animate-spin:spin 1s linear infinite");
    expect(spin).toContain("@keyframes spin{");
    expect(spin).not.toContain("@keyframes ping");
    expect(stylesheetForPage(css, page("<p></p>"))).not.toContain("@keyframes");
  });

  it("keeps custom properties read by the page's inline styles", () => {
    expect(stylesheetForPage(css, page('<p style="color:var(--color-red)"></p>'))).toContain("--color-red:red");
  });

  it("copies rules as the stylesheet writes them, and a rule with nested rules whole", () => {
    const written =
      ".rounded-full{border-radius:2147483647px}.blur{-webkit-backdrop-filter:blur(8px);backdrop-filter:blur(8px)!important}.n{color:red;&:hover{color:var(--color-red)}}";
    expect(
      stylesheetForPage(
        `:root{--color-red:red;--unused:1px}${written}.other{color:red}`,
        page('<p class="rounded-full blur n"></p>'),
      ),
    ).toBe(`:root{--color-red:red}${written}`);
  });

  it("reads classes as React escapes them", () => {
    expect(classesInHtml('<b class="[&amp;&gt;svg]:size-4  px-2"></b><i class=""></i>')).toEqual(
      new Set(["[&>svg]:size-4", "px-2"]),
    );
  });
});

describe("a rendered page with its own stylesheet", () => {
  const css = ".text-white{color:#fff}.text-sky{color:#0af}";

  it("inlines the rules it uses, marks the whole stylesheet's address, and leaves the rest of the page alone", () => {
    const html = `<!DOCTYPE html><html><head><style id="site-css" nonce="abc">${css}</style></head><body class="min-h-screen"><p class="text-white">Hi</p></body></html>`;
    expect(withOwnStylesheet(html, css, "/assets/site-x.css")).toBe(
      '<!DOCTYPE html><html><head><style id="site-css" nonce="abc" data-whole-stylesheet="/assets/site-x.css">.text-white{color:#fff}</style></head><body class="min-h-screen"><p class="text-white">Hi</p></body></html>',
    );
  });

  it("returns a page without the stylesheet, or with another style element, unchanged", () => {
    expect(withOwnStylesheet("<p>plain</p>", css, "/x.css")).toBe("<p>plain</p>");
    expect(withOwnStylesheet(`<style>${css}</style>`, css, "/x.css")).toBe(`<style>${css}</style>`);
    expect(withOwnStylesheet("<p>plain</p>", "", "/x.css")).toBe("<p>plain</p>");
  });
});
