// Issue 42, "One transaction": every console and CLI change is written with its audit entry in one transaction, and
// announced only once both are committed. A trigger that makes every audit insert fail stands in for a broken log.
import { type Kysely, sql } from "kysely";
import { RouterContextProvider } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { AuditWriteError } from "~/features/audit/audit-log.server";
import { accountAction } from "~/features/console/account/account-page.server";
import { loadSetupPage, signOut } from "~/features/console/sign-in/sign-in-page.server";
import { deliveriesAction } from "~/features/console/deliveries/deliveries-page.server";
import { savedRepliesAction } from "~/features/console/saved-replies/saved-replies-page.server";
import { staffAction } from "~/features/console/staff/staff-page.server";
import { statusConsoleAction } from "~/features/console/status/status-page.server";
import { conversationAction } from "~/features/console/support/conversation-page.server";
import { addPasskey } from "~/features/staff/passkey-store.server";
import { findStaffByEmail, inviteStaff } from "~/features/staff/people.server";
import { createSession } from "~/features/staff/sessions.server";
import { ANY_CONVERSATION, conversationDoorbell } from "~/features/support-conversation/conversation-doorbell.server";
import { openConversation } from "~/features/support-conversation/conversation-store.server";
import { insertSupportRequest } from "~/features/support-relay/support-outbox.server";
import { CHANGE_UNDONE } from "~/platform/api-errors";
import { clientAddressContext } from "~/platform/request-context";
import { staffCommand } from "../../cli/staff";
import { statusCommand } from "../../cli/status";
import type { Database } from "../../db/schema";
import { testDialects } from "../support/databases";
import { useAppEnvironment } from "../support/test-environment";

const dialects = await testDialects();
const ORIGIN = "http://console.test";

/** What a returned or thrown `data()` / Response answers with. */
async function settle(work: Promise<unknown>): Promise<{ status: number; data?: unknown }> {
  const of = (value: unknown) => {
    if (value instanceof Response) return { status: value.status };
    const { init, data } = value as { init?: { status?: number }; data?: unknown };
    return { status: init?.status ?? 200, data };
  };
  try {
    return of(await work);
  } catch (thrown) {
    if (thrown instanceof Error) throw thrown;
    return of(thrown);
  }
}

const UNDONE = { status: 503, data: CHANGE_UNDONE };

