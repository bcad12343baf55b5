// The console's support inbox (issue 35): conversations listed by whose turn it is, mine / unassigned / all, oldest
// wait first, in pages read through one index range; one conversation with everything an agent needs beside it; and
// every change (reply, note, assignment, resolve, reopen) stored with what it tells the Discord thread (an outbox).
import {
  type ExpressionBuilder,
  type Kysely,
  PostgresAdapter,
  type SelectQueryBuilder,
  sql,
  type Transaction,
} from "kysely";
import {
  type AuditBase,
  type AuditEntryInput,
  auditedChange,
  lookupTarget,
  recordAudit,
} from "~/features/audit/audit-log.server";
import { SUPPORT_QUESTIONS } from "~/features/support-chat/support-chat";
import {
  type ConversationNoteRow,
  addConversationNote,
  conversationNotes,
} from "~/features/support-conversation/conversation-notes.server";
import { ringConversation } from "~/features/support-conversation/conversation-doorbell.server";
import {
  type ConversationRow,
  findConversation,
  resolveConversation,
} from "~/features/support-conversation/conversation-store.server";
import {
  addTeamReply,
  botConfigured,
  wakeThreadRelay,
} from "~/features/support-conversation/support-conversation.server";
import { queueThreadPost, unsentThreadPosts } from "~/features/support-relay/thread-posts.server";
import type { Database } from "../../../../db/schema";
import { type FoundOrder, type ProductNames, searchOrders } from "../orders/orders.server";

type Db = Kysely<Database>;

/** The lists: the team's turn, the visitor's turn, and resolved. */
export const INBOX_STATES = ["waiting-for-us", "waiting-for-visitor", "resolved"] as const;
export type InboxState = (typeof INBOX_STATES)[number];
export const INBOX_SCOPES = ["mine", "unassigned", "all"] as const;
export type InboxScope = (typeof INBOX_SCOPES)[number];
export const INBOX_PAGE_SIZE = 25;
/** The longest search: an email address or a few words. */
export const INBOX_QUERY_MAX = 200;

export function isInboxState(value: unknown): value is InboxState {
  return typeof value === "string" && (INBOX_STATES as readonly string[]).includes(value);
}
export function isInboxScope(value: unknown): value is InboxScope {
  return typeof value === "string" && (INBOX_SCOPES as readonly string[]).includes(value);
}

export interface InboxRow {
  id: string;
  category: string;
  /** The questionnaire's first answer: the product the request is about. */
  product: string;
  locale: string;
  /** The visitor's newest words: their last message, or the request's description before they wrote any. */
  lastWords: string;
  /** Since when it has been this side's turn (resolved: when it was resolved). */
  since: string;
  status: ConversationRow["status"];
  visitorEmail: string | null;
  assignee: string | null;
}

export interface InboxListing {
  rows: InboxRow[];
  total: number;
  page: number;
  pages: number;
}

export interface InboxFilter {
  state: InboxState;
  scope: InboxScope;
  staffId: string;
  query?: string;
}

/** The request's description (the answer after the product, the reason of a key reset): a list row's words. */
const DESCRIPTION_ANSWER: Record<string, number> = { "Product Support": 1, "Purchase Support": 2, "Key Reset": 1 };

function answersOf(json: string | null | undefined): string[] {
  try {
    const parsed: unknown = JSON.parse(json ?? "[]");
    return Array.isArray(parsed) ? parsed.map((a) => (typeof a === "string" ? a : "")) : [];
  } catch {
    return [];
  }
}

/** `%` and `_` typed in a search are themselves, not wildcards. */
function likePattern(query: string): string {
  return `%${query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The search as one FTS5 phrase: the trigram tokenizer then matches it anywhere in a message, in any case. */
function ftsPhrase(query: string): string {
  return `"${query.toLowerCase().replace(/"/g, '""')}"`;
}

function isPostgres(db: Db): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

