import * as cheerio from "cheerio";
import { describe, expect, it } from "vitest";
import { renderIncidentMarkdown } from "./incident-markdown.server";

const REL = 'rel="nofollow noopener noreferrer"';

describe("renderIncidentMarkdown", () => {
  it("renders plain text as before: a paragraph, a blank line between paragraphs, a single newline a line break", () => {
    expect(renderIncidentMarkdown("Activations are slow.")).toBe("<p>Activations are slow.</p>");
    expect(renderIncidentMarkdown("First.\n\nSecond,\nthird.")).toBe("<p>First.</p>\n<p>Second,<br />third.</p>");
    expect(renderIncidentMarkdown("")).toBe("");
  });

  it("renders the subset: emphasis, strong, inline code, code blocks, lists and links", () => {
    expect(renderIncidentMarkdown("*a* **b** `c`")).toBe("<p><em>a</em> <strong>b</strong> <code>c</code></p>");
    expect(renderIncidentMarkdown("```\nnpm run fix\n```")).toBe("<pre><code>npm run fix</code></pre>");
    expect(renderIncidentMarkdown("- one\n- two\n\n1. first")).toBe(
      "<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n<ol>\n<li>first</li>\n</ol>",
    );
    expect(renderIncidentMarkdown("[notes](https://example.com/a?b=1&c=2) or [mail](mailto:ops@example.com)")).toBe(
      `<p><a href="https://example.com/a?b=1&amp;c=2" ${REL}>notes</a> or <a href="mailto:ops@example.com" ${REL}>mail</a></p>`,
    );
    expect(renderIncidentMarkdown("See https://example.com")).toBe(
      `<p>See <a href="https://example.com/" ${REL}>https://example.com</a></p>`,
    );
  });

  it("shows raw HTML as text: <script>, an <img onerror>, a link written as HTML", () => {
    expect(renderIncidentMarkdown("<script>alert(1)</script>")).toBe("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>");
    expect(renderIncidentMarkdown("Down <img src=x onerror=alert(1)> now")).toBe(
      "<p>Down &lt;img src=x onerror=alert(1)&gt; now</p>",
    );
    expect(renderIncidentMarkdown('<a href="javascript:alert(1)">x</a>')).toBe(
      '<p>&lt;a href="javascript:alert(1)"&gt;x&lt;/a&gt;</p>',
    );
    expect(renderIncidentMarkdown("<div>\n<b>bold</b>\n</div>")).toBe(
      "<p>&lt;div&gt;<br />&lt;b&gt;bold&lt;/b&gt;<br />&lt;/div&gt;</p>",
    );
  });

  it("keeps a javascript:, data: or relative link's text and drops the link, however it is spelt", () => {
    for (const href of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "javascript&colon;alert(1)",
      "&#106;avascript:alert(1)",
      " javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox(1)",
      "/admin",
      "//evil.example",
    ])
      expect(renderIncidentMarkdown(`[click](${href})`), href).toBe("<p>click</p>");
    expect(renderIncidentMarkdown("[a][r]\n\n[r]: javascript:alert(1)")).toBe("<p>a</p>");
    expect(renderIncidentMarkdown("<javascript:alert(1)>")).not.toContain("<a");
  });

  it("keeps HTML entities as the text they stand for, never as markup", () => {
    expect(renderIncidentMarkdown("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#x3C;b&#x3E;")).toBe(
      "<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;</p>",
    );
  });

  it("renders no images, headings, quotes, rules or tables: their text stays", () => {
    expect(renderIncidentMarkdown("![the logo](https://example.com/x.png)")).toBe("<p>the logo</p>");
    expect(renderIncidentMarkdown("# Down\n> quoted\n---")).toBe("<p># Down<br />&gt; quoted<br />---</p>");
    expect(renderIncidentMarkdown("Title\n===")).toBe("<p>Title<br />===</p>");
    expect(renderIncidentMarkdown("| a |\n|---|\n| 1 |")).toBe("<p>| a |<br />|---|<br />| 1 |</p>");
  });

  it("writes nothing that needs an inline style or script, nor any attribute beyond href, rel and start", () => {
    const html = renderIncidentMarkdown(
      '**x** <span style="color:red" onclick="x()">y</span> [z](https://example.com "t")\n\n- [ ] task\n\n3. c\n\n```js\nx\n```',
    );
    const $ = cheerio.load(html, null, false);
    const elements = $("*")
      .toArray()
      .map((node) => $(node));
    expect(new Set(elements.map((el) => el.prop("tagName")?.toLowerCase()))).toEqual(
      new Set(["p", "strong", "a", "ul", "li", "ol", "pre", "code"]),
    );
    expect(new Set(elements.flatMap((el) => Object.keys(el.attr() ?? {})))).toEqual(new Set(["href", "rel", "start"]));
    expect($.text()).toContain('<span style="color:red" onclick="x()">y</span>');
  });
});
