import { z } from "zod";
import { INCIDENT_STATUSES, KNOWN_STATUSES } from "./status";

/** A product's probe: `url` answers `expectStatus` within `timeoutSeconds`, checked every `intervalSeconds`. */
export const probeSchema = z
  .object({
    url: z.url({ protocol: /^https?$/, message: "expected an http(s) URL" }),
    expectStatus: z.number().int().min(100).max(599).default(200),
    // The lower bound of 30 s is checked at boot (STATUS_PROBE_MIN_INTERVAL_SECONDS lowers it for tests).
    intervalSeconds: z.number().positive().default(60),
    timeoutSeconds: z.number().positive().max(60).default(10),
  })
  .strict()
  .refine((probe) => probe.timeoutSeconds < probe.intervalSeconds, {
    message: "timeoutSeconds must be shorter than intervalSeconds",
    path: ["timeoutSeconds"],
  });

export type ProbeConfig = z.infer<typeof probeSchema>;

/** `content/status.json`: the rows /status starts with on first boot (operators change them with the CLI afterwards). */
export const statusFileSchema = z
  .array(
    z.object({
      name: z.string().trim().min(1),
      status: z.string().trim().min(1),
      /** No longer read: uptime is computed from the recorded history. Accepted so older files still load. */
      uptime: z.string().optional(),
      probe: probeSchema.optional(),
    }),
  )
  .min(1)
  .refine((rows) => new Set(rows.map((r) => r.name.toLowerCase())).size === rows.length, {
    message: "product names must be unique",
  });

const clockTime = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, { message: "expected a UTC time like 14:05 or 14:05:30" });

/**
 * `content/status-history.demo.json`: DEMO DATA, so a fresh demo shows 90 days of bars. Imported once, on first boot,
 * relative to that moment (`daysAgo`); a real shop deletes the file and its history starts at its first boot.
 */
export const demoHistorySchema = z
  .object({
    note: z.string().optional(),
    trackedDays: z.number().int().min(1).max(365),
    events: z.array(
      z
        .object({
          product: z.string().trim().min(1),
          status: z.enum(KNOWN_STATUSES.filter((s) => s !== "operational") as ["maintenance", "outage"]),
          daysAgo: z.number().int().min(0),
          at: clockTime,
          durationSeconds: z.number().int().positive(),
          incident: z
            .object({
              title: z.string().trim().min(1).max(200),
              updates: z
                .array(
                  z.object({
                    afterSeconds: z.number().int().min(0),
                    status: z.enum(INCIDENT_STATUSES),
                    body: z.string().trim().min(1).max(2000),
                  }),
                )
                .min(1),
            })
            .optional(),
        })
        .strict(),
    ),
  })
  .strict();

export type DemoHistory = z.infer<typeof demoHistorySchema>;