function filtered<O>(
  select: SelectQueryBuilder<Database, "support_conversations", O>,
  filter: InboxFilter,
  postgres: boolean,
): SelectQueryBuilder<Database, "support_conversations", O> {
  let q = select;
  if (filter.state === "resolved") q = q.where("status", "=", "resolved");
  else
    q = q.where("status", "=", "open").where("waiting_on", "=", filter.state === "waiting-for-us" ? "us" : "visitor");
  if (filter.scope === "mine") q = q.where("assigned_staff_id", "=", filter.staffId);
  else if (filter.scope === "unassigned") q = q.where("assigned_staff_id", "is", null);
  const query = filter.query?.trim().slice(0, INBOX_QUERY_MAX) ?? "";
  if (query.includes("@")) {
    // An address (or its start): the addresses alone (kept lower-cased), never every message.
    const pattern = likePattern(query).slice(1);
    q = q.where(sql`support_conversations.visitor_email`, "like", sql`${pattern} ESCAPE '\\'`);
  } else if (query !== "") {
    const pattern = likePattern(query);
    const inMessages = (eb: ExpressionBuilder<Database, "support_conversations">) =>
      eb
        .selectFrom("support_conversation_messages as m")
        .select("m.conversation_id")
        .where("m.author", "in", ["visitor", "team"])
        .where(sql`lower(m.body)`, "like", sql`${pattern} ESCAPE '\\'`);
    q = q.where((eb) =>
      eb.or([
        eb(sql`lower(support_conversations.visitor_email)`, "like", sql`${pattern} ESCAPE '\\'`),
        // PostgreSQL: the pg_trgm index serves the LIKE itself. SQLite: the conversations the trigram index names (read
        // once), and only for those the LIKE over their own messages, which still decides (migration 024).
        postgres || [...query].length < 3
          ? eb("support_conversations.id", "in", inMessages(eb))
          : eb.and([
              eb(
                "support_conversations.id",
                "in",
                sql<string>`(SELECT conversation_id FROM support_message_search WHERE support_message_search MATCH ${ftsPhrase(query)})`,
              ),
              eb.exists(inMessages(eb).whereRef("m.conversation_id", "=", "support_conversations.id")),
            ]),
      ]),
    );
  }
  return q;
}

/** One page of a list, oldest wait first (resolved: newest first), with how many the list holds. */
export async function listInbox(db: Db, filter: InboxFilter, page: number): Promise<InboxListing> {
  const totalRow = await filtered(db.selectFrom("support_conversations"), filter, isPostgres(db))
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirstOrThrow();
  const total = Number(totalRow.n);
  const pages = Math.max(1, Math.ceil(total / INBOX_PAGE_SIZE));
  const current = Math.min(Math.max(1, page), pages);
  let select = filtered(db.selectFrom("support_conversations"), filter, isPostgres(db)).select((eb) => [
    "support_conversations.id",
    "support_conversations.category",
    "support_conversations.locale",
    "support_conversations.status",
    "support_conversations.visitor_email",
    "support_conversations.waiting_since",
    "support_conversations.resolved_at",
    "support_conversations.created_at",
    eb
      .selectFrom("support_requests as r")
      .select("r.answers")
      .whereRef("r.id", "=", "support_conversations.request_id")
      .as("answers"),
    eb
      .selectFrom("staff as s")
      .select("s.email")
      .whereRef("s.id", "=", "support_conversations.assigned_staff_id")
      .as("assignee"),
    // The questionnaire's lines carry the conversation's own time: a later visitor line is a message they wrote.
    eb
      .selectFrom("support_conversation_messages as m")
      .select("m.body")
      .whereRef("m.conversation_id", "=", "support_conversations.id")
      .where("m.author", "=", "visitor")
      .whereRef("m.created_at", ">", "support_conversations.created_at")
      .orderBy("m.seq", "desc")
      .limit(1)
      .as("last_words"),
  ]);
  select =
    filter.state === "resolved"
      ? select.orderBy("support_conversations.resolved_at", "desc").orderBy("support_conversations.id", "desc")
      : select.orderBy("support_conversations.waiting_since", "asc").orderBy("support_conversations.id", "asc");
  const rows = await select
    .limit(INBOX_PAGE_SIZE)
    .offset((current - 1) * INBOX_PAGE_SIZE)
    .execute();
  return {
    total,
    page: current,
    pages,
    rows: rows.map((row) => {
      const answers = answersOf(row.answers);
      return {
        id: row.id,
        category: row.category,
        product: answers[0] ?? "",
        locale: row.locale,
        lastWords: row.last_words ?? answers[DESCRIPTION_ANSWER[row.category] ?? 1] ?? "",
        since: (filter.state === "resolved" ? row.resolved_at : row.waiting_since) ?? row.created_at,
        status: row.status,
        visitorEmail: row.visitor_email,
        assignee: row.assignee ?? null,
      };
    }),
  };
}

