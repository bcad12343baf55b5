// The Content room's model (issue 44): which documents there are and, per language, whether each has its own text,
// falls back to English, or is older than the English it translates; and a readable diff between two revisions.
import type { Kysely } from "kysely";
import { DEFAULT_LOCALE } from "~/features/i18n/locales";
import { fileDefault, latestRevisions } from "~/features/content/content-overrides.server";
import {
  type ContentDocumentId,
  DOCUMENT_KINDS,
  type DocumentKind,
  documentPath,
  isMarkdown,
} from "~/features/content/content-documents";
import { LOCALE_CODES, type Locale } from "~/features/i18n/locales";
import { LEGAL_SLUGS } from "~/features/legal/legal-pages";
import type { Database } from "../../../../db/schema";

/** `own`: the language has its own text; `english`: it shows the English; `older`: the English changed after it. */
export type LanguageState = "own" | "english" | "older";

export interface ListedDocument {
  kind: DocumentKind;
  key: string;
  /** Per language, its state (English is always its own). */
  languages: Record<Locale, LanguageState>;
  /** Languages with an unpublished draft. */
  drafts: Locale[];
}

interface LatestRow {
  kind: string;
  locale: string;
  doc_key: string;
  value: string | null;
  created_at: string;
}

/** Every document with the state of each language, from one read of the latest revisions and the drafts. */
export async function listDocuments(db: Kysely<Database>): Promise<ListedDocument[]> {
  const latest = (await latestRevisions(db)
    .select(["r.kind", "r.locale", "r.doc_key", "r.value", "r.created_at"])
    .execute()) as LatestRow[];
  const drafts = await db.selectFrom("content_drafts").select(["kind", "locale", "doc_key"]).execute();
  const at = (kind: string, locale: string, key: string) =>
    latest.find((row) => row.kind === kind && row.locale === locale && row.doc_key === key);
  return DOCUMENT_KINDS.flatMap((kind) =>
    (kind === "legal" ? [...LEGAL_SLUGS] : [""]).map((key) => {
      const english = at(kind, DEFAULT_LOCALE, key);
      const languages = Object.fromEntries(
        LOCALE_CODES.map((locale) => {
          if (locale === DEFAULT_LOCALE) return [locale, "own"];
          const own = at(kind, locale, key);
          const hasText = own
            ? own.value !== null || fileDefault({ kind, locale, key }) !== undefined
            : fileDefault({ kind, locale, key }) !== undefined;
          if (!hasText) return [locale, "english"];
          // The English was published after this language's text: it may translate what the English no longer says.
          const older = english !== undefined && (own === undefined || own.created_at < english.created_at);
          return [locale, older ? "older" : "own"];
        }),
      ) as Record<Locale, LanguageState>;
      return {
        kind,
        key,
        languages,
        drafts: drafts.filter((row) => row.kind === kind && row.doc_key === key).map((row) => row.locale as Locale),
      };
    }),
  );
}

/** The text the form starts from: a JSON document pretty-printed, Markdown as written. */
export function readable(id: ContentDocumentId, text: string | null | undefined): string {
  if (text === null || text === undefined) return "";
  if (isMarkdown(id)) return text;
  try {
    return `${JSON.stringify(JSON.parse(text), null, 2)}\n`;
  } catch {
    return text;
  }
}

export interface DiffLine {
  kind: "same" | "added" | "removed";
  text: string;
}

/** A line diff (the longest common subsequence), unchanged runs cut to 2 lines of context around each change. */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = before.split("\n");
  const b = after.split("\n");
  // Past 2,000 lines each the table would be large: show it as removed and added.
  if (a.length * b.length > 4_000_000)
    return [
      ...a.map((text) => ({ kind: "removed" as const, text })),
      ...b.map((text) => ({ kind: "added" as const, text })),
    ];
  const width = b.length + 1;
  const table = new Uint32Array((a.length + 1) * width);
  const length = (i: number, j: number) => table[i * width + j] ?? 0;
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      table[i * width + j] = a[i] === b[j] ? length(i + 1, j + 1) + 1 : Math.max(length(i + 1, j), length(i, j + 1));
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push({ kind: "same", text: a[i] ?? "" });
      i++;
      j++;
    } else if (j < b.length && (i >= a.length || length(i, j + 1) >= length(i + 1, j))) {
      lines.push({ kind: "added", text: b[j] ?? "" });
      j++;
    } else {
      lines.push({ kind: "removed", text: a[i] ?? "" });
      i++;
    }
  }
  return lines.filter((line, n) => {
    if (line.kind !== "same") return true;
    for (let k = Math.max(0, n - 2); k <= Math.min(lines.length - 1, n + 2); k++)
      if (lines[k]?.kind !== "same") return true;
    return false;
  });
}

/** The document's file in content/, as the console names it. */
export function documentFile(id: ContentDocumentId): string {
  return `content/${documentPath(id)}`;
}
