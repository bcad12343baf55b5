// Issue 42, "Bounded costs": the inbox's text search is served by an index (SQLite FTS5 trigram, PostgreSQL pg_trgm;
// migration 024) with the same results as the plain LIKE, and is rate limited per person with a clear refusal.
// Real databases, both dialects.
import { type Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { INBOX_SEARCHES_PER_MINUTE, loadInboxPage } from "~/features/console/support/support-page.server";
import { listInbox } from "~/features/console/support/support.server";
import { createSession } from "~/features/staff/sessions.server";
import { inviteStaff } from "~/features/staff/people.server";
import { SUPPORT_QUESTIONS } from "~/features/support-chat/support-chat";
import { openConversation } from "~/features/support-conversation/conversation-store.server";
import { addVisitorMessage, questionnaireLines } from "~/features/support-conversation/support-conversation.server";
import { insertSupportRequest } from "~/features/support-relay/support-outbox.server";
import { getDb } from "~/platform/db.server";
import type { Database } from "../../db/schema";
import { testDialects } from "../support/databases";
import { useAppEnvironment } from "../support/test-environment";

const dialects = await testDialects();
const ORIGIN = "http://console.test";

describe.each(dialects)("the inbox's text search on %s", (dialect) => {
  useAppEnvironment(dialect, { PUBLIC_URL: ORIGIN });
  const db = (): Kysely<Database> => getDb().db;
  let people = 0;

  async function conversation(email: string | null, words: string[]) {
    const category = "Key Reset";
    const answers = SUPPORT_QUESTIONS[category].map((_, i, all) =>
      i === 0 ? "Kestrel Vault" : i === all.length - 1 ? (email ?? "@chatname") : `answer ${i}`,
    );
    const opened = await db()
      .transaction()
      .execute(async (trx) => {
        const request = await insertSupportRequest(
          trx,
          { category, answers, locale: "en" },
          { channelConfigured: true },
        );
        const { conversation } = await openConversation(trx, {
          requestId: request.id,
          category,
          locale: "en",
          visitorEmail: email,
          lines: questionnaireLines(category, answers),
        });
        return conversation;
      });
    for (const text of words) await addVisitorMessage(opened, text, db());
    return opened.id;
  }

  /** What the search answered before the index: the plain LIKE over addresses and the visitor's and team's words. */
  async function byLike(query: string): Promise<string[]> {
    const pattern = `%${query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const rows = await sql<{ id: string }>`SELECT id FROM support_conversations c WHERE c.status = 'open'
      AND c.waiting_on = 'us' AND (lower(c.visitor_email) LIKE ${pattern} ESCAPE '\\' OR EXISTS (
        SELECT 1 FROM support_conversation_messages m WHERE m.conversation_id = c.id
        AND m.author IN ('visitor', 'team') AND lower(m.body) LIKE ${pattern} ESCAPE '\\'))`.execute(db());
    return rows.rows.map((r) => r.id).sort();
  }

  const search = async (query: string) =>
    (await listInbox(db(), { state: "waiting-for-us", scope: "all", staffId: "nobody", query }, 1)).rows
      .map((r) => r.id)
      .sort();

  it("finds what the plain LIKE finds, for short, long, mixed-case, wildcard and non-ASCII searches", async () => {
    await conversation("Buyer.One@example.com", ["My key KST-ABCD-1234 stopped working", "100% used_ up"]);
    await conversation(null, ["Größe der Lizenz: über 5 Geräte", "ok"]);
    await conversation("zed@example.org", ["nothing here", 'a "quoted" word']);
    await conversation(null, ["ÜBER alles"]);
    for (const query of [
      "kst-abcd",
      "KEY kst",
      "ok",
      "o",
      "100% used_",
      "100%x",
      "über",
      "ÜBER",
      "größe der",
      '"quoted"',
      "example",
      "nope-nothing",
      "Kestrel Vault",
    ])
      expect(await search(query), query).toEqual(await byLike(query));
    expect(await search("kst-abcd")).toHaveLength(1);
  });

  it("is served by the index migration 024 made", async () => {
    const id = await conversation(null, ["the printer says PAPER-JAM-77"]);
    if (dialect === "sqlite") {
      // The messages are in the FTS5 trigram table, and the search reads it: without its row the message is not found.
      const indexed = await sql<{ conversation_id: string }>`SELECT conversation_id FROM support_message_search
        WHERE support_message_search MATCH '"paper-jam"'`.execute(db());
      expect(indexed.rows.map((r) => r.conversation_id)).toEqual([id]);
      expect(await search("paper-jam-77")).toEqual([id]);
      await sql`DELETE FROM support_message_search WHERE conversation_id = ${id}`.execute(db());
      expect(await search("paper-jam-77")).toEqual([]);
      // A search too short for trigrams reads the messages as before.
      expect(await search("77")).toContain(id);
    } else {
      // A handful of rows would be read whole anyway: the planner is told not to, to show the LIKE can use the index.
      const plan = await db()
        .transaction()
        .execute(async (trx) => {
          await sql`SET LOCAL enable_seqscan = off`.execute(trx);
          return sql<{ "QUERY PLAN": string }>`EXPLAIN SELECT conversation_id FROM support_conversation_messages m
            WHERE lower(m.body) LIKE '%paper-jam%'`.execute(trx);
        });
      expect(plan.rows.map((r) => r["QUERY PLAN"]).join("\n")).toContain("support_conversation_messages_body_trgm");
      expect(await search("paper-jam-77")).toEqual([id]);
    }
  });

  it(`answers a person's searches past ${INBOX_SEARCHES_PER_MINUTE} a minute with a clear refusal, and no one else's`, async () => {
    const person = async () => {
      const { staff } = await inviteStaff(db(), {
        email: `searcher-${++people}@example.com`,
        role: "support",
        by: "cli",
      });
      return createSession(db(), { staffId: staff.id, beganWith: "passkey" });
    };
    const load = async (token: string, query: string) => {
      const answer = (await loadInboxPage(
        new Request(`${ORIGIN}/admin/support?q=${encodeURIComponent(query)}`, {
          headers: { cookie: `kestrel-staff=${token}` },
        }),
      )) as unknown as {
        init: { status?: number; headers?: Record<string, string> } | null;
        data: Record<string, unknown>;
      };
      return { status: answer.init?.status ?? 200, headers: answer.init?.headers ?? {}, data: answer.data };
    };
    const me = await person();
    for (let i = 0; i < INBOX_SEARCHES_PER_MINUTE; i++) expect((await load(me, `word ${i}`)).status).toBe(200);
    const refused = await load(me, "one more");
    expect(refused.status).toBe(429);
    expect(refused.data.searchRefused).toEqual({ retryAfterSeconds: expect.any(Number) });
    expect(Number(refused.headers["Retry-After"])).toBeGreaterThan(0);
    expect(refused.data.listing).toEqual({ rows: [], total: 0, page: 1, pages: 1 });
    // The list without a search still opens; someone else still searches.
    expect((await load(me, "")).status).toBe(200);
    expect((await load(await person(), "one more")).status).toBe(200);
  });
});
