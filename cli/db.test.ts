import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import type { Database } from "../db/schema";
import { makeDataDir } from "../tests/support/app-server";
import { createTestDatabase, isPostgresReachable, type TestDatabase } from "../tests/support/databases";
import { backupSqlite, exportShopData, importShopData, SHOP_DATA_TABLES, TRANSIENT_TABLES } from "./db";

const root = path.resolve(import.meta.dirname, "..");
const postgres = await isPostgresReachable();
const opened: TestDatabase[] = [];
afterAll(async () => {
  for (const database of opened) await database.drop();
});

async function freshDatabase(dialect: "sqlite" | "postgres") {
  const database = await createTestDatabase(dialect);
  opened.push(database);
  return database;
}

/** A row in every shop-data table, with nulls, JSON text, odd characters and explicit ids with gaps. */
async function fillShopData(db: Kysely<Database>) {
  await db
    .insertInto("status_entries")
    .values([
      {
        id: 3,
        name: "Kestrel Vault",
        status: "operational",
        uptime: "99.9",
        sort_order: 0,
        updated_at: "2026-01-02T03:04:05.678Z",
      },
      {
        id: 7,
        name: "Kestrel Studio ✦",
        status: "exploded",
        uptime: "",
        sort_order: 1,
        updated_at: "2026-01-02T03:04:06.000Z",
      },
    ])
    .execute();
  await db
    .insertInto("incidents")
    .values([
      {
        id: 2,
        title: "Licence server slow",
        body: 'Investigating.\nLine two "quoted" \u2028 and 💥',
        started_at: "2026-02-01T00:00:00.000Z",
        resolved_at: "2026-02-01T01:30:00.000Z",
        status: "resolved",
        products: "[]",
        opened_by: "operator",
      },
      {
        id: 9,
        title: "Outage",
        body: "",
        started_at: "2026-03-01T10:00:00.000Z",
        resolved_at: null,
        status: "identified",
        products: '["Kestrel Vault"]',
        opened_by: "probe",
      },
    ])
    .execute();
  await db
    .insertInto("status_changes")
    .values([
      { id: 4, name: "Kestrel Vault", status: "operational", changed_at: "2026-01-01T00:00:00.000Z", source: "import" },
      { id: 11, name: "Kestrel Studio ✦", status: "outage", changed_at: "2026-01-02T03:04:06.000Z", source: "probe" },
    ])
    .execute();
  await db
    .insertInto("incident_updates")
    .values([
      { id: 5, incident_id: 2, status: "resolved", body: "Fixed 💥", created_at: "2026-02-01T01:30:00.000Z" },
      { id: 8, incident_id: 9, status: "identified", body: "", created_at: "2026-03-01T10:05:00.000Z" },
    ])
    .execute();
  await db
    .insertInto("orders")
    .values([
      {
        id: "0b5c1f0e-9f1e-4c52-9a7e-1d2f3a4b5c6d",
        provider: "sellauth",
        provider_invoice_id: "inv_1001",
        product_id: 446894,
        variant_id: 653023,
        quantity: 2,
        amount_cents: 59986,
        status: "completed",
        created_at: "2026-04-01T12:00:00.000Z",
        completed_at: "2026-04-01T12:05:00.000Z",
        raw_event_id: "evt-1",
      },
      {
        id: "1c6d2a1f-0a2b-4d63-8b8f-2e3a4b5c6d7e",
        provider: "demo",
        provider_invoice_id: null,
        product_id: 446889,
        variant_id: 652996,
        quantity: 1,
        amount_cents: 0,
        status: "pending",
        created_at: "2026-04-02T12:00:00.000Z",
        completed_at: null,
        raw_event_id: null,
      },
    ])
    .execute();
  await db
    .insertInto("shop_notifications")
    .values([
      {
        idempotency_key: "evt-1",
        invoice_id: "inv_1001",
        event: "NOTIFICATION.SHOP_INVOICE_PROCESSED",
        received_at: "2026-04-01T12:05:00.000Z",
        outcome: "completed",
        order_id: "0b5c1f0e-9f1e-4c52-9a7e-1d2f3a4b5c6d",
      },
      {
        idempotency_key: "sha256:ab12",
        invoice_id: null,
        event: "NOTIFICATION.OTHER",
        received_at: "2026-04-03T00:00:00.000Z",
        outcome: "unknown_invoice",
        order_id: null,
      },
    ])
    .execute();
  await db
    .insertInto("support_requests")
    .values([
      {
        id: "2d7e3b20-1b3c-4e74-9c90-3f4a5b6c7d8e",
        category: "Key Reset",
        answers: JSON.stringify(["Kestrel Vault", 'New PC "Ω"\n**bold**', "me@example.com"]),
        created_at: "2026-05-01T08:00:00.000Z",
        delivery_status: "failed",
        attempts: 7,
        next_attempt_at: "2026-05-01T09:00:00.000Z",
        first_failed_at: "2026-05-01T08:00:01.000Z",
        last_error: "HTTP 500 from the chat channel",
        delivered_at: null,
        claimed_by: "worker-a",
        claimed_until: "2026-05-01T08:01:00.000Z",
      },
      {
        id: "3e8f4c31-2c4d-4f85-8da1-405b6c7d8e9f",
        category: "Other",
        answers: "[]",
        created_at: "2026-05-02T08:00:00.000Z",
        delivery_status: "delivered",
        attempts: 1,
        next_attempt_at: "2026-05-02T08:00:00.000Z",
        first_failed_at: null,
        last_error: null,
        delivered_at: "2026-05-02T08:00:02.000Z",
        claimed_by: null,
        claimed_until: null,
      },
    ])
    .execute();
  const conversation = {
    request_id: "",
    category: "Key Reset",
    locale: "de",
    visitor_email: null,
    status: "open" as const,
    channel_id: null,
    thread_id: null,
    last_relayed_message_id: null,
    next_read_at: null,
    visitor_active_at: "2026-05-02T08:00:00.000Z",
    visitor_seen_seq: 1,
    last_message_at: "2026-05-02T08:00:00.000Z",
    created_at: "2026-05-02T08:00:00.000Z",
    resolved_at: null,
    waiting_on: "us" as const,
    waiting_since: "2026-05-02T08:00:00.000Z",
    first_team_reply_at: null,
    assigned_staff_id: null,
  };
  await db
    .insertInto("support_conversations")
    .values([
      { ...conversation, id: "c1", request_id: "3e8f4c31-2c4d-4f85-8da1-405b6c7d8e9f" },
      {
        ...conversation,
        id: "c2",
        request_id: "other-request",
        visitor_email: "buyer@example.com",
        status: "resolved",
        channel_id: "1001",
        thread_id: "1002",
        last_relayed_message_id: "1003",
        resolved_at: "2026-05-03T08:00:00.000Z",
      },
    ])
    .execute();
  await db
    .insertInto("support_conversation_keys")
    .values([
      { key_hash: "a".repeat(64), conversation_id: "c1", purpose: "browser", created_at: "2026-05-02T08:00:00.000Z" },
      { key_hash: "b".repeat(64), conversation_id: "c2", purpose: "link", created_at: "2026-05-02T08:00:00.000Z" },
    ])
    .execute();
  const line = {
    author_name: null,
    discord_message_id: null,
    created_at: "2026-05-02T08:00:00.000Z",
    delivery_status: null,
    attempts: 0,
    next_attempt_at: null,
    first_failed_at: null,
    last_error: null,
    delivered_at: null,
    claimed_by: null,
    claimed_until: null,
    emailed_at: null,
    source: null,
    staff_id: null,
  };
  await db
    .insertInto("support_conversation_messages")
    .values([
      { ...line, conversation_id: "c1", seq: 1, id: "m1", author: "system", body: "Welcome ☆" },
      {
        ...line,
        conversation_id: "c2",
        seq: 1,
        id: "m2",
        author: "team",
        author_name: "Ada",
        body: "Your key is reset.\nhttps://example.com",
        discord_message_id: "1003",
        emailed_at: "2026-05-02T08:03:00.000Z",
        source: "discord",
      },
    ])
    .execute();
  await db
    .insertInto("support_conversation_notes")
    .values([
      {
        id: "n1",
        conversation_id: "c1",
        author_name: "Ada",
        staff_id: "s1",
        source: "console",
        body: "Asked for the order number ✓",
        discord_message_id: null,
        created_at: "2026-05-02T08:01:00.000Z",
      },
      {
        id: "n2",
        conversation_id: "c2",
        author_name: "Grace",
        staff_id: null,
        source: "discord",
        body: "Refund approved",
        discord_message_id: "1004",
        created_at: "2026-05-02T08:02:00.000Z",
      },
    ])
    .execute();
  await db
    .insertInto("support_saved_replies")
    .values([
      {
        id: "r1",
        title: "Key reset done",
        body: "Your key is reset: sign in again.",
        locale: null,
        created_by: "s1",
        created_at: "2026-05-01T08:00:00.000Z",
        updated_at: "2026-05-01T08:00:00.000Z",
      },
      {
        id: "r2",
        title: "Schlüssel zurückgesetzt",
        body: "Ihr Schlüssel ist zurückgesetzt.",
        locale: "de",
        created_by: "s1",
        created_at: "2026-05-01T08:00:00.000Z",
        updated_at: "2026-05-01T09:00:00.000Z",
      },
    ])
    .execute();
  await db
    .insertInto("reviews_cache")
    .values([
      {
        source: "https://vouches.example/shop",
        fetched_at: "2026-06-01T00:00:00.000Z",
        payload: JSON.stringify([{ reviewer: "a", text: "<b>great</b> ☆", stars: 5 }]),
        etag: 'W/"1"',
        last_error: null,
        last_attempt_at: "2026-06-01T00:00:00.000Z",
      },
      {
        source: "https://vouches.example/product",
        fetched_at: null,
        payload: null,
        etag: null,
        last_error: "HTTP 503",
        last_attempt_at: "2026-06-01T00:01:00.000Z",
      },
    ])
    .execute();
  // The console's team, their passkeys' public halves and the audit log travel too (issue 34).
  await db
    .insertInto("staff")
    .values([
      {
        id: "s-1",
        email: "owner@example.com",
        role: "owner",
        webauthn_user_id: "dXNlci0x",
        created_at: "2026-06-02T00:00:00.000Z",
      },
      {
        id: "s-2",
        email: "agent@example.com",
        role: "support",
        webauthn_user_id: "dXNlci0y",
        created_at: "2026-06-02T00:01:00.000Z",
      },
    ])
    .execute();
  await db
    .insertInto("staff_passkeys")
    .values([
      {
        id: "cred-1",
        staff_id: "s-1",
        public_key: "pk1",
        counter: 0,
        transports: '["internal"]',
        name: "Laptop",
        created_at: "2026-06-02T00:00:00.000Z",
        last_used_at: null,
      },
      {
        id: "cred-2",
        staff_id: "s-2",
        public_key: "pk2",
        counter: 7,
        transports: "[]",
        name: "Phone",
        created_at: "2026-06-02T00:01:00.000Z",
        last_used_at: "2026-06-03T00:00:00.000Z",
      },
    ])
    .execute();
  await db
    .insertInto("audit_log")
    .values([
      {
        id: 1,
        at: "2026-06-02T00:00:00.000Z",
        actor: "cli",
        action: "staff-invited",
        target: "owner@example.com",
        detail: '{"role":"owner"}',
        client_address: null,
        user_agent: null,
        session_began_with: "cli",
      },
      {
        id: 2,
        at: "2026-06-02T00:05:00.000Z",
        actor: "owner@example.com",
        action: "sign-in",
        target: null,
        detail: null,
        client_address: "127.0.0.1",
        user_agent: 'Chrome, "quoted"',
        session_began_with: "passkey",
      },
    ])
    .execute();
  await db
    .insertInto("content_revisions")
    .values([
      {
        id: 1,
        kind: "faq",
        locale: "de",
        doc_key: "",
        value: '[{"id":"refunds","question":"Rückerstattung?","answer":"Ja — „bald“."}]',
        base_revision: null,
        file_hash: "a".repeat(64),
        action: "publish",
        author: "owner@example.com",
        created_at: "2026-06-04T00:00:00.000Z",
      },
      {
        id: 2,
        kind: "legal",
        locale: "en",
        doc_key: "terms",
        value: null,
        base_revision: 1,
        file_hash: "absent",
        action: "file",
        author: "owner@example.com",
        created_at: "2026-06-04T00:01:00.000Z",
      },
    ])
    .execute();
}

