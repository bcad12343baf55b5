import { type Mail, MAIL_STATUSES, type MailStatus } from "~/features/mail/mail";
import { findMail, listMail } from "~/features/mail/mail-outbox.server";
import { markHiddenCharacters } from "~/features/support-relay/chat-channel.server";
import { type CliCommand, formatTable, runWithDatabase, startCommand } from "./cli-context";

export const MAIL_USAGE = `Usage:
  npm run cli -- mail list [--status pending|sent|failed|expired|kept] [--limit 100] [--json]
  npm run cli -- mail list --id <id> [--json]

The mail outbox, newest first: kept mail (no SMTP_URL: it stays in the database) and mail sent through SMTP_URL
with what became of it. --id shows one mail whole, with its text: it may hold a buyer's sign-in code.`;

/** The flags of this command, besides COMMON_OPTIONS. */
const MAIL_OPTIONS = {
  status: { type: "string" },
  limit: { type: "string" },
  id: { type: "string" },
} as const;

function describeMail(mail: Mail): string {
  const lines = [
    `Mail ${mail.id}`,
    `  Kind:          ${mail.kind}`,
    `  From:          ${mail.from}`,
    `  To:            ${mail.to}`,
    `  Subject:       ${markHiddenCharacters(mail.subject)}`,
    `  Created:       ${mail.createdAt}`,
    `  Status:        ${mail.status}${mail.sentAt ? ` at ${mail.sentAt}` : ""}`,
    `  Attempts:      ${mail.attempts}`,
  ];
  if (mail.sendBy) lines.push(`  Send by:       ${mail.sendBy}`);
  if (mail.status === "pending") lines.push(`  Next attempt:  ${mail.nextAttemptAt}`);
  if (mail.lastError) lines.push(`  Last error:    ${mail.lastError}`);
  lines.push(
    `  Message-ID:    ${mail.messageId}`,
    "",
    `    ${markHiddenCharacters(mail.text).replace(/\n/g, "\n    ")}`,
  );
  if (mail.html) lines.push("", "  (also sent as HTML; --json shows it)");
  return lines.join("\n");
}

/** `mail list`: the mail outbox (kept mail, and mail sent through SMTP_URL with its outcome). */
export const mailCommand: CliCommand = async (argv, { db, out, err }) => {
  const started = startCommand(argv, MAIL_OPTIONS, MAIL_USAGE, { out, err });
  if (typeof started === "number") return started;
  const { values, action, rest, fail } = started;

  if (action === "list") {
    if (rest.length > 0) return fail(`"mail list" takes no arguments (got ${rest.join(" ")})`, 2);
    if (values.id !== undefined) {
      const mail = await findMail(db, values.id);
      if (!mail) return fail(`No mail with id ${values.id}`);
      out(values.json ? JSON.stringify(mail, null, 2) : describeMail(mail));
      return 0;
    }
    const status = values.status;
    if (status !== undefined && !(MAIL_STATUSES as readonly string[]).includes(status))
      return fail(`--status must be one of ${MAIL_STATUSES.join(", ")} (got "${status}")`, 2);
    const limit = values.limit === undefined ? 100 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
      return fail(`--limit must be a whole number from 1 to 10000`, 2);
    const mails = await listMail(db, { status: status as MailStatus | undefined, limit });
    if (values.json) out(JSON.stringify(mails, null, 2));
    else if (mails.length === 0) out(status ? `No ${status} mail.` : "No mail.");
    else {
      out(
        formatTable(
          ["ID", "CREATED", "STATUS", "KIND", "TO", "SUBJECT"],
          mails.map((m) => [m.id, m.createdAt, m.status, m.kind, m.to, markHiddenCharacters(m.subject)]),
        ),
      );
    }
    return 0;
  }

  return fail(`Unknown mail command "${action}"\n\n${MAIL_USAGE}`, 2);
};

/** Entry for the CLI dispatcher (`npm run cli -- mail ...`). */
export function runMailCli(argv: string[]): Promise<number> {
  return runWithDatabase(mailCommand, argv);
}
