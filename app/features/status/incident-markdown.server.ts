// An incident message's Markdown as HTML (issue 35), on the server only: /status, the incident pages, the console's
// preview and the Atom feed all show this one rendering. A small subset: paragraphs, line breaks (a single newline
// is one, as the plain-text rendering before it kept them), emphasis, strong, inline code, code blocks, lists and
// http/https/mailto links. Raw HTML is shown as the text it is; images, headings, quotes, rules and tables are not
// part of it. Nothing it writes needs an inline style or script (the CSP forbids both).
import { Marked, type Tokens } from "marked";
import sanitizeHtml from "sanitize-html";
import { escapeMarkup } from "~/lib/escape-markup";

const LINK_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);
export const INCIDENT_LINK_REL = "nofollow noopener noreferrer";

/** The link's address when it is an absolute http, https or mailto URL; anything else (javascript:, relative) is not. */
function allowedHref(href: string): string | undefined {
  try {
    const url = new URL(href);
    return LINK_PROTOCOLS.has(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Escaped text with its newlines as line breaks: what a block of raw HTML shows as. */
function textWithBreaks(text: string): string {
  return escapeMarkup(text).replace(/\n/g, "<br>");
}

// A tokenizer that answers undefined is skipped: those lines are read as paragraph text instead.
const skipped = () => undefined;

const markdown = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  tokenizer: { heading: skipped, lheading: skipped, hr: skipped, blockquote: skipped, table: skipped },
  renderer: {
    html({ text, block }: Tokens.HTML | Tokens.Tag) {
      return block ? `<p>${textWithBreaks(text.trim())}</p>\n` : escapeMarkup(text);
    },
    link({ href, tokens }: Tokens.Link) {
      const inner = this.parser.parseInline(tokens);
      const safe = allowedHref(href);
      return safe ? `<a href="${escapeMarkup(safe)}" rel="${INCIDENT_LINK_REL}">${inner}</a>` : inner;
    },
    image({ text }: Tokens.Image) {
      return escapeMarkup(text);
    },
    code({ text }: Tokens.Code) {
      return `<pre><code>${escapeMarkup(text)}</code></pre>\n`;
    },
    checkbox() {
      return "";
    },
  },
});

/** What may leave the renderer, checked again by an allow-list: a second wall if Markdown ever finds a way around. */
const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: ["p", "br", "em", "strong", "del", "code", "pre", "ul", "ol", "li", "a"],
  allowedAttributes: { a: ["href", "rel"], ol: ["start"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesAppliedToAttributes: ["href"],
  allowProtocolRelative: false,
  disallowedTagsMode: "escape",
};

/** An incident message (as the console, the CLI or the seed wrote it) as safe HTML. */
export function renderIncidentMarkdown(text: string): string {
  let html: string;
  try {
    html = markdown.parse(text, { async: false });
  } catch {
    // Never a failed page over a message: the text as written, its paragraphs and line breaks kept.
    html = text
      .split(/\n{2,}/)
      .filter((block) => block.trim() !== "")
      .map((block) => `<p>${textWithBreaks(block)}</p>`)
      .join("\n");
  }
  return sanitizeHtml(html, ALLOWED).trim();
}
