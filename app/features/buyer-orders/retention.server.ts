import type { Kysely } from "kysely";
import type { Database } from "../../../db/schema";
import { deleteFinishedMail } from "~/features/mail/mail-outbox.server";
import { getDb } from "~/platform/db.server";
import { logger } from "~/platform/logger.server";
import { deleteSpentSignIns } from "./sign-in-store.server";

const DAY_MS = 24 * 60 * 60 * 1000;

/** How long what the sign-in leaves behind is kept (docs/orders.md, "What is kept, and for how long"). */
export const RETENTION = {
  /** Mail carries codes and links, dead after 10 minutes; a week lets an operator answer "did my code go out?". */
  mailDays: 7,
  /** A dead code is kept a day, long past the 15-minute window that counts codes per address. */
  codeDays: 1,
} as const;

/** One pass: old mail, dead codes and ended sessions go. Safe on every instance at once (plain deletes). */
export async function forgetOldSignIns(db: Kysely<Database>, now = new Date()) {
  const mail = await deleteFinishedMail(db, new Date(now.getTime() - RETENTION.mailDays * DAY_MS));
  const { codes, sessions } = await deleteSpentSignIns(db, {
    codesBefore: new Date(now.getTime() - RETENTION.codeDays * DAY_MS),
    now,
  });
  return { mail, codes, sessions };
}

/** Runs a pass a minute after boot and every hour after; returns the stop for shutdown. */
export function startSignInRetention(): () => void {
  const pass = () =>
    forgetOldSignIns(getDb().db)
      .then((gone) => {
        if (gone.mail + gone.codes + gone.sessions > 0)
          logger.info(gone, "orders sign-in: old mail, codes and sessions deleted");
      })
      .catch((err) => logger.warn({ err }, "orders sign-in: the retention pass failed; it runs again within the hour"));
  const first = setTimeout(pass, 60_000);
  const hourly = setInterval(pass, 60 * 60 * 1000);
  first.unref();
  hourly.unref();
  return () => {
    clearTimeout(first);
    clearInterval(hourly);
  };
}
