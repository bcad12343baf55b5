// Saved replies (issue 35): what the server and the inbox's message box agree on. Safe in the browser.
import { z } from "zod";
import { LOCALE_CODES, type Locale } from "~/features/i18n/locales";
import { MAX_MESSAGE_LENGTH } from "~/features/support-conversation/support-conversation";

export const SAVED_REPLY_TITLE_MAX = 100;
/** A saved reply's text goes into the inbox's message box, so it is no longer than a message may be. */
export const SAVED_REPLY_BODY_MAX = MAX_MESSAGE_LENGTH;
/** The form's value for a reply written for every language (stored as a null locale). */
export const ANY_LANGUAGE = "any";

/** What the inbox's message box offers: a reply's title to find it by and the text it inserts. */
export interface SavedReplyChoice {
  id: string;
  title: string;
  body: string;
  /** Null: any language. */
  locale: Locale | null;
}

const wellFormed = (text: string) => text.isWellFormed();

/** A saved reply as a form sends it; each problem names its field, so the page can say which one to fix. */
export const savedReplyInputSchema = z.object({
  title: z.string().trim().min(1, "empty").max(SAVED_REPLY_TITLE_MAX, "too-long").refine(wellFormed, "broken"),
  body: z.string().trim().min(1, "empty").max(SAVED_REPLY_BODY_MAX, "too-long").refine(wellFormed, "broken"),
  locale: z
    .enum([ANY_LANGUAGE, ...LOCALE_CODES], { message: "unknown" })
    .transform((value): Locale | null => (value === ANY_LANGUAGE ? null : value)),
});
export type SavedReplyInput = z.infer<typeof savedReplyInputSchema>;
export type SavedReplyField = keyof SavedReplyInput;

/** The replies whose title contains `query` (any case), those that start with it first, each group in list order. */
export function matchSavedReplies<R extends { title: string }>(replies: readonly R[], query: string): R[] {
  const wanted = query.trim().toLocaleLowerCase();
  if (wanted === "") return [...replies];
  const starting: R[] = [];
  const containing: R[] = [];
  for (const reply of replies) {
    const title = reply.title.toLocaleLowerCase();
    if (title.startsWith(wanted)) starting.push(reply);
    else if (title.includes(wanted)) containing.push(reply);
  }
  return [...starting, ...containing];
}
