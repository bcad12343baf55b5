import { z } from "zod";
import { lowercaseId, nonEmpty, reportDuplicates } from "~/features/content/content";

/** `content/faq.json`: questions are shown in file order; ids become anchors (`/faq#refunds`). */
export const faqFileSchema = z
  .array(z.object({ id: lowercaseId, question: nonEmpty, answer: nonEmpty }))
  .min(1, { message: "expected at least one question" })
  .superRefine((items, ctx) => reportDuplicates(items, (q) => q.id, "id", "question id", ctx));
export type FaqItem = z.infer<typeof faqFileSchema>[number];
