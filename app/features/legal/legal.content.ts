import { z } from "zod";
import { isoDate, nonEmpty } from "~/features/content/content";
import { LEGAL_SLUGS } from "./legal-pages";

/** content/site.json `legal`: each page's title and date, in footer order. */
export const legalEntriesSchema = z.array(
  z.object({ slug: z.enum(LEGAL_SLUGS), title: nonEmpty, lastUpdated: isoDate }),
);
export type LegalEntry = z.infer<typeof legalEntriesSchema>[number];

// Template leftovers such as "[Company Name]", "{{date}}", "TODO" or lorem ipsum must never ship. The markers in
// capitals only: "todo" is Spanish and Portuguese for "all".
const PLACEHOLDER = /\[(?:your|company|insert|date|name|address|email|phone)[^\]]*\]|\{\{|lorem ipsum/i;
const PLACEHOLDER_MARKER = /\bTODO\b|\bTBD\b|\bXX+\b/;

/** Checks one legal Markdown file; returns problems as `content/legal/terms.md: ...` lines. */
export function checkLegalMarkdown(file: string, markdown: string, company: string): string[] {
  const problems: string[] = [];
  if (markdown.trim().length === 0) return [`${file}: expected Markdown text, got an empty file`];
  const placeholder = markdown.match(PLACEHOLDER) ?? markdown.match(PLACEHOLDER_MARKER);
  if (placeholder) problems.push(`${file}: contains the placeholder "${placeholder[0]}"`);
  if (!markdown.includes(company)) problems.push(`${file}: expected the company name "${company}" in the text`);
  return problems;
}
