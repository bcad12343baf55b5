import { z } from "zod";

// The building blocks every feature's content schema (`<feature>.content.ts`) is written with, and how a failure reads.

export const nonEmpty = z.string().trim().min(1, { message: "expected a non-empty string" });
export const positiveNumber = z
  .number({ message: "expected a positive number" })
  .positive({ message: "expected a positive number" });
export const localPath = z.string().regex(/^\/[^\s]*$/, { message: "expected a site path starting with /" });
export const siteOrAbsoluteHref = z
  .string()
  .regex(/^(\/[^\s]*|https:\/\/[^\s]+)$/, { message: "expected a site path starting with / or an https:// URL" });
export const isoDate = z.iso.date({ message: "expected a date YYYY-MM-DD" });
export const lowercaseId = z.string().regex(/^[a-z0-9-]+$/, { message: "expected a lowercase id" });

export const imageSchema = z.object({
  src: localPath,
  alt: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type Image = z.infer<typeof imageSchema>;

/** Adds a `duplicate <what> "<value>" (also at [i])` issue at `[j].<field>` for each repeated key. */
export function reportDuplicates<T>(
  items: readonly T[],
  key: (item: T) => string,
  field: string,
  what: string,
  ctx: z.RefinementCtx,
) {
  const seen = new Map<string, number>();
  items.forEach((item, i) => {
    const value = key(item);
    const earlier = seen.get(value);
    if (earlier !== undefined)
      ctx.addIssue({
        code: "custom",
        path: [i, field],
        message: `duplicate ${what} "${value}" (also at [${earlier}])`,
      });
    else seen.set(value, i);
  });
}

/** Formats a zod path like `[2].durations[1].multiplier`. */
export function formatIssuePath(path: ReadonlyArray<PropertyKey>): string {
  return path
    .map((part, i) => (typeof part === "number" ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`))
    .join("");
}

export class ContentError extends Error {}

/** Validates one content file; errors read `content/products.json: [2].durations[1].multiplier: expected a positive number`. */
export function parseContent<T extends z.ZodType>(file: string, schema: T, data: unknown): z.infer<T> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const where = formatIssuePath(issue.path);
    return `${file}: ${where ? `${where}: ` : ""}${issue.message}`;
  });
  throw new ContentError(lines.join("\n"));
}