describe.each(dialects)("a change and its audit entry on %s", (dialect) => {
  const database = useAppEnvironment(dialect, { PUBLIC_URL: ORIGIN });
  const db = () => database().handle.db;
  let people = 0;

  async function breakAuditLog() {
    if (dialect === "sqlite")
      await sql`CREATE TRIGGER audit_log_broken BEFORE INSERT ON audit_log BEGIN SELECT RAISE(ABORT, 'the audit log is broken'); END`.execute(
        db(),
      );
    else {
      await sql`CREATE OR REPLACE FUNCTION audit_log_broken() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'the audit log is broken'; END $$ LANGUAGE plpgsql`.execute(
        db(),
      );
      await sql`CREATE TRIGGER audit_log_broken BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_broken()`.execute(
        db(),
      );
    }
  }

  afterEach(async () => {
    if (dialect === "sqlite") await sql`DROP TRIGGER IF EXISTS audit_log_broken`.execute(db());
    else await sql`DROP TRIGGER IF EXISTS audit_log_broken ON audit_log`.execute(db());
  });

  async function auditCount(action: string) {
    const row = await db()
      .selectFrom("audit_log")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("action", "=", action)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The shop's one status entry (the environment seeds none). */
  async function statusEntry() {
    const found = await db().selectFrom("status_entries").select(["name", "status"]).executeTakeFirst();
    if (found) return found;
    const entry = { name: "Kestrel Vault", status: "operational" };
    await db()
      .insertInto("status_entries")
      .values({ ...entry, uptime: "", sort_order: 0, updated_at: new Date().toISOString() })
      .execute();
    return entry;
  }

  async function person(role: "owner" | "admin" | "support") {
    const email = `${role}-${++people}@example.com`;
    const { staff } = await inviteStaff(db(), { email, role, by: "cli" });
    return { staff, cookie: `kestrel-staff=${await createSession(db(), { staffId: staff.id, beganWith: "passkey" })}` };
  }

  function post(page: string, cookie: string, form: Record<string, string>) {
    const request = new Request(`${ORIGIN}${page}`, {
      method: "POST",
      headers: { cookie, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form).toString(),
    });
    const context = new RouterContextProvider();
    context.set(clientAddressContext, "10.0.0.9");
    return { request, context };
  }

  it("a role change, a removal and a session revocation are undone when their entry fails, and say so", async () => {
    const owner = await person("owner");
    const other = await person("support");
    const send = (form: Record<string, string>) => {
      const { request, context } = post("/admin/staff", owner.cookie, form);
      return settle(staffAction(request, context));
    };
    await breakAuditLog();
    expect(await send({ intent: "role", email: other.staff.email, role: "admin" })).toEqual(UNDONE);
    expect((await findStaffByEmail(db(), other.staff.email))?.role).toBe("support");
    expect(await send({ intent: "remove", email: other.staff.email })).toEqual(UNDONE);
    expect(await findStaffByEmail(db(), other.staff.email)).toBeDefined();
    expect(await send({ intent: "revoke", email: other.staff.email })).toEqual(UNDONE);
    const sessions = await db().selectFrom("staff_sessions").select("id_hash").where("staff_id", "=", other.staff.id);
    expect(await sessions.execute()).toHaveLength(1);
    expect(await send({ intent: "invite", email: "new@example.com", role: "support" })).toEqual(UNDONE);
    expect(await findStaffByEmail(db(), "new@example.com")).toBeUndefined();

    await sql`DROP TRIGGER audit_log_broken${sql.raw(dialect === "postgres" ? " ON audit_log" : "")}`.execute(db());
    expect((await send({ intent: "role", email: other.staff.email, role: "admin" })).status).toBe(200);
    expect((await findStaffByEmail(db(), other.staff.email))?.role).toBe("admin");
    expect(await auditCount("staff-role-changed")).toBe(1);
  });

  it("Sign out everywhere and a setup link's session are undone when their entry fails", async () => {
    const me = await person("admin");
    await createSession(db(), { staffId: me.staff.id, beganWith: "passkey" });
    await breakAuditLog();
    const { request, context } = post("/admin/sign-out", me.cookie, { intent: "sign-out-everywhere" });
    expect(await settle(signOut(request, context))).toEqual(UNDONE);
    const sessions = db().selectFrom("staff_sessions").select("id_hash").where("staff_id", "=", me.staff.id);
    expect(await sessions.execute()).toHaveLength(2);

    const { token, staff } = await inviteStaff(db(), {
      email: `setup-${++people}@example.com`,
      role: "support",
      by: "cli",
    });
    const setup = new Request(`${ORIGIN}/admin/setup?token=${token}`);
    const setupContext = new RouterContextProvider();
    setupContext.set(clientAddressContext, "10.0.0.9");
    expect(await settle(loadSetupPage(setup, setupContext))).toEqual(UNDONE);
    // The link is still unspent: the person can open it again once the log can be written.
    const link = await db()
      .selectFrom("staff_setup_links")
      .select("used_at")
      .where("staff_id", "=", staff.id)
      .execute();
    expect(link).toEqual([{ used_at: null }]);
    expect(
      await db().selectFrom("staff_sessions").select("id_hash").where("began_with", "=", "setup-link").execute(),
    ).toEqual([]);
  });

  it("a passkey renamed or removed keeps its name and stays when the entry fails", async () => {
    const me = await person("admin");
    for (const id of ["cred-a", "cred-b"])
      await addPasskey(db(), { staffId: me.staff.id, id, publicKey: "pk", counter: 0, transports: [], name: id });
    await breakAuditLog();
    const send = (form: Record<string, string>) => {
      const { request, context } = post("/admin/account", me.cookie, form);
      return settle(accountAction(request, context));
    };
    expect(await send({ intent: "rename", passkey: "cred-a", name: "Laptop" })).toEqual(UNDONE);
    expect(await send({ intent: "remove", passkey: "cred-b" })).toEqual(UNDONE);
    const names = await db().selectFrom("staff_passkeys").select("name").where("staff_id", "=", me.staff.id).execute();
    expect(names.map((row) => row.name).sort()).toEqual(["cred-a", "cred-b"]);
  });

  it("a status or an incident is not changed, nor announced to the support channel, when the entry fails", async () => {
    const admin = await person("admin");
    const product = await statusEntry();
    await breakAuditLog();
    const send = (form: Record<string, string>) => {
      const { request, context } = post("/admin/status", admin.cookie, form);
      return settle(statusConsoleAction(request, context));
    };
    const next = product.status === "outage" ? "maintenance" : "outage";
    expect(await send({ intent: "status", product: product.name, status: next })).toEqual(UNDONE);
    expect(
      (await db().selectFrom("status_entries").select("status").where("name", "=", product.name).executeTakeFirst())
        ?.status,
    ).toBe(product.status);
    expect(
      await send({ intent: "publish", title: "Sign-in down", body: "We are looking.", status: "investigating" }),
    ).toEqual(UNDONE);
    expect(await db().selectFrom("incidents").select("id").execute()).toEqual([]);
    expect(await db().selectFrom("incident_updates").select("id").execute()).toEqual([]);
    expect(await db().selectFrom("support_requests").select("id").execute()).toEqual([]);
  });

  async function conversation(trx: Kysely<Database>) {
    const request = await insertSupportRequest(
      trx,
      { category: "Key Reset", answers: ["Kestrel Vault", "a", "@chatname"], locale: "en" },
      { channelConfigured: true },
    );
    const { conversation } = await openConversation(trx, {
      requestId: request.id,
      category: "Key Reset",
      locale: "en",
      visitorEmail: null,
      lines: [{ author: "visitor", body: "My key stopped working" }],
    });
    return { requestId: request.id, conversationId: conversation.id };
  }

  it("a reply is not stored, queued for the thread nor rung when its entry fails; it is rung once committed", async () => {
    const agent = await person("support");
    const { conversationId } = await conversation(db());
    const rings: string[] = [];
    const stop = conversationDoorbell().listen(ANY_CONVERSATION, (id) => {
      if (id) rings.push(id);
    });
    try {
      const send = (form: Record<string, string>) => {
        const { request, context } = post(`/admin/support/${conversationId}`, agent.cookie, form);
        return settle(conversationAction(request, context, conversationId));
      };
      const messages = () =>
        db()
          .selectFrom("support_conversation_messages")
          .select("body")
          .where("conversation_id", "=", conversationId)
          .execute();
      const before = await messages();
      await breakAuditLog();
      expect(await send({ intent: "reply", message: "Your key is reset" })).toEqual(UNDONE);
      expect(await send({ intent: "note", message: "Checked the order" })).toEqual(UNDONE);
      expect(await send({ intent: "resolve" })).toEqual(UNDONE);
      expect(await messages()).toEqual(before);
      expect(
        await db()
          .selectFrom("support_conversation_notes")
          .select("id")
          .where("conversation_id", "=", conversationId)
          .execute(),
      ).toEqual([]);
      expect(
        (await db().selectFrom("support_conversations").select("status").where("id", "=", conversationId).execute())[0]
          ?.status,
      ).toBe("open");
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(rings).toEqual([]);

      await sql`DROP TRIGGER audit_log_broken${sql.raw(dialect === "postgres" ? " ON audit_log" : "")}`.execute(db());
      expect((await send({ intent: "reply", message: "Your key is reset" })).status).toBe(303);
      expect((await messages()).length).toBe(before.length + 1);
      expect(rings).toContain(conversationId);
      expect(await auditCount("support-replied")).toBe(1);
    } finally {
      stop();
    }
  });

  it("a saved reply is not created when its entry fails, and the page says nothing was changed", async () => {
    const admin = await person("admin");
    await breakAuditLog();
    const { request, context } = post("/admin/support/saved-replies", admin.cookie, {
      intent: "add",
      title: "Key resent",
      body: "We sent your key again.",
      locale: "any",
    });
    expect(await settle(savedRepliesAction(request, context))).toEqual(UNDONE);
    expect(await db().selectFrom("support_saved_replies").select("id").execute()).toEqual([]);
  });

  it("a delivery retry leaves the row failed when its entry fails", async () => {
    const admin = await person("admin");
    const { requestId } = await conversation(db());
    await db().updateTable("support_requests").set({ delivery_status: "failed" }).where("id", "=", requestId).execute();
    await breakAuditLog();
    const { request, context } = post("/admin/deliveries", admin.cookie, {
      intent: "retry",
      kind: "support-request",
      id: requestId,
    });
    expect(await settle(deliveriesAction(request, context))).toEqual(UNDONE);
    const row = await db()
      .selectFrom("support_requests")
      .select(["delivery_status", "claimed_by"])
      .where("id", "=", requestId)
      .executeTakeFirst();
    expect(row).toEqual({ delivery_status: "failed", claimed_by: null });
  });

  it("the CLI's changes fail saying nothing was changed, and change nothing", async () => {
    const cli = { db: db(), products: [], out: () => {}, err: () => {} };
    const target = await person("support");
    const product = await statusEntry();
    await breakAuditLog();
    await expect(staffCommand(["remove", target.staff.email], cli)).rejects.toThrow(AuditWriteError);
    await expect(staffCommand(["remove", target.staff.email], cli)).rejects.toThrow(
      "Nothing was changed: the audit log could not be written.",
    );
    expect(await findStaffByEmail(db(), target.staff.email)).toBeDefined();
    const next = product.status === "outage" ? "maintenance" : "outage";
    await expect(statusCommand(["set", product.name, next], cli)).rejects.toThrow(AuditWriteError);
    const after = await db().selectFrom("status_entries").select("status").where("name", "=", product.name).execute();
    expect(after[0]?.status).toBe(product.status);
  });
});