/** How many wait for the team: all of them, mine, and unassigned (the tab's title and the list's tabs). */
export async function waitingCounts(db: Db, staffId: string) {
  const row = await db
    .selectFrom("support_conversations")
    .select((eb) => [
      eb.fn.countAll<number | string>().as("all"),
      eb.fn.count<number | string>(eb.case().when("assigned_staff_id", "=", staffId).then(1).end()).as("mine"),
      eb.fn.count<number | string>(eb.case().when("assigned_staff_id", "is", null).then(1).end()).as("unassigned"),
    ])
    .where("status", "=", "open")
    .where("waiting_on", "=", "us")
    .executeTakeFirstOrThrow();
  return { all: Number(row.all), mine: Number(row.mine), unassigned: Number(row.unassigned) };
}

/** The conversations before and after this one in its list (the `j` and `k` keys), by the list's own order. */
export async function neighbours(db: Db, filter: InboxFilter, conversation: ConversationRow) {
  const resolved = filter.state === "resolved";
  const key = resolved ? conversation.resolved_at : conversation.waiting_since;
  if (key === null) return { previous: null, next: null };
  const column = resolved ? "resolved_at" : "waiting_since";
  // The list runs oldest wait first (resolved: newest first); "next" is the row below this one.
  const below = resolved ? "<" : ">";
  const above = resolved ? ">" : "<";
  const step = async (direction: "<" | ">", order: "asc" | "desc") => {
    const row = await filtered(db.selectFrom("support_conversations"), { ...filter, query: undefined }, isPostgres(db))
      .select("id")
      .where((eb) =>
        eb.or([eb(column, direction, key), eb.and([eb(column, "=", key), eb("id", direction, conversation.id)])]),
      )
      .orderBy(column, order)
      .orderBy("id", order)
      .limit(1)
      .executeTakeFirst();
    return row?.id ?? null;
  };
  const [next, previous] = await Promise.all([
    step(below, resolved ? "desc" : "asc"),
    step(above, resolved ? "asc" : "desc"),
  ]);
  return { previous, next };
}

export type TimelineEntry =
  | {
      kind: "message";
      id: string;
      author: "visitor" | "team" | "system";
      authorName: string | null;
      /** Where a team reply was written. */
      source: "console" | "discord" | "cli" | null;
      body: string;
      createdAt: string;
    }
  | {
      kind: "note";
      id: string;
      authorName: string;
      source: ConversationNoteRow["source"];
      body: string;
      createdAt: string;
    };

export interface ConsoleConversation {
  id: string;
  category: string;
  locale: string;
  status: ConversationRow["status"];
  waitingOn: "us" | "visitor";
  since: string;
  visitorEmail: string | null;
  /**
   * Whether the address is the visitor's own: they were signed in at /orders with it when the request was sent. Only
   * then are its orders (and keys) looked up; any other address is "not verified" and shows none.
   */
  visitorEmailProven: boolean;
  createdAt: string;
  resolvedAt: string | null;
  assignee: { id: string; email: string } | null;
  /** Whether the request has a Discord thread the console's replies, notes and Resolve go to. */
  hasThread: boolean;
  answers: Array<{ question: string; answer: string }>;
  /** Messages after the questionnaire and the notes, oldest first. */
  timeline: TimelineEntry[];
  /** The proven address's orders; always empty for an address not proven. */
  orders: FoundOrder[];
  /** What the thread has not been told yet (waiting or failed). */
  unsentToThread: Array<{ kind: string; status: string; nextAttemptAt: string | null; lastError: string | null }>;
}

export async function loadConsoleConversation(
  db: Db,
  id: string,
  names: ProductNames,
  viewer: AuditBase,
): Promise<ConsoleConversation | undefined> {
  const conversation = await findConversation(db, id);
  return conversation ? consoleConversationOf(db, conversation, names, viewer) : undefined;
}

/**
 * The orders of the conversation's address, only when it is proven, and each look-up an audit entry (`viewer`'s)
 * written before the orders are read: the log says who saw which buyer's keys, and from which conversation.
 */
async function provenAddressOrders(db: Db, conversation: ConversationRow, names: ProductNames, viewer: AuditBase) {
  const email = conversation.visitor_email;
  if (!email || !conversation.visitor_email_proven_at) return [];
  await recordAudit(db, {
    ...viewer,
    action: "orders-looked-up",
    target: lookupTarget(email),
    detail: { conversation: conversation.id },
  });
  return (await searchOrders(db, email, 1, names)).orders;
}

