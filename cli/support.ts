import { ringConversation } from "~/features/support-conversation/conversation-doorbell.server";
import {
  findConversation,
  listOpenConversations,
  resolveConversation,
} from "~/features/support-conversation/conversation-store.server";
import { addTeamReply } from "~/features/support-conversation/support-conversation.server";
import { languageName, markHiddenCharacters } from "~/features/support-relay/chat-channel.server";
import {
  DELIVERY_STATUSES,
  type DeliveryStatus,
  findSupportRequest,
  listSupportRequests,
  type SupportRequest,
} from "~/features/support-relay/support-outbox.server";
import { retrySupportRequests } from "~/features/support-relay/support-relay.server";
import { getEnv } from "~/platform/env.server";
import { closeRedis } from "~/platform/redis.server";
import { type CliCommand, startCommand, formatTable, runWithDatabase, cliEntry, auditedCliChange } from "./cli-context";

/** Who a reply from the CLI is from when --as names nobody. */
const DEFAULT_REPLIER = "Support team";
/** A reply is as long as a Discord message may be, as if the team had written it in the thread. */
const MAX_REPLY_LENGTH = 2000;
const MAX_REPLIER_LENGTH = 80;

export const SUPPORT_USAGE = `Usage:
  npm run cli -- support list [--status pending|delivered|failed|no_channel] [--limit 100] [--json]
  npm run cli -- support show <id> [--json]
  npm run cli -- support retry <id> [--json]
  npm run cli -- support retry --failed [--json]
  npm run cli -- support conversations [--limit 100] [--json]
  npm run cli -- support reply <conversation id> "text" [--as "Name"] [--json]
  npm run cli -- support resolve <conversation id> [--json]

Support requests from the chat widget. "retry --failed" queues every failed and no_channel request again and
delivers them now to SUPPORT_WEBHOOK_URL (a running server would also pick them up within a second).
"conversations" lists the open conversations; "reply" answers one as the team (shown as "${DEFAULT_REPLIER}" unless
--as names someone), without a Discord bot too; "resolve" closes one (the visitor is told, and can start anew).`;

/** The flags of this command, besides COMMON_OPTIONS. */
const SUPPORT_OPTIONS = {
  status: { type: "string" },
  limit: { type: "string" },
  failed: { type: "boolean", default: false },
  as: { type: "string" },
} as const;

function describeRequest(request: SupportRequest): string {
  const lines = [
    `Request ${request.id}`,
    `  Category:      ${request.category}`,
    ...(request.locale ? [`  Language:      ${languageName(request.locale)}`] : []),
    `  Created:       ${request.createdAt}`,
    `  Delivery:      ${request.deliveryStatus}${request.deliveredAt ? ` at ${request.deliveredAt}` : ""}`,
    `  Attempts:      ${request.attempts}`,
  ];
  if (request.deliveryStatus === "pending") lines.push(`  Next attempt:  ${request.nextAttemptAt}`);
  if (request.lastError) lines.push(`  Last error:    ${request.lastError}`);
  lines.push("");
  request.questions.forEach((question, i) => {
    // Marked as in the chat channel: a direction override must not make an answer read differently here either.
    lines.push(
      `  ${question}`,
      `    ${markHiddenCharacters(request.answers[i] ?? "No answer provided").replace(/\n/g, "\n    ")}`,
    );
  });
  return lines.join("\n");
}

