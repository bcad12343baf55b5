// The buyer's sign-in at /orders: asking for a code, mailing it in the buyer's language, signing in (issue 29).
import { msg } from "@lingui/core/macro";
import type { Kysely } from "kysely";
import { i18nFor } from "~/features/i18n/i18n.server";
import { type AnyLocale, localizedPath } from "~/features/i18n/locales";
import { mailDeliveryState, queueMail } from "~/features/mail/mail.server";
import { getDb } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";
import { hashIdentityForLog } from "~/platform/log-identity.server";
import { logger } from "~/platform/logger.server";
import { signInCodesAccepted, signInCodesSent } from "~/platform/metrics.server";
import { createRateLimiter, type RateLimiter } from "~/platform/rate-limit.server";
import type { Database } from "../../../db/schema";
import type { BuyerOrderSource } from "./buyer-orders";
import { CODE_MAIL_SEND_BY_MS, CODES_PER_ADDRESS_WINDOW_MS } from "./sign-in";
import { createSignInCode, hashSecret } from "./sign-in-store.server";

/** Per client address, shared by every instance through Redis like the other limits (docs/decisions/010). */
let clientLimiter: RateLimiter | undefined;
function codeRequestsPerClient(): RateLimiter {
  clientLimiter ??= createRateLimiter({
    name: "orders-sign-in",
    points: 10,
    durationSeconds: 15 * 60,
    error: "Too many codes asked for from this address.",
  });
  return clientLimiter;
}

export type CodeRequestResult = { sent: { id: string } } | { limited: { retryAfterSeconds: number } };

/**
 * A buyer asks for a code. The answer never depends on whether the address has orders: a code row is made either
 * way, and looking the orders up (which may ask the shop) and mailing happen after the answer, so neither its content
 * nor its timing tells one address from another.
 */
export async function requestSignInCode(input: {
  email: string;
  locale: AnyLocale;
  clientAddress: string;
  source: BuyerOrderSource;
}): Promise<CodeRequestResult> {
  const perClient = await codeRequestsPerClient().consume(input.clientAddress);
  if (!perClient.ok) return { limited: { retryAfterSeconds: perClient.retryAfterSeconds } };
  const { db } = getDb();
  const created = await createSignInCode(db, { email: input.email, locale: input.locale });
  if ("limited" in created) {
    logger.info({ to: hashIdentityForLog(input.email) }, "orders sign-in: too many codes for this address");
    return { limited: { retryAfterSeconds: Math.ceil(CODES_PER_ADDRESS_WINDOW_MS / 1000) } };
  }
  void mailCodeIfOrders(db, input, created).catch((err) =>
    logger.error({ err, to: hashIdentityForLog(input.email) }, "orders sign-in: the code could not be queued"),
  );
  return { sent: { id: created.id } };
}

async function mailCodeIfOrders(
  db: Kysely<Database>,
  input: { email: string; locale: AnyLocale; source: BuyerOrderSource },
  created: { id: string; code: string; link: string; expiresAt: Date },
) {
  const orders = await input.source.ordersOf(input.email);
  if (orders.length === 0) {
    logger.info({ to: hashIdentityForLog(input.email) }, "orders sign-in: no orders, no code sent");
    return;
  }
  const env = getEnv();
  const link = `${new URL(env.PUBLIC_URL).origin}${localizedPath("/orders", input.locale)}?sign-in=${created.link}`;
  const i18n = i18nFor(input.locale);
  const code = created.code;
  const mail = await queueMail(
    {
      kind: "sign-in-code",
      to: input.email,
      subject: i18n._(msg`Your code for your orders: ${code}`),
      text: [
        i18n._(msg`Your code to see your orders: ${code}`),
        i18n._(msg`It works for 10 minutes. Or open this link, which works once:`),
        link,
        i18n._(msg`If you did not ask for it, you can ignore this mail: nothing happens without the code.`),
      ].join("\n\n"),
    },
    { sendBy: new Date(Math.min(created.expiresAt.getTime(), Date.now() + CODE_MAIL_SEND_BY_MS)) },
  );
  await db
    .updateTable("buyer_sign_in_codes")
    .set({ mail_id: mail.id })
    .where("id", "=", hashSecret("code", created.id))
    .execute();
  signInCodesSent.inc();
}

/** Whether the buyer may be told to wait for the code: false when its mail was given up (expired or failed). */
export async function codeMailState(mailId: string | null): Promise<"on-its-way" | "not-sent"> {
  if (mailId === null) return "on-its-way";
  const state = await mailDeliveryState(mailId);
  return state && (state.status === "expired" || state.status === "failed") ? "not-sent" : "on-its-way";
}

export function recordSignIn(via: "code" | "link", email: string) {
  signInCodesAccepted.inc({ via });
  logger.info({ to: hashIdentityForLog(email), via }, "orders sign-in: signed in");
}