/** A conversation already read (the page has it for its neighbours), with everything the console shows beside it. */
export async function consoleConversationOf(
  db: Db,
  conversation: ConversationRow,
  names: ProductNames,
  viewer: AuditBase,
): Promise<ConsoleConversation> {
  const id = conversation.id;
  const [request, messages, notes, assignee, posts, orders] = await Promise.all([
    db.selectFrom("support_requests").select("answers").where("id", "=", conversation.request_id).executeTakeFirst(),
    db
      .selectFrom("support_conversation_messages")
      .select(["id", "seq", "author", "author_name", "source", "body", "created_at"])
      .where("conversation_id", "=", id)
      .orderBy("seq")
      .limit(2000)
      .execute(),
    conversationNotes(db, id),
    conversation.assigned_staff_id
      ? db
          .selectFrom("staff")
          .select(["id", "email"])
          .where("id", "=", conversation.assigned_staff_id)
          .executeTakeFirst()
      : Promise.resolve(undefined),
    unsentThreadPosts(db, id),
    provenAddressOrders(db, conversation, names, viewer),
  ]);
  const answers = answersOf(request?.answers);
  const questions = SUPPORT_QUESTIONS[conversation.category as keyof typeof SUPPORT_QUESTIONS] ?? [];
  // The questionnaire is shown as its answers: greeting, category, each question and answer, and the closing line.
  const questionnaireLines = questions.length > 0 ? 3 + questions.length * 2 : 0;
  const timeline: TimelineEntry[] = [
    ...messages
      .filter((m) => Number(m.seq) > questionnaireLines)
      .map(
        (m): TimelineEntry => ({
          kind: "message",
          id: m.id,
          author: m.author,
          authorName: m.author_name,
          source: m.source,
          body: m.body,
          createdAt: m.created_at,
        }),
      ),
    ...notes.map(
      (n): TimelineEntry => ({
        kind: "note",
        id: n.id,
        authorName: n.author_name,
        source: n.source,
        body: n.body,
        createdAt: n.created_at,
      }),
    ),
  ].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return {
    id: conversation.id,
    category: conversation.category,
    locale: conversation.locale,
    status: conversation.status,
    waitingOn: conversation.waiting_on,
    since: conversation.waiting_since ?? conversation.created_at,
    visitorEmail: conversation.visitor_email,
    visitorEmailProven: conversation.visitor_email !== null && conversation.visitor_email_proven_at !== null,
    createdAt: conversation.created_at,
    resolvedAt: conversation.resolved_at,
    assignee: assignee ?? null,
    hasThread: conversation.thread_id !== null || botConfigured(),
    answers: questions.map((question, i) => ({ question, answer: answers[i] ?? "" })),
    timeline,
    orders,
    unsentToThread: posts.map((p) => ({
      kind: p.kind,
      status: p.status,
      nextAttemptAt: p.next_attempt_at,
      lastError: p.last_error,
    })),
  };
}

/** The name a visitor and the thread see on an agent's reply: their address's local part, never the address. */
export function agentName(email: string): string {
  const local = email.split("@")[0] ?? email;
  return local.split("+")[0] || local;
}

export interface Agent {
  id: string;
  email: string;
}

/**
 * A message the agent writes (a reply or a note): stored by `store`, queued for the thread under the agent's name,
 * with its audit entry, in one transaction; the doorbell rings and the relay wakes only once that is committed.
 */
async function writeFromConsole<T>(
  db: Db,
  agent: Agent,
  conversationId: string,
  body: string,
  kind: "reply" | "note",
  entry: AuditEntryInput,
  store: (trx: Transaction<Database>, authorName: string) => Promise<T>,
  now: Date,
): Promise<T> {
  const authorName = agentName(agent.email);
  const written = await auditedChange(
    db,
    async (trx) => {
      const stored = await store(trx, authorName);
      if (botConfigured()) await queueThreadPost(trx, { conversationId, kind, authorName, body }, now);
      return stored;
    },
    () => entry,
  );
  ringConversation(conversationId);
  wakeThreadRelay();
  return written;
}

/**
 * An agent's reply: stored as a team reply (the visitor's page, stream and unseen-reply mail take it from there, as
 * a thread reply), and queued for the thread.
 */
