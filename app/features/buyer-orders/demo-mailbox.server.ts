import { data } from "react-router";
import { listKeptMail } from "~/features/mail/mail-outbox.server";
import { getDb, pageDatabaseWork } from "~/platform/db.server";
import { getEnv } from "~/platform/env.server";

export interface KeptMailView {
  id: string;
  to: string;
  subject: string;
  text: string;
  createdAt: string;
}

/** The demo's mailbox: mail kept in the database (no SMTP_URL), only with the demo checkout; 404 with a real shop. */
export async function loadDemoMailbox(): Promise<KeptMailView[]> {
  const env = getEnv();
  if (env.CHECKOUT_PROVIDER !== "demo" || env.SMTP_URL !== undefined)
    throw data(null, { status: 404, headers: { "Cache-Control": "no-store" } });
  const mail = await pageDatabaseWork(() => listKeptMail(getDb().db, { limit: 20 }));
  return mail.map(({ id, to, subject, text, createdAt }) => ({ id, to, subject, text, createdAt }));
}
