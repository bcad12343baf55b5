import { z } from "zod";
import { type AnyLocale, LOCALE_CODES, PSEUDO_LOCALE } from "~/features/i18n/locales";

/**
 * The categories, by their English names: what a request carries and the chat channel shows, whatever language the
 * visitor chatted in (support-chat-messages.ts has the names the visitor sees). Renaming one breaks older clients.
 */
export const SUPPORT_CATEGORIES = ["Product Support", "Purchase Support", "Key Reset"] as const;
export type SupportCategory = (typeof SUPPORT_CATEGORIES)[number];

/**
 * The fixed questions per category, in the shop's language: the server checks the answer count against these and the
 * webhook repeats them (the visitor is asked them in the page's language, support-chat-messages.ts).
 */
export const SUPPORT_QUESTIONS: Record<SupportCategory, readonly string[]> = {
  "Product Support": [
    "Which product are you having issues with?",
    "Please describe the issue you are experiencing.",
    "What steps have you already tried to solve it?",
    "What is your email address or chat username, so we can reach you?",
  ],
  "Purchase Support": [
    "Which product are you trying to purchase?",
    "Which payment method are you using?",
    "Please describe the issue you are experiencing.",
    "What is your email address or chat username, so we can reach you?",
  ],
  "Key Reset": [
    "Which product key needs to be reset?",
    "What is the reason for the reset?",
    "What is your email address or chat username, so we can reach you?",
  ],
};

export const GREETING = "Welcome to Kestrel Software support! Please select a support category below.";
export const CLOSING_MESSAGES: Record<SupportCategory, string> = {
  "Key Reset":
    "Thank you! Your key reset request has been submitted. Your key will usually be reset in the next 1 - 2 hours.",
  "Product Support":
    "Thank you for contacting support! Your request has been submitted and our team will respond soon.",
  "Purchase Support":
    "Thank you for contacting support! Your request has been submitted and our team will respond soon.",
};

export const MAX_ANSWER_LENGTH = 900;
/** The character counter shows up once an answer gets this close to the limit. */
export const COUNTER_THRESHOLD = 750;

export function isSupportCategory(value: unknown): value is SupportCategory {
  return typeof value === "string" && (SUPPORT_CATEGORIES as readonly string[]).includes(value);
}

export const LONE_SURROGATE_MESSAGE = "Answers cannot contain broken characters (a lone UTF-16 surrogate)";

const REQUEST_LOCALES: [AnyLocale, ...AnyLocale[]] = [PSEUDO_LOCALE, ...LOCALE_CODES];

/**
 * What the browser sends to POST /api/support (the server parses it with the same schema). `locale` is the language
 * of the page the visitor chatted on, so the team knows which language to answer in; clients from before it existed
 * send none.
 */
export const supportRequestSchema = z
  .object({
    category: z.enum(SUPPORT_CATEGORIES, { message: "Unknown support category" }),
    locale: z.enum(REQUEST_LOCALES, { message: "Unknown locale" }).optional(),
    answers: z.array(
      z
        .string({ message: "Answers must be text" })
        .trim()
        .min(1, { message: "Answers cannot be empty" })
        .max(MAX_ANSWER_LENGTH, { message: `Answers are at most ${MAX_ANSWER_LENGTH} characters` })
        // Half an emoji cannot be stored as UTF-8 or shown in the chat channel, which would refuse the message.
        .refine((answer) => answer.isWellFormed(), { message: LONE_SURROGATE_MESSAGE }),
      { message: "Answers must be a list" },
    ),
    altcha: z.string({ message: "Captcha payload missing" }).min(1, { message: "Captcha payload missing" }).max(8192),
  })
  .refine((request) => request.answers.length === SUPPORT_QUESTIONS[request.category].length, {
    message: "Wrong number of answers for this category",
    path: ["answers"],
  });
export type SupportRequestInput = z.infer<typeof supportRequestSchema>;
