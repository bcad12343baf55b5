// A Discord-compatible webhook receiver on 127.0.0.1: records bodies, answers as told, and checks every payload.
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { RESTPostAPIWebhookWithTokenJSONBody } from "discord-api-types/v10";

/** How the receiver answers the next requests; `delayMs` holds the answer back (a slow channel). */
export type ReceiverAnswer = (
  | { kind: "204" }
  | { kind: "200" }
  /** Discord's rate limit: `retry_after` (float seconds) in the body and a Retry-After header, unless turned off. */
  | { kind: "429"; retryAfterSeconds: number; header?: boolean; body?: boolean }
  | { kind: "500" }
  | { kind: "400"; message?: string }
  | { kind: "hang" }
) & { delayMs?: number };

export interface ReceivedMessage {
  body: RESTPostAPIWebhookWithTokenJSONBody;
  query: URLSearchParams;
  receivedAt: number;
  /** What this request was answered with (400 when the payload breaks Discord's rules, whatever was queued). */
  answer: ReceiverAnswer["kind"];
  /** Limit or shape problems found in the body (empty when it is a valid Discord webhook message). */
  problems: string[];
  /** When the answer was written; unset while held back, and for good when the client gave up first (never shown). */
  answeredAt?: number;
}

export interface ChatWebhookReceiver {
  /** The webhook URL to configure as SUPPORT_WEBHOOK_URL (stable across stop()/start()). */
  url: string;
  /** Every request, in arrival order (including those answered 429/500 or left hanging). */
  requests: ReceivedMessage[];
  /** Bodies of requests answered 2xx: what the channel actually shows. */
  delivered(): RESTPostAPIWebhookWithTokenJSONBody[];
  /** The default answer for requests with nothing queued. */
  setDefault(answer: ReceiverAnswer): void;
  /** Answers for the next requests, in order, before the default applies again. */
  queue(...answers: ReceiverAnswer[]): void;
  waitForDelivered(count: number, timeoutMs?: number): Promise<RESTPostAPIWebhookWithTokenJSONBody[]>;
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedMessage[]>;
  /** Stops listening (the channel is "down"); start() listens again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

const LIMITS = {
  content: 2000,
  title: 256,
  description: 4096,
  footer: 2048,
  author: 256,
  fields: 25,
  fieldName: 256,
  fieldValue: 1024,
  embeds: 10,
  total: 6000,
};
const TOP_LEVEL_KEYS: ReadonlySet<string> = new Set<keyof RESTPostAPIWebhookWithTokenJSONBody>([
  "content",
  "username",
  "avatar_url",
  "tts",
  "embeds",
  "allowed_mentions",
  "components",
  "attachments",
  "flags",
  "thread_name",
  "applied_tags",
  "poll",
]);

/** Strings Discord cannot take: a lone surrogate does not survive its UTF-8 JSON decoding. */
function brokenText(value: unknown): boolean {
  return typeof value === "string" && !value.isWellFormed();
}

/** Checks a body against Discord's webhook message shape and limits; returns the problems found. */
export function discordPayloadProblems(body: unknown): string[] {
  const problems: string[] = [];
  if (typeof body !== "object" || body === null || Array.isArray(body)) return ["body is not a JSON object"];
  const message = body as Record<string, unknown>;
  for (const key of Object.keys(message)) if (!TOP_LEVEL_KEYS.has(key)) problems.push(`unknown field ${key}`);
  const content = message.content;
  if (content !== undefined && typeof content !== "string") problems.push("content is not a string");
  if (typeof content === "string" && content.length > LIMITS.content)
    problems.push(`content has ${content.length} > 2000 characters`);
  if (brokenText(content)) problems.push("content has a lone surrogate");
  const embeds = message.embeds;
  if (content === undefined && embeds === undefined) problems.push("neither content nor embeds");
  if (embeds !== undefined) {
    if (!Array.isArray(embeds)) problems.push("embeds is not an array");
    else {
      if (embeds.length > LIMITS.embeds) problems.push("more than 10 embeds");
      let total = 0;
      for (const [i, embed] of embeds.entries()) {
        const e = embed as Record<string, unknown>;
        const text = (v: unknown) => (typeof v === "string" ? v.length : 0);
        const checkText = (where: string, value: unknown, max: number) => {
          if (value === undefined) return;
          if (typeof value !== "string") problems.push(`embeds[${i}].${where} is not a string`);
          else if (value.length > max) problems.push(`embeds[${i}].${where} has ${value.length} > ${max} characters`);
          if (brokenText(value)) problems.push(`embeds[${i}].${where} has a lone surrogate`);
          total += text(value);
        };
        checkText("title", e.title, LIMITS.title);
        checkText("description", e.description, LIMITS.description);
        if (
          e.color !== undefined &&
          (!Number.isInteger(e.color) || (e.color as number) < 0 || (e.color as number) > 0xffffff)
        ) {
          problems.push(`embeds[${i}].color is not a 24-bit integer`);
        }
        if (e.timestamp !== undefined && (typeof e.timestamp !== "string" || Number.isNaN(Date.parse(e.timestamp)))) {
          problems.push(`embeds[${i}].timestamp is not an ISO-8601 time`);
        }
        const footer = e.footer as { text?: unknown } | undefined;
        if (footer !== undefined && typeof footer.text !== "string")
          problems.push(`embeds[${i}].footer.text is not a string`);
        else if (footer !== undefined) checkText("footer.text", footer.text, LIMITS.footer);
        const author = e.author as { name?: unknown } | undefined;
        if (author !== undefined && typeof author.name !== "string")
          problems.push(`embeds[${i}].author.name is not a string`);
        else if (author !== undefined) checkText("author.name", author.name, LIMITS.author);
        const fields = e.fields;
        if (fields !== undefined) {
          if (!Array.isArray(fields)) problems.push(`embeds[${i}].fields is not an array`);
          else {
            if (fields.length > LIMITS.fields) problems.push(`embeds[${i}] has more than 25 fields`);
            for (const [j, field] of fields.entries()) {
              const f = field as Record<string, unknown>;
              if (typeof f.name !== "string" || f.name.length === 0)
                problems.push(`embeds[${i}].fields[${j}].name is missing`);
              if (typeof f.value !== "string" || f.value.length === 0)
                problems.push(`embeds[${i}].fields[${j}].value is missing`);
              checkText(`fields[${j}].name`, f.name, LIMITS.fieldName);
              checkText(`fields[${j}].value`, f.value, LIMITS.fieldValue);
            }
          }
        }
        if (e.description === undefined && e.title === undefined && fields === undefined)
          problems.push(`embeds[${i}] is empty`);
        if (typeof e.description === "string" && e.description.length === 0)
          problems.push(`embeds[${i}].description is empty`);
      }
      if (total > LIMITS.total) problems.push(`embeds have ${total} > 6000 characters in total`);
    }
  }
  const mentions = message.allowed_mentions as { parse?: unknown } | undefined;
  if (
    mentions !== undefined &&
    (!Array.isArray(mentions.parse) || mentions.parse.some((p) => !["roles", "users", "everyone"].includes(String(p))))
  ) {
    problems.push("allowed_mentions.parse is not a list of roles/users/everyone");
  }
  return problems;
}

async function waitUntil<T>(check: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`chat webhook receiver: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function startChatWebhookReceiver(
  options: { defaultAnswer?: ReceiverAnswer } = {},
): Promise<ChatWebhookReceiver> {
  let fallback: ReceiverAnswer = options.defaultAnswer ?? { kind: "204" };
  const queued: ReceiverAnswer[] = [];
  const requests: ReceivedMessage[] = [];
  /** Requests not answered yet (hanging or slow): dropped when the channel goes down. */
  const pending = new Set<http.ServerResponse>();
  let messageCount = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      if (req.method !== "POST" || !url.pathname.startsWith("/api/webhooks/")) {
        res
          .writeHead(404, { "Content-Type": "application/json" })
          .end(JSON.stringify({ message: "Unknown Webhook", code: 10015 }));
        return;
      }
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        body = undefined;
      }
      const queuedAnswer = queued.shift() ?? fallback;
      const problems = discordPayloadProblems(body);
      if (req.headers["content-type"]?.split(";")[0] !== "application/json")
        problems.push("content-type is not application/json");
      // Discord refuses a message that breaks its rules, whatever else was going to happen.
      const answer: ReceiverAnswer =
        problems.length > 0 && (queuedAnswer.kind === "204" || queuedAnswer.kind === "200")
          ? { kind: "400", message: `Invalid Form Body: ${problems.join("; ")}`, delayMs: queuedAnswer.delayMs }
          : queuedAnswer;
      const received: ReceivedMessage = {
        body: body as RESTPostAPIWebhookWithTokenJSONBody,
        query: url.searchParams,
        receivedAt: Date.now(),
        answer: answer.kind,
        problems,
      };
      requests.push(received);
      if (answer.delayMs) {
        // The client may give up while it waits; a closed socket is not answered.
        pending.add(res);
        const timer = setTimeout(() => {
          pending.delete(res);
          if (!res.destroyed) respond(res, answer, body, received);
        }, answer.delayMs);
        res.on("close", () => {
          clearTimeout(timer);
          pending.delete(res);
        });
        return;
      }
      respond(res, answer, body, received);
    });
  });

  function respond(res: http.ServerResponse, answer: ReceiverAnswer, body: unknown, received: ReceivedMessage) {
    if (answer.kind !== "hang") received.answeredAt = Date.now();
    const json = (status: number, payload: unknown, headers: Record<string, string> = {}) =>
      res.writeHead(status, { "Content-Type": "application/json", ...headers }).end(JSON.stringify(payload));
    switch (answer.kind) {
      case "204":
        messageCount++;
        res.writeHead(204).end();
        return;
      case "200":
        messageCount++;
        json(200, {
          id: String(1_000_000 + messageCount),
          type: 0,
          content: (body as { content?: string })?.content ?? "",
          embeds: [],
        });
        return;
      case "429": {
        const headers: Record<string, string> =
          answer.header === false ? {} : { "Retry-After": String(Math.ceil(answer.retryAfterSeconds)) };
        json(
          429,
          answer.body === false
            ? { message: "You are being rate limited." }
            : { message: "You are being rate limited.", retry_after: answer.retryAfterSeconds, global: false },
          headers,
        );
        return;
      }
      case "500":
        json(500, { message: "500: Internal Server Error", code: 0 });
        return;
      case "400":
        json(400, { message: answer.message ?? "Invalid Form Body", code: 50035 });
        return;
      case "hang":
        pending.add(res);
        res.on("close", () => pending.delete(res));
        return;
    }
  }

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  const stopListening = () =>
    new Promise<void>((resolve) => {
      for (const res of pending) res.destroy();
      server.close(() => resolve());
      server.closeAllConnections();
    });

  const delivered = () => requests.filter((r) => r.answer === "204" || r.answer === "200").map((r) => r.body);
  return {
    url: `http://127.0.0.1:${port}/api/webhooks/123456789012345678/test-token`,
    requests,
    delivered,
    setDefault(answer) {
      fallback = answer;
    },
    queue(...answers) {
      queued.push(...answers);
    },
    waitForDelivered(count, timeoutMs = 15_000) {
      return waitUntil(
        () => (delivered().length >= count ? delivered() : undefined),
        timeoutMs,
        `${count} delivered message(s)`,
      );
    },
    waitForRequests(count, timeoutMs = 15_000) {
      return waitUntil(() => (requests.length >= count ? requests : undefined), timeoutMs, `${count} request(s)`);
    },
    stop: stopListening,
    start: () => listen(port),
    close: () => (server.listening ? stopListening() : Promise.resolve()),
  };
}
