import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/client";
import { postgresMigrations, sqliteMigrations } from "../../db/migrations/index";
import { createTestDatabase, isPostgresReachable, type TestDatabase } from "../support/databases";

/** Table → sorted column names, read from the live database. */
async function describeSchema(database: TestDatabase): Promise<Record<string, string[]>> {
  const { db, dialect } = database.handle;
  const tables: Record<string, string[]> = {};
  if (dialect === "sqlite") {
    // The inbox's FTS5 search table (migration 024) and its shadow tables are SQLite's index, as pg_trgm's are PostgreSQL's.
    const rows = await sql<{
      name: string;
    }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%'
      AND name NOT LIKE 'support_message_search%'`.execute(db);
    for (const { name } of rows.rows) {
      const cols = await sql<{ name: string }>`SELECT name FROM pragma_table_info(${name})`.execute(db);
      tables[name] = cols.rows.map((c) => c.name).sort();
    }
  } else {
    const rows = await sql<{ table_name: string; column_name: string }>`
      SELECT table_name, column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name NOT LIKE 'kysely_%'`.execute(db);
    for (const r of rows.rows) {
      tables[r.table_name] ??= [];
      tables[r.table_name]?.push(r.column_name);
    }
    for (const name of Object.keys(tables)) tables[name]?.sort();
  }
  return Object.fromEntries(Object.entries(tables).sort(([a], [b]) => a.localeCompare(b)));
}

describe("migrations", () => {
  const opened: TestDatabase[] = [];
  afterAll(async () => {
    for (const d of opened) await d.drop();
  });

  it("has the same migration names, in the same order, for SQLite and PostgreSQL", () => {
    expect(Object.keys(postgresMigrations)).toEqual(Object.keys(sqliteMigrations));
  });

  it("applies cleanly on SQLite and a second run is a no-op", async () => {
    const sqlite = await createTestDatabase("sqlite");
    opened.push(sqlite);
    expect(await migrateToLatest(sqlite.handle)).toEqual([]);
    const schema = await describeSchema(sqlite);
    expect(Object.keys(schema)).toContain("status_entries");
    expect(schema.incidents).toEqual([
      "body",
      "id",
      "opened_by",
      "products",
      "resolved_at",
      "started_at",
      "status",
      "title",
    ]);
    expect(schema.status_changes).toEqual(["changed_at", "id", "name", "source", "status"]);
    expect(schema.orders).toEqual(expect.arrayContaining(["buyer_email", "delivered_key"]));
    expect(schema.mail_outbox).toEqual([
      "attempts",
      "claimed_by",
      "claimed_until",
      "created_at",
      "first_failed_at",
      "from_address",
      "html_body",
      "id",
      "kind",
      "last_error",
      "message_id",
      "next_attempt_at",
      "send_by",
      "sent_at",
      "status",
      "subject",
      "text_body",
      "to_address",
    ]);
    expect(schema.buyer_sign_in_codes).toEqual([
      "code_hash",
      "created_at",
      "email",
      "expires_at",
      "id",
      "link_hash",
      "locale",
      "mail_id",
      "tries_left",
      "used_at",
    ]);
    expect(schema.buyer_sessions).toEqual(["created_at", "email", "expires_at", "id_hash"]);
    // 015: the reply reader's times per thread, and the bot's verdict every instance reads.
    expect(schema.support_conversations).toEqual(expect.arrayContaining(["last_read_at", "state_checked_at"]));
    expect(schema.support_relay_status).toEqual(["blocked_reason", "name", "updated_at"]);
  });

  it("produces the same tables and columns on PostgreSQL as on SQLite", async (ctx) => {
    if (!(await isPostgresReachable())) {
      ctx.skip("PostgreSQL is not reachable on 127.0.0.1:5432; lockstep checked on SQLite only");
    }
    const sqlite = await createTestDatabase("sqlite");
    const postgres = await createTestDatabase("postgres");
    opened.push(sqlite, postgres);
    expect(await migrateToLatest(postgres.handle)).toEqual([]);
    expect(await describeSchema(postgres)).toEqual(await describeSchema(sqlite));
  });
});
