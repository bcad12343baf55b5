// The SMTP server (SMTP_URL), through nodemailer. Its options and errors stay in this module: callers pass our types.
import nodemailer from "nodemailer";
import { withoutAddresses } from "./mail";

/** How long connecting, the greeting and each silence of the server may last before an attempt counts as failed. */
export const SMTP_TIMEOUT_MS = 10_000;

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /** `<id@domain>`: the same on every attempt, so a receiver can tell a re-sent mail from a new one. */
  messageId: string;
}

export type SmtpOutcome =
  | { outcome: "sent" }
  /** Worth another try later: the server could not be reached, timed out, or answered 4xx. */
  | { outcome: "retry"; reason: string }
  /** The server refused the mail for good (5xx): sending it again would get the same answer. */
  | { outcome: "rejected"; reason: string; responseCode: number };

export interface SmtpSender {
  send(mail: OutgoingMail, options?: { signal?: AbortSignal }): Promise<SmtpOutcome>;
  close(): void;
}

/** Where mail goes, for logs: scheme, host and port, never the credentials. */
export function describeSmtpServer(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  return `${url.protocol}//${url.host}`;
}

interface SmtpError {
  code?: unknown;
  responseCode?: unknown;
  response?: unknown;
  message?: unknown;
}

/** Reads nodemailer's error: what the server answered (without addresses), and whether trying again can help. */
export function classifySmtpError(error: unknown): Exclude<SmtpOutcome, { outcome: "sent" }> {
  const { code, responseCode, response, message } = (error ?? {}) as SmtpError;
  const said = typeof response === "string" && response ? response : typeof message === "string" ? message : "";
  const prefix = typeof code === "string" ? `${code}: ` : "";
  const reason = withoutAddresses(`${prefix}${said}`).replace(/\s+/g, " ").trim().slice(0, 300) || "unknown error";
  // A refused login is the configuration's fault, not the mail's: it is retried until the operator fixes SMTP_URL.
  if (typeof responseCode === "number" && responseCode >= 500 && responseCode < 600 && code !== "EAUTH")
    return { outcome: "rejected", reason, responseCode };
  return { outcome: "retry", reason };
}

/**
 * A sender for SMTP_URL: `smtp://` upgrades with STARTTLS when the server offers it, `smtps://` speaks TLS from the
 * start; user and password in the URL log in. One connection per mail: mail is rare and a pool would hold a
 * connection the server may drop.
 */
export function createSmtpSender(smtpUrl: string, options: { timeoutMs?: number } = {}): SmtpSender {
  const timeoutMs = options.timeoutMs ?? SMTP_TIMEOUT_MS;
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    // Our mails carry no attachments: the library must never read a file or fetch a URL for one.
    disableFileAccess: true,
    disableUrlAccess: true,
    logger: false,
  });
  return {
    async send(mail, { signal } = {}) {
      try {
        await transport.sendMail({
          from: mail.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          ...(mail.html ? { html: mail.html } : {}),
          messageId: mail.messageId,
          ...(signal ? { signal } : {}),
        });
        return { outcome: "sent" };
      } catch (error) {
        return classifySmtpError(error);
      }
    },
    close() {
      transport.close();
    },
  };
}
