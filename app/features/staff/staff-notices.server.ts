// Notice mails to a person of the team (issue 42): an owner's invitation of someone who already has an account, and
// every passkey added to or removed from it, is mailed to their address through the outbox (ADR 021), in the transaction
// of the change itself, saying what changed, when, by whom, and what to do if it was not them. Kept in the database
// when no SMTP server is configured. In the language of the page the change was made on.
import { msg } from "@lingui/core/macro";
import type { Kysely } from "kysely";
import { i18nFor } from "~/features/i18n/i18n.server";
import { type AnyLocale, localizedPath } from "~/features/i18n/locales";
import { queueMail } from "~/features/mail/mail.server";
import { getEnv } from "~/platform/env.server";
import type { Database } from "../../../db/schema";
import { CONSOLE_PATH } from "./roles";

export type StaffNotice =
  | { kind: "invited-again" }
  | { kind: "passkey-added"; passkey: string; via: "setup-link" | "session" }
  | { kind: "passkey-removed"; passkey: string };

/** "2026-12-02 05:40 UTC": the same in every language, and the person's own clock is unknown to the server. */
function utcMinute(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * Queues the notice on `db` (the change's transaction: the mail is stored with the change, or not at all). `by` is the
 * actor's email address. Wake the mail worker after the
 * commit (`wakeMailDelivery`).
 */
export async function queueStaffNotice(
  db: Kysely<Database>,
  input: { to: string; by: string; notice: StaffNotice; locale: AnyLocale; now?: Date },
): Promise<void> {
  const i18n = i18nFor(input.locale);
  const when = utcMinute(input.now ?? new Date());
  const who = input.by;
  const account = `${new URL(getEnv().PUBLIC_URL).origin}${localizedPath(`${CONSOLE_PATH}/account`, input.locale)}`;
  const { notice } = input;
  let subject: string;
  let what: string;
  let ifNotYou: string;
  if (notice.kind === "invited-again") {
    subject = i18n._(msg`Your console account: a new setup link was made`);
    what = i18n._(
      msg`A setup link was made for your console account. Whoever opens it within one hour can add a passkey to your account.`,
    );
    ifNotYou = i18n._(
      msg`If you did not ask for it, tell an owner of the shop now. Once you are signed in, check your passkeys at ${account} and remove any you do not know.`,
    );
  } else if (notice.kind === "passkey-added") {
    const name = notice.passkey;
    subject = i18n._(msg`Your console account: a passkey was added`);
    what =
      notice.via === "setup-link"
        ? i18n._(msg`The passkey "${name}" was added to your console account through a setup link.`)
        : i18n._(msg`The passkey "${name}" was added to your console account.`);
    ifNotYou = i18n._(
      msg`If this was not you, sign in at ${account}, remove that passkey, press Sign out everywhere, and tell an owner of the shop. If you cannot sign in, ask an owner to remove you and invite you again.`,
    );
  } else {
    const name = notice.passkey;
    subject = i18n._(msg`Your console account: a passkey was removed`);
    what = i18n._(msg`The passkey "${name}" was removed from your console account.`);
    ifNotYou = i18n._(
      msg`If this was not you, sign in at ${account}, press Sign out everywhere, check your passkeys, and tell an owner of the shop.`,
    );
  }
  await queueMail(
    {
      kind: `staff-${notice.kind}`,
      to: input.to,
      subject,
      text: [what, i18n._(msg`When: ${when}`), i18n._(msg`By: ${who}`), ifNotYou].join("\n\n"),
    },
    { db },
  );
}