async function exportLines(db: Kysely<Database>): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of exportShopData(db)) lines.push(line);
  return lines;
}

/** Every row of every shop-data table, read straight from the database, per table in key order. */
async function readAllRows(db: Kysely<Database>) {
  const tables: Record<string, unknown[]> = {};
  for (const [table, key] of Object.entries(SHOP_DATA_TABLES)) {
    const rows = (await db
      .selectFrom(table as keyof Database)
      .selectAll()
      .execute()) as Array<Record<string, unknown>>;
    tables[table] = rows.sort((a, b) => String(a[key]).localeCompare(String(b[key]), "en", { numeric: true }));
  }
  return tables;
}

describe("db export / import", () => {
  it("knows every table the migrations create as either shop data or short-lived state", async () => {
    const database = await freshDatabase("sqlite");
    const tables = (await database.handle.db.introspection.getTables()).map((table) => table.name);
    const classified = new Set([...Object.keys(SHOP_DATA_TABLES), ...TRANSIENT_TABLES]);
    expect(tables.filter((table) => !classified.has(table))).toEqual([]);
    expect(tables).toEqual(expect.arrayContaining(Object.keys(SHOP_DATA_TABLES)));
  });

  const journeys: Array<["sqlite" | "postgres", "sqlite" | "postgres"]> = [
    ["sqlite", "postgres"],
    ["postgres", "sqlite"],
  ];
  // Needs PostgreSQL on 127.0.0.1:5432 (skipped, like every PostgreSQL test, when it is not reachable).
  it.skipIf(!postgres).each(journeys)("%s -> %s -> back gives identical rows in every column", async (from, via) => {
    const source = await freshDatabase(from);
    const middle = await freshDatabase(via);
    const back = await freshDatabase(from);
    await fillShopData(source.handle.db);

    const exported = await exportLines(source.handle.db);
    expect(exported).toHaveLength(34);
    expect(JSON.parse(exported[0] ?? "")).toEqual({
      table: "status_entries",
      row: expect.objectContaining({ id: 3, name: "Kestrel Vault" }),
    });
    expect(await importShopData(middle.handle, exported)).toEqual({
      status_entries: 2,
      status_changes: 2,
      incidents: 2,
      incident_updates: 2,
      orders: 2,
      shop_notifications: 2,
      support_requests: 2,
      support_conversations: 2,
      support_conversation_keys: 2,
      support_conversation_messages: 2,
      support_conversation_notes: 2,
      support_saved_replies: 2,
      reviews_cache: 2,
      staff: 2,
      staff_passkeys: 2,
      audit_log: 2,
      content_revisions: 2,
    });
    await importShopData(back.handle, await exportLines(middle.handle.db));

    const original = await readAllRows(source.handle.db);
    expect(await readAllRows(middle.handle.db)).toEqual(original);
    expect(await readAllRows(back.handle.db)).toEqual(original);
    expect(await exportLines(back.handle.db)).toEqual(exported);

    // Ids were kept, so new rows must continue after the highest one (PostgreSQL's sequences are reset on import).
    for (const database of [middle, back]) {
      const incident = await database.handle.db
        .insertInto("incidents")
        .values({ title: "New", body: "", started_at: "2026-07-01T00:00:00.000Z", resolved_at: null })
        .returning("id")
        .executeTakeFirstOrThrow();
      expect(incident.id).toBe(10);
    }
  });

  it("refuses a target that holds shop data, and replaces it with --replace", async () => {
    const source = await freshDatabase("sqlite");
    const target = await freshDatabase(postgres ? "postgres" : "sqlite");
    await fillShopData(source.handle.db);
    await target.handle.db
      .insertInto("status_entries")
      .values({
        name: "Seeded at first start",
        status: "operational",
        uptime: "99",
        sort_order: 0,
        updated_at: "2026-01-01T00:00:00.000Z",
      })
      .execute();
    const lines = await exportLines(source.handle.db);

    await expect(importShopData(target.handle, lines)).rejects.toThrow(
      "The target database already holds shop data (status_entries: 1); pass --replace to delete it first",
    );
    expect(await importShopData(target.handle, lines, { replace: true })).toMatchObject({ status_entries: 2 });
    expect(await readAllRows(target.handle.db)).toEqual(await readAllRows(source.handle.db));
  });

  it.each([
    [
      '{"table":"users","row":{}}',
      "line 2: table: expected one of status_entries, status_changes, incidents, incident_updates, orders",
    ],
    ['{"table":"incidents","row":{"id":1,"colour":"red"}}', "line 2: incidents has no column colour"],
    ["not json", "line 2: not JSON"],
    ['{"table":"incidents","row":{"id":1,"title":["x"]}}', "line 2: row.title: expected a string, a number or null"],
    ['{"table":"incidents","row":[]}', "line 2: row: expected an object of column values"],
    ['{"table":"incidents","row":{"id":1}}', "line 2 (incidents): "],
  ])("stops at a bad line (%s), names it, and writes nothing", async (bad, message) => {
    const target = await freshDatabase("sqlite");
    const good = JSON.stringify({
      table: "status_entries",
      row: {
        id: 1,
        name: "A",
        status: "operational",
        uptime: "1",
        sort_order: 0,
        updated_at: "2026-01-01T00:00:00.000Z",
      },
    });
    await expect(importShopData(target.handle, [good, bad])).rejects.toThrow(message);
    expect(await target.handle.db.selectFrom("status_entries").selectAll().execute()).toEqual([]);
  });

  it("refuses an input without rows, leaving the target as it was", async () => {
    const target = await freshDatabase("sqlite");
    await fillShopData(target.handle.db);
    const before = await readAllRows(target.handle.db);
    await expect(
      importShopData(target.handle, ["", "> kestrel-storefront@0.1.0 cli", ""], { replace: true }),
    ).rejects.toThrow("The input held no rows (expected the output of db export)");
    expect(await readAllRows(target.handle.db)).toEqual(before);
  });

  // Two CLI processes through npm and tsx: more than the default 30 s on a loaded 2-core machine.
  it("reads a file made through `npm run cli -- db export > shop.jsonl` (npm's banner lines included)", {
    timeout: 120_000,
  }, async () => {
    const source = await freshDatabase("sqlite");
    const target = await freshDatabase("sqlite");
    await fillShopData(source.handle.db);
    const env = { ...process.env, LOG_LEVEL: "warn", DATABASE_URL: "", NODE_NO_WARNINGS: "1" };
    const exported = spawnSync("npm", ["run", "cli", "--", "db", "export"], {
      cwd: root,
      env: { ...env, DATA_DIR: source.dataDir },
      encoding: "utf8",
    });
    expect(exported.status, exported.stderr).toBe(0);
    expect(exported.stderr).toContain("Exported 34 rows from SQLite.");
    const file = path.join(makeDataDir(), "shop.jsonl");
    fs.writeFileSync(file, exported.stdout);

    const imported = spawnSync("npm", ["run", "cli", "--", "db", "import"], {
      cwd: root,
      env: { ...env, DATA_DIR: target.dataDir },
      input: fs.readFileSync(file),
      encoding: "utf8",
    });
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stdout).toContain(
      "Imported 34 rows (status_entries 2, status_changes 2, incidents 2, incident_updates 2, orders 2, shop_notifications 2, support_requests 2, support_conversations 2, support_conversation_keys 2, support_conversation_messages 2, support_conversation_notes 2, support_saved_replies 2, reviews_cache 2, staff 2, staff_passkeys 2, audit_log 2, content_revisions 2).",
    );
    expect(await readAllRows(target.handle.db)).toEqual(await readAllRows(source.handle.db));
  });
});

describe("db backup", () => {
  it("copies the SQLite database while it is open, and never overwrites a file", async () => {
    const source = await freshDatabase("sqlite");
    await fillShopData(source.handle.db);
    const backupDir = makeDataDir("kestrel-backup-");
    const target = await backupSqlite(source.handle, path.join(backupDir, "store.db"));
    expect(target).toBe(path.join(backupDir, "store.db"));
    const { openDatabase } = await import("../db/client");
    const copy = openDatabase({ dataDir: backupDir });
    try {
      expect(await readAllRows(copy.db)).toEqual(await readAllRows(source.handle.db));
    } finally {
      await copy.close();
    }
    await expect(backupSqlite(source.handle, target)).rejects.toThrow(
      `${target} already exists: choose a new file name`,
    );
  });

  it("points at pg_dump on PostgreSQL", async (ctx) => {
    if (!postgres) ctx.skip("PostgreSQL is not reachable on 127.0.0.1:5432");
    const database = await freshDatabase("postgres");
    await expect(backupSqlite(database.handle, path.join(makeDataDir(), "x.db"))).rejects.toThrow(
      /on PostgreSQL use pg_dump/,
    );
  });
});
