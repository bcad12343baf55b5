import { z } from "zod";

/** How long a solved challenge stays valid; the spent-payload record lives exactly as long. */
export const CHALLENGE_TTL_SECONDS = 10 * 60;

const challengeSchema = z.object({
  parameters: z
    .object({
      algorithm: z.string().min(1).max(32),
      nonce: z.string().min(1).max(256),
      salt: z.string().min(1).max(256),
      cost: z.number().int().positive(),
      keyLength: z.number().int().positive().max(64),
      keyPrefix: z.string().max(256),
      keySignature: z.string().max(256).optional(),
      expiresAt: z.number().optional(),
      data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
    })
    .loose(),
  signature: z.string().min(1).max(256),
});

/** The widget's payload: base64 of JSON `{challenge: {parameters, signature}, solution: {counter, derivedKey}}`. */
export const captchaPayloadSchema = z.object({
  challenge: challengeSchema,
  solution: z.object({ counter: z.number().int().nonnegative(), derivedKey: z.string().max(256) }).loose(),
});
export type CaptchaPayload = z.infer<typeof captchaPayloadSchema>;

export const MAX_CAPTCHA_PAYLOAD_LENGTH = 4096;

/** Decodes a widget payload; undefined when it is not base64 JSON of the expected shape. */
export function decodeCaptchaPayload(payload: unknown): CaptchaPayload | undefined {
  if (typeof payload !== "string" || payload.length === 0 || payload.length > MAX_CAPTCHA_PAYLOAD_LENGTH)
    return undefined;
  try {
    const parsed = captchaPayloadSchema.safeParse(JSON.parse(Buffer.from(payload, "base64").toString("utf8")));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export type CaptchaVerdict = { ok: true } | { ok: false; reason: "malformed" | "invalid" | "expired" | "reused" };