export function replyFromConsole(
  db: Db,
  agent: Agent,
  conversationId: string,
  body: string,
  audit: AuditBase,
  now = new Date(),
) {
  const entry = { ...audit, action: "support-replied", detail: { length: body.length } } as const;
  return writeFromConsole(
    db,
    agent,
    conversationId,
    body,
    "reply",
    entry,
    (trx, authorName) =>
      addTeamReply(trx, conversationId, { authorName, body, source: "console", staffId: agent.id }, now),
    now,
  );
}

/** An internal note: kept beside the conversation (never the visitor's), told to the thread as a `note:`. */
export function noteFromConsole(
  db: Db,
  agent: Agent,
  conversationId: string,
  body: string,
  audit: AuditBase,
  now = new Date(),
) {
  const entry = { ...audit, action: "support-note-added", detail: { length: body.length } } as const;
  return writeFromConsole(
    db,
    agent,
    conversationId,
    body,
    "note",
    entry,
    (trx, authorName) =>
      addConversationNote(trx, { conversationId, authorName, body, source: "console", staffId: agent.id }, now),
    now,
  );
}

/** Assigns the conversation to someone (or no one); returns who had it before, or false when nothing changed. */
export async function assignConversation(db: Db, conversationId: string, staffId: string | null, audit: AuditBase) {
  const changed = await auditedChange(
    db,
    async (trx) => {
      const before = await trx
        .selectFrom("support_conversations")
        .select("assigned_staff_id")
        .where("id", "=", conversationId)
        .executeTakeFirst();
      if (!before || before.assigned_staff_id === staffId) return false as const;
      await trx
        .updateTable("support_conversations")
        .set({ assigned_staff_id: staffId })
        .where("id", "=", conversationId)
        .execute();
      return { before: before.assigned_staff_id };
    },
    (changed) =>
      changed && { ...audit, action: "support-assigned", detail: { before: changed.before, after: staffId } },
  );
  // Another agent's "mine" and "unassigned" lists change with it (and a list read shared across a ring is not reused).
  if (changed) ringConversation(conversationId);
  return changed;
}

/** Resolves it and archives its thread (through the outbox); false when it was resolved already. */
export async function resolveFromConsole(
  db: Db,
  conversationId: string,
  audit: AuditBase,
  now = new Date(),
): Promise<boolean> {
  const changed = await auditedChange(
    db,
    async (trx) => {
      if (!(await resolveConversation(trx, conversationId, now))) return false;
      if (botConfigured()) await queueThreadPost(trx, { conversationId, kind: "archive" }, now);
      return true;
    },
    (changed) => changed && { ...audit, action: "support-resolved", detail: { before: "open", after: "resolved" } },
  );
  if (changed) {
    ringConversation(conversationId);
    wakeThreadRelay();
  }
  return changed;
}

/**
 * Opens it again and its thread with it; the thread is read again now, but not asked whether it is archived for
 * a while, so the reopening is not undone before the thread has been opened.
 */
export async function reopenFromConsole(
  db: Db,
  conversationId: string,
  audit: AuditBase,
  now = new Date(),
): Promise<boolean> {
  const changed = await auditedChange(
    db,
    async (trx) => {
      const result = await trx
        .updateTable("support_conversations")
        .set({
          status: "open",
          resolved_at: null,
          next_read_at: sql<string>`CASE WHEN thread_id IS NULL THEN NULL ELSE ${now.toISOString()} END`,
          state_checked_at: now.toISOString(),
        })
        .where("id", "=", conversationId)
        .where("status", "=", "resolved")
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return false;
      if (botConfigured()) await queueThreadPost(trx, { conversationId, kind: "unarchive" }, now);
      return true;
    },
    (changed) => changed && { ...audit, action: "support-reopened", detail: { before: "resolved", after: "open" } },
  );
  if (changed) {
    ringConversation(conversationId);
    wakeThreadRelay();
  }
  return changed;
}

/** The list a page was opened from (`?state=&scope=&q=`), kept on links so `j`/`k` and "Back" stay in it. */
export function inboxFilterOf(url: URL, staffId: string): InboxFilter {
  const state = url.searchParams.get("state");
  const scope = url.searchParams.get("scope");
  return {
    state: isInboxState(state) ? state : "waiting-for-us",
    scope: isInboxScope(scope) ? scope : "all",
    staffId,
    query: (url.searchParams.get("q") ?? "").slice(0, INBOX_QUERY_MAX),
  };
}
