import { z } from "zod";
import { lowercaseId, nonEmpty, reportDuplicates } from "~/features/content/content";

/** `content/plans.json`: the reseller plans; a custom plan is priced "Custom" and only then. */
export const plansFileSchema = z.object({
  intro: nonEmpty,
  includedInEveryPlan: z.array(nonEmpty).default([]),
  plans: z
    .array(
      z
        .object({
          id: lowercaseId,
          name: nonEmpty,
          price: z.string().regex(/^(\$\d+(\.\d{2})?(\/month)?|Custom)$/, {
            message: 'expected a price like "$60", "$175/month" or "Custom"',
          }),
          priceDetail: nonEmpty,
          description: nonEmpty,
          features: z.array(nonEmpty).min(1, { message: "expected at least one feature" }),
          custom: z.boolean().default(false),
          highlighted: z.boolean().default(false),
        })
        .refine((plan) => plan.custom === (plan.price === "Custom"), {
          path: ["price"],
          message: 'expected "Custom" exactly when the plan is marked custom',
        }),
    )
    .min(1, { message: "expected at least one plan" })
    .superRefine((items, ctx) => reportDuplicates(items, (p) => p.id, "id", "plan id", ctx)),
});
export type PlansFile = z.infer<typeof plansFileSchema>;
export type Plan = PlansFile["plans"][number];
