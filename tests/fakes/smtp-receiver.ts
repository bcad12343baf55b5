// A real SMTP server on 127.0.0.1 (the smtp-server package), in-process: it keeps what it receives and answers
// 4xx or 5xx when a test queues that, so the mail worker is tested against the protocol, not a mock.
import { type SMTPServerAddress, SMTPServer } from "smtp-server";

export interface ReceivedMail {
  /** The envelope: MAIL FROM and RCPT TO as the client sent them. */
  mailFrom: string;
  rcptTo: string[];
  /** Header names lower-cased, values unfolded and decoded. */
  headers: Map<string, string>;
  subject: string;
  messageId: string;
  /** The text/plain part, decoded. */
  text: string;
  raw: string;
}

/** How the next mail transaction is answered: at RCPT TO or after DATA, with this code and text. */
export interface SmtpRefusal {
  at: "rcpt" | "data";
  code: number;
  message: string;
}

export interface SmtpReceiver {
  port: number;
  /** smtp://user:pass@127.0.0.1:port (or without credentials when none were asked). */
  url: string;
  received: ReceivedMail[];
  /** Answers the next transactions with these refusals, one each, in order. */
  refuse(...refusals: SmtpRefusal[]): void;
  /** Stops listening (the server is down); start() listens again on the same port. */
  close(): Promise<void>;
  start(): Promise<void>;
}

/** Quoted-printable (or a Q-encoded word's) text as the UTF-8 it stands for. */
function decodeQuotedPrintable(text: string): string {
  const bytes = text.replace(/=([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`) in a header value. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, "$1$2")
    .replace(/=\?[^?]+\?([bq])\?([^?]*)\?=/gi, (_, encoding: string, text: string) =>
      encoding.toLowerCase() === "b"
        ? Buffer.from(text, "base64").toString("utf8")
        : decodeQuotedPrintable(text.replace(/_/g, " ")),
    );
}

function decodeBody(body: string, encoding: string | undefined): string {
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") return decodeQuotedPrintable(body.replace(/=\r?\n/g, ""));
  return body;
}

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), decodeWords(line.slice(colon + 1).trim()));
  }
  return headers;
}

/** The text/plain part of a message (nodemailer sends text alone, or multipart/alternative with HTML). */
function textPart(headers: Map<string, string>, body: string): string {
  const type = headers.get("content-type") ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith("multipart/") || !boundary)
    return decodeBody(body, headers.get("content-transfer-encoding")?.toLowerCase()).replace(/\r\n/g, "\n");
  for (const part of body.split(`--${boundary}`).slice(1)) {
    const split = part.indexOf("\r\n\r\n");
    if (split < 0) continue;
    const partHeaders = parseHeaders(part.slice(0, split).trim());
    const text = textPart(partHeaders, part.slice(split + 4).replace(/\r\n$/, ""));
    if ((partHeaders.get("content-type") ?? "").toLowerCase().startsWith("text/plain")) return text;
  }
  return "";
}

export function parseReceivedMail(raw: string, envelope: { mailFrom: string; rcptTo: string[] }): ReceivedMail {
  const split = raw.indexOf("\r\n\r\n");
  const headers = parseHeaders(raw.slice(0, split));
  return {
    ...envelope,
    headers,
    subject: headers.get("subject") ?? "",
    messageId: headers.get("message-id") ?? "",
    text: textPart(headers, raw.slice(split + 4)).replace(/\n$/, ""),
    raw,
  };
}

const refusalError = (refusal: SmtpRefusal) =>
  Object.assign(new Error(refusal.message), { responseCode: refusal.code });
const addressOf = (address: SMTPServerAddress | false) => (address ? address.address : "");

/** Starts the receiver on a random port (or `port`); with `auth`, it asks for that user and password. */
export async function startSmtpReceiver(
  options: { port?: number; auth?: { user: string; pass: string }; dataDelayMs?: number } = {},
): Promise<SmtpReceiver> {
  const received: ReceivedMail[] = [];
  const refusals: SmtpRefusal[] = [];
  // A transaction's refusal is taken at RCPT TO and applied there or after DATA.
  const pendingDataRefusal = new WeakMap<object, SmtpRefusal>();
  let server: SMTPServer | undefined;
  let port = options.port ?? 0;
  const create = () =>
    new SMTPServer({
      logger: false,
      disabledCommands: options.auth ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
      allowInsecureAuth: true,
      authOptional: !options.auth,
      onAuth(auth, _session, callback) {
        if (auth.username === options.auth?.user && auth.password === options.auth?.pass)
          return callback(null, { user: auth.username });
        callback(Object.assign(new Error("Authentication failed"), { responseCode: 535 }));
      },
      onRcptTo(_address, session, callback) {
        const refusal = refusals.shift();
        if (refusal?.at === "rcpt") return callback(refusalError(refusal));
        if (refusal) pendingDataRefusal.set(session.envelope, refusal);
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          const finish = () => {
            const refusal = pendingDataRefusal.get(session.envelope);
            if (refusal) return callback(refusalError(refusal));
            received.push(
              parseReceivedMail(Buffer.concat(chunks).toString("utf8"), {
                mailFrom: addressOf(session.envelope.mailFrom),
                rcptTo: session.envelope.rcptTo.map((r) => r.address),
              }),
            );
            callback();
          };
          if (options.dataDelayMs) setTimeout(finish, options.dataDelayMs);
          else finish();
        });
      },
    });
  const receiver: SmtpReceiver = {
    get port() {
      return port;
    },
    get url() {
      const credentials = options.auth
        ? `${encodeURIComponent(options.auth.user)}:${encodeURIComponent(options.auth.pass)}@`
        : "";
      return `smtp://${credentials}127.0.0.1:${port}`;
    },
    received,
    refuse(...next) {
      refusals.push(...next);
    },
    async start() {
      const current = create();
      server = current;
      await new Promise<void>((resolve, reject) => {
        current.once("error", reject);
        current.listen(port, "127.0.0.1", () => {
          const address = current.server.address();
          if (address && typeof address === "object") port = address.port;
          resolve();
        });
      });
    },
    async close() {
      const current = server;
      server = undefined;
      if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
    },
  };
  await receiver.start();
  return receiver;
}