/** `support list|show|retry`: the support outbox (requests from the chat widget and their delivery). */
export const supportCommand: CliCommand = async (argv, { db, out, err }) => {
  const started = startCommand(argv, SUPPORT_OPTIONS, SUPPORT_USAGE, { out, err });
  if (typeof started === "number") return started;
  const { values, action, rest, fail } = started;

  if (action === "list") {
    if (rest.length > 0) return fail(`"support list" takes no arguments (got ${rest.join(" ")})`, 2);
    const status = values.status;
    if (status !== undefined && !(DELIVERY_STATUSES as readonly string[]).includes(status)) {
      return fail(`--status must be one of ${DELIVERY_STATUSES.join(", ")} (got "${status}")`, 2);
    }
    const limit = values.limit === undefined ? 100 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
      return fail(`--limit must be a whole number from 1 to 10000`, 2);
    const requests = await listSupportRequests(db, { status: status as DeliveryStatus | undefined, limit });
    if (values.json) out(JSON.stringify(requests, null, 2));
    else if (requests.length === 0) out(status ? `No ${status} support requests.` : "No support requests.");
    else {
      out(
        formatTable(
          ["ID", "CREATED", "CATEGORY", "DELIVERY", "ATTEMPTS", "LAST ERROR"],
          requests.map((r) => [r.id, r.createdAt, r.category, r.deliveryStatus, String(r.attempts), r.lastError ?? ""]),
        ),
      );
    }
    return 0;
  }

  if (action === "show") {
    if (rest.length !== 1) return fail(`"support show" takes one request id`, 2);
    const request = await findSupportRequest(db, rest[0] ?? "");
    if (!request) return fail(`No support request with id ${rest[0]}`);
    out(values.json ? JSON.stringify(request, null, 2) : describeRequest(request));
    return 0;
  }

  if (action === "retry") {
    if (values.failed ? rest.length > 0 : rest.length !== 1)
      return fail(`"support retry" takes one request id, or --failed`, 2);
    const env = getEnv();
    if (!env.SUPPORT_WEBHOOK_URL)
      return fail("SUPPORT_WEBHOOK_URL is not set: configure the chat channel first, then retry.");
    const target = values.failed ? { allUndelivered: true as const } : { id: rest[0] ?? "" };
    if (!values.failed) {
      const existing = await findSupportRequest(db, rest[0] ?? "");
      if (!existing) return fail(`No support request with id ${rest[0]}`);
      if (existing.deliveryStatus === "delivered")
        return fail(`Support request ${existing.id} was already delivered at ${existing.deliveredAt}`);
    }
    const { queued, ...pass } = await retrySupportRequests(
      db,
      env.DATABASE_URL ? "postgres" : "sqlite",
      env.SUPPORT_WEBHOOK_URL,
      target,
      (queued) =>
        cliEntry({
          action: "support-retried",
          target: values.failed ? "all failed requests" : `request ${rest[0]}`,
          detail: { queued: queued.length },
        }),
    );
    if (values.json) out(JSON.stringify({ queued, ...pass }, null, 2));
    else if (queued.length === 0) out("Nothing to retry: no failed or no_channel support requests.");
    else {
      out(
        `Queued ${queued.length} request(s): ${pass.delivered.length} delivered, ${pass.retrying.length} will be retried, ${pass.failed.length} failed.`,
      );
      const others = queued.length - pass.delivered.length - pass.retrying.length - pass.failed.length;
      if (pass.pausedUntil)
        out(
          `The chat channel asked us to wait until ${pass.pausedUntil.toISOString()}: ${others} request(s) go out after that.`,
        );
      else if (others > 0) out(`${others} request(s) were being delivered by a running server.`);
    }
    return pass.failed.length > 0 ? 1 : 0;
  }

  if (action === "conversations") {
    if (rest.length > 0) return fail(`"support conversations" takes no arguments (got ${rest.join(" ")})`, 2);
    const limit = values.limit === undefined ? 100 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000)
      return fail(`--limit must be a whole number from 1 to 10000`, 2);
    // Whether the visitor left an address, never the address itself, nor any key: this output gets pasted around.
    const conversations = (await listOpenConversations(db, limit)).map((c) => ({
      id: c.id,
      requestId: c.request_id,
      category: c.category,
      createdAt: c.created_at,
      lastMessageAt: c.last_message_at,
      email: c.visitor_email !== null,
    }));
    if (values.json) out(JSON.stringify(conversations, null, 2));
    else if (conversations.length === 0) out("No open conversations.");
    else
      out(
        formatTable(
          ["ID", "CATEGORY", "CREATED", "LAST MESSAGE", "EMAIL"],
          conversations.map((c) => [c.id, c.category, c.createdAt, c.lastMessageAt, c.email ? "yes" : "no"]),
        ),
      );
    return 0;
  }

  if (action === "reply") {
    if (rest.length !== 2) return fail(`"support reply" takes a conversation id and the text (quoted)`, 2);
    const [id = "", rawText = ""] = rest;
    const text = rawText.trim();
    if (text.length === 0) return fail("The reply is empty", 2);
    if (text.length > MAX_REPLY_LENGTH) return fail(`A reply is at most ${MAX_REPLY_LENGTH} characters`, 2);
    const name = (values.as ?? DEFAULT_REPLIER).trim();
    if (name.length === 0 || name.length > MAX_REPLIER_LENGTH)
      return fail(`--as must be a name of 1 to ${MAX_REPLIER_LENGTH} characters`, 2);
    const conversation = await findConversation(db, id);
    if (!conversation) return fail(`No conversation with id ${id}`);
    if (conversation.status !== "open")
      return fail(`Conversation ${id} was resolved at ${conversation.resolved_at}: the visitor starts a new request`);
    const reply = await auditedCliChange(
      db,
      (trx) => addTeamReply(trx, id, { authorName: name, body: text }),
      (reply) =>
        reply && {
          action: "support-replied",
          target: `conversation ${id}`,
          detail: { as: name, message: Number(reply.seq) },
        },
    );
    if (!reply) return fail(`The reply to conversation ${id} was not stored`);
    ringConversation(id);
    if (values.json) out(JSON.stringify({ conversationId: id, seq: Number(reply.seq), authorName: name }, null, 2));
    else out(`Replied to conversation ${id} as ${name} (message ${reply.seq}).`);
    return 0;
  }

  if (action === "resolve") {
    if (rest.length !== 1) return fail(`"support resolve" takes one conversation id`, 2);
    const id = rest[0] ?? "";
    const conversation = await findConversation(db, id);
    if (!conversation) return fail(`No conversation with id ${id}`);
    const resolved = await auditedCliChange(
      db,
      (trx) => resolveConversation(trx, id),
      (resolved) => resolved && { action: "support-resolved", target: `conversation ${id}` },
    );
    if (!resolved) return fail(`Conversation ${id} was resolved already at ${conversation.resolved_at}`);
    // An open page learns it from the database when woken.
    ringConversation(id);
    if (values.json) out(JSON.stringify({ conversationId: id, status: "resolved" }, null, 2));
    else out(`Conversation ${id} is resolved.`);
    return 0;
  }

  return fail(`Unknown support command "${action}"\n\n${SUPPORT_USAGE}`, 2);
};

/** Entry for the CLI dispatcher (`npm run cli -- support ...`). */
export async function runSupportCli(argv: string[]): Promise<number> {
  try {
    return await runWithDatabase(supportCommand, argv);
  } finally {
    // A channel pause shared through Redis opens a connection that would keep the command from exiting.
    await closeRedis();
  }
}
