import { z } from "zod";

/** `content/status.json`: the rows /status starts with on first boot (operators change them with the CLI afterwards). */
export const statusFileSchema = z
  .array(z.object({ name: z.string().trim().min(1), status: z.string().trim().min(1), uptime: z.string().regex(/^\d{1,3}(\.\d+)?$/, { message: "expected an uptime percentage like 99.9" }) }))
  .min(1);
